package report

// What a result of `dbverify check --concurrent` adds.

// Isolation is the isolation level a concurrent verdict assumed, and
// where it comes from ("postgres default", "set in the code at
// store.go:31", "--isolation").
type Isolation struct {
	Level  string `json:"level"`
	Source string `json:"source"`
}

// Scopes of a concurrent verdict (Concurrency.Scope).
const (
	// ScopeProved: SAFE by the stability check, for any number of
	// concurrent requests.
	ScopeProved = "proved for any number of concurrent requests"
	// ScopeSerializable: SAFE because every request that writes runs in
	// one SERIALIZABLE transaction of PostgreSQL and keeps the constraint
	// alone (see pipeline/serializable.go).
	ScopeSerializable = "proved for any number of concurrent requests: serializable transactions"
	// ScopeBounded: SAFE by the search of every pair of requests.
	ScopeBounded = "bounded: 2 requests"
	// ScopeBoundedSwitches: SAFE by the search of the schedules of every
	// pair of requests in which one request runs some of its operations,
	// the other some of its, then each runs to its end (the search of
	// every interleaving was undecided).
	ScopeBoundedSwitches = "bounded: 2 requests, schedules with at most 3 switches (A's first operations, B's, then A to its end, then B)"
	// ScopeBounded3: SAFE by the search of every pair and every triple
	// of requests (--requests 3).
	ScopeBounded3 = "bounded: 3 requests"
	// ScopeSearch: decided (UNSAFE) or left UNKNOWN by the search of
	// pairs of requests.
	ScopeSearch = "2 concurrent requests"
	// ScopeSearch3: UNSAFE by the search of triples of requests, every
	// pair keeping the constraint.
	ScopeSearch3 = "3 concurrent requests"
	// ScopeSequential: the entry is not SAFE alone; that verdict stands.
	ScopeSequential = "sequential"
)

// Labels of a concurrent counterexample.
const (
	// LabelConcurrencyOnly: each request alone keeps the constraint.
	LabelConcurrencyOnly = "concurrency-only"
)

// Concurrency says how a concurrent verdict was reached.
type Concurrency struct {
	Scope string `json:"scope"`
	// PairsSearched counts the pairs of requests searched.
	PairsSearched int `json:"pairs_searched,omitempty"`
	// SchedulePlans counts the products of few-switch schedules searched
	// where the search of every interleaving was undecided.
	SchedulePlans int `json:"schedule_plans,omitempty"`
	// Interleavings counts the executions of the products of every
	// interleaving the search built (interleave.Size: sequences of the
	// requests' database operations with the Go branches between them,
	// summed over the pairs), after the partial-order reduction;
	// InterleavingsUnreduced counts them without it.
	Interleavings          uint64 `json:"interleavings,omitempty"`
	InterleavingsUnreduced uint64 `json:"interleavings_unreduced,omitempty"`
	// StabilityFailed says why the stability check did not prove the
	// entry (then the pairs were searched).
	StabilityFailed string `json:"stability_failed,omitempty"`
}

// Request is one request of a concurrent counterexample: its name ("A",
// "B"), its entry and its inputs.
type Request struct {
	Request string  `json:"request"`
	Entry   string  `json:"entry"`
	Inputs  []Input `json:"inputs"`
}

// Input is the value of one input of a request.
type Input struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// ScheduleStep is one database operation of a concurrent counterexample,
// in the order executed: the Step-th operation (from 1) of Request.
type ScheduleStep struct {
	Request string   `json:"request"`
	Step    int      `json:"step"`
	Pos     string   `json:"pos"`
	Op      string   `json:"op"` // begin, exec, select, commit, rollback
	SQL     string   `json:"sql"`
	Args    []string `json:"args"`
	// Bound is SQL with the values bound to its placeholders, as the
	// database runs it (the trace step's Step.SQL); "" when not known.
	Bound string `json:"bound,omitempty"`
	// Deadlock: the step fails as a deadlock victim (PostgreSQL 40P01,
	// MySQL 1213): it waited for a lock of the other request, which
	// waited for one of its own.
	Deadlock bool `json:"deadlock,omitempty"`
	// Fails: the statement fails with a server error other than a
	// deadlock (the model lets any statement fail; on PostgreSQL the
	// error aborts the transaction and releases its locks): a replay
	// makes it fail.
	Fails bool `json:"fails,omitempty"`
}
