package report

import "fmt"

// Verdict is the answer for one (entry, constraint).
type Verdict string

const (
	Safe    Verdict = "SAFE"    // the constraint holds after every run, for all inputs and databases
	Unsafe  Verdict = "UNSAFE"  // a feasible, validated run breaks it: Counterexample
	Unknown Verdict = "UNKNOWN" // neither: Reason says why
)

// Report is the outcome of a run: `dbverify check --format json` prints
// exactly this object.
type Report struct {
	Results []*Result `json:"results"`
	// Interrupted says the run was interrupted (SIGINT) before every
	// result was decided: the undecided ones are UNKNOWN, cancelled. An
	// interrupt after that (in the re-checks under the run's other
	// constraints) leaves a complete report.
	Interrupted bool `json:"-"`
	// Coverage lists the functions of the checked packages that write a
	// constrained table, each with the verified entries that run it.
	Coverage []Coverage `json:"coverage"`
	// Warnings are problems with what the run checks (a writer no
	// verified entry runs, a constraint no entry may break).
	Warnings []string `json:"warnings,omitempty"`
	// Findings are warnings of their own classes about the program
	// (findings.go), with --concurrent.
	Findings []Finding `json:"findings,omitempty"`
	// Dialect is the SQL dialect the program's SQL was read in, and why.
	Dialect *Dialect `json:"dialect,omitempty"`
	// Assume are the run's --assume facts about a table's rows, as
	// given: every initial row of a result satisfies them, and a replay
	// refuses to seed a row that breaks one.
	Assume []string `json:"assume,omitempty"`
	Stats  Stats    `json:"stats"`
}

// Dialect is the SQL dialect of a run and why it was chosen ("driver
// github.com/lib/pq", "sql.Open(\"sqlite\", …)", "--dialect").
type Dialect struct {
	Name   string `json:"name"`
	Source string `json:"source"`
}

// Coverage says which verified entries run a function that writes a
// constrained table. A writer no discovered entry runs is made an entry
// of its own (Added); with --entry, it is left out and warned about.
type Coverage struct {
	Writer   string   `json:"writer"`
	Position string   `json:"position"`
	Tables   []string `json:"tables"` // "?" for SQL whose text is not known
	Entries  []string `json:"entries"`
	Added    bool     `json:"added,omitempty"`
	// Generated: a query method sqlc generated that nothing in the
	// module calls, not checked (--check-generated checks it).
	Generated bool `json:"generated,omitempty"`
	// CallerSites, when not 0: the writer runs SQL text its callers pass,
	// each call site in the module a constant, and is checked at those
	// call sites (within the entries that run them), not as an entry.
	CallerSites int `json:"caller_sites,omitempty"`
}

// Stats are the run's totals.
type Stats struct {
	Entries    int `json:"entries"`
	Safe       int `json:"safe"`
	Unsafe     int `json:"unsafe"`
	Unknown    int `json:"unknown"`
	SMTQueries int `json:"smt_queries"`
	// SolverRestarts counts the Z3 checks that ran out of their time and
	// were restarted with another random seed (a heavy-tailed formula,
	// nonlinear arithmetic mostly): what made a run slow.
	SolverRestarts int     `json:"solver_restarts"`
	Seconds        float64 `json:"seconds"`
	// FrontendSeconds is the time spent loading and building SSA.
	FrontendSeconds float64 `json:"frontend_seconds"`
}

// TogetherAssumption begins the assumption of a result decided assuming
// the run's other row constraints on entry (by induction over the
// entries): the cross-check reads it to draw initial rows that keep them.
const TogetherAssumption = "the other constraints of this run hold on entry"

// OthersNotAssumed begins the assumption of an UNSAFE result whose
// counterexample's initial rows may break the run's other row
// constraints (its re-check under them did not decide).
const OthersNotAssumed = "nothing about the run's other constraints"

// Result is the verdict for one (entry, constraint).
type Result struct {
	Entry string `json:"entry"`
	// EntryPosition is "file:line" of the entry function's declaration
	// (not in the JSON output: the writers place results with it).
	EntryPosition string  `json:"-"`
	Constraint    string  `json:"constraint"`
	Verdict       Verdict `json:"verdict"`
	Reason        string  `json:"reason"` // why UNKNOWN ("" otherwise)
	// Limit, for an UNKNOWN a limit stopped, says which kind: "work" (Z3
	// resource units, queries, predicates, abstract states, refinements:
	// the same on every machine) or "wall-clock" (a time limit the user
	// set: the verdict may differ on a less busy machine).
	Limit       string `json:"limit,omitempty"`
	Position    string `json:"position"` // UNSAFE: the violated check; UNKNOWN: the construct at fault, if any
	Refinements int    `json:"refinements"`
	// Predicates are those of the last abstraction (SAFE: the
	// invariant's vocabulary).
	Predicates []string `json:"predicates"`
	// Assumptions are the approximations the verdict rests on, one
	// "assuming …" line each.
	Assumptions []string `json:"assumptions,omitempty"`
	// Suppressed is the reason of the //dbverify:ignore directive that
	// suppresses this result ("" = not suppressed).
	Suppressed string `json:"suppressed,omitempty"`
	// Cached is set when the verdict comes from the result cache (no
	// verification ran, SMTQueries is 0).
	Cached bool `json:"cached,omitempty"`
	// Proof, for a SAFE without predicates, says how it was decided.
	Proof string `json:"proof,omitempty"`
	// Engine names the engine that decided, when the checker chose it.
	Engine string `json:"engine,omitempty"`
	// Dialect is the SQL dialect this entry's SQL was read in where it is
	// not the run's (Report.Dialect): a program that uses two dialects
	// reads each statement in that of its handle or its package's driver.
	Dialect string `json:"dialect,omitempty"`
	// InBaseline is set by the command when the finding is in the
	// --baseline report: it is shown but does not fail the run.
	InBaseline     bool            `json:"in_baseline,omitempty"`
	Counterexample *Counterexample `json:"counterexample,omitempty"` // UNSAFE only
	// DatabaseCheck, for an UNSAFE whose constraint the schema also
	// declares as a CHECK: the database rejects the violating
	// statement, so the call fails at run time instead of corrupting
	// data (the verdict stands: the program relies on the CHECK).
	DatabaseCheck *DatabaseCheck `json:"database_check,omitempty"`
	SMTQueries    int            `json:"smt_queries"`
	// SolverRestarts counts this result's Z3 checks restarted after
	// running out of time.
	SolverRestarts int     `json:"solver_restarts"`
	Seconds        float64 `json:"seconds"`
	BoolProg       string  `json:"boolprog,omitempty"` // last boolean program, with --dump-boolprog
	IR             string  `json:"ir,omitempty"`       // lowered program, with --dump-ir
	// Vacuous is set when no initial state satisfies the constraint, the
	// facts and the schema's CHECKs together: nothing was checked.
	Vacuous bool `json:"-"`

	// With --concurrent (see concurrent.go): the isolation level assumed,
	// how the verdict was reached, and for a counterexample of two
	// requests its labels, the second request's entry, the requests with
	// their inputs, the initial rows and the schedule of their database
	// operations.
	Isolation      *Isolation     `json:"isolation,omitempty"`
	Concurrency    *Concurrency   `json:"concurrency,omitempty"`
	Labels         []string       `json:"labels,omitempty"`
	ConcurrentWith string         `json:"concurrent_with,omitempty"`
	Requests       []Request      `json:"requests,omitempty"`
	InitialRows    []Row          `json:"initial_rows,omitempty"`
	Schedule       []ScheduleStep `json:"schedule,omitempty"`
}

// Tally sets the verdict counts of r.Stats from r.Results.
func (r *Report) Tally() {
	r.Stats.Safe, r.Stats.Unsafe, r.Stats.Unknown = 0, 0, 0
	for _, res := range r.Results {
		switch res.Verdict {
		case Safe:
			r.Stats.Safe++
		case Unsafe:
			r.Stats.Unsafe++
		default:
			r.Stats.Unknown++
		}
	}
}

// Count returns the number of results f holds for.
func (r *Report) Count(f func(*Result) bool) int {
	n := 0
	for _, res := range r.Results {
		if f(res) {
			n++
		}
	}
	return n
}

// A DatabaseCheck is a CHECK constraint of the schema that states a
// result's constraint.
type DatabaseCheck struct {
	// Name is the name the database knows it by ("" when the DDL does
	// not name it and the dialect's generated name is not predictable).
	Name string `json:"name,omitempty"`
	// Condition is the CHECK's condition as the schema writes it.
	Condition string `json:"condition"`
	// Error is the error the engine returns for the rejected statement
	// ("SQLSTATE 23514" on PostgreSQL).
	Error string `json:"error,omitempty"`
}

// Headline is what the result line says of the statement the CHECK
// rejects.
func (d *DatabaseCheck) Headline() string {
	s := "the violating statement fails on the database: CHECK"
	if d.Name != "" {
		s += " " + d.Name
	}
	s += " rejects it"
	if d.Error != "" {
		s += ", " + d.Error
	}
	return s
}

// Sentence says what the CHECK does to the counterexample's run.
func (d *DatabaseCheck) Sentence() string {
	name := "CHECK"
	if d.Name != "" {
		name = "CHECK " + d.Name
	}
	fails := "the call fails at run time"
	if d.Error != "" {
		fails += " (" + d.Error + ")"
	}
	return fmt.Sprintf("The database's %s (%s) would reject the violating statement: %s instead of corrupting data.", name, d.Condition, fails)
}
