package schedule

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dbverify/dbverify/witness/schedule/gate"
)

// Schedule is a concurrent run: who calls what with which inputs, the
// rows the database starts with, and the order of the requests' database
// operations.
type Schedule struct {
	Requests    []Request `json:"requests"`
	InitialRows []Row     `json:"initial_rows"`
	Schedule    []Step    `json:"schedule,omitempty"`
	// Order is a hand-written schedule: the steps as "A1 B1 A2", each the
	// request's name and the number (from 1) of its operation. Used when
	// Schedule is empty.
	Order     string     `json:"order,omitempty"`
	Isolation *Isolation `json:"isolation,omitempty"`
}

// Request is one call of an entry point.
type Request struct {
	// Request names the request ("A", "B").
	Request string  `json:"request"`
	Entry   string  `json:"entry"`
	Inputs  []Input `json:"inputs"`
}

// Input is one input of a request: a parameter or a field path as the
// witness driver names it ("amount", "req.Qty", "s.limit").
type Input struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Row is one initial row; values are text, "NULL" the null value.
type Row struct {
	Table  string            `json:"table"`
	Values map[string]string `json:"values"`
}

// Step is one step of a schedule: the Step-th database operation (from 1)
// of Request. Pos, Op, SQL and Args describe it (the verifier fills them);
// replay needs only Request and Step.
type Step struct {
	Request string   `json:"request"`
	Step    int      `json:"step"`
	Pos     string   `json:"pos,omitempty"`
	Op      string   `json:"op,omitempty"`
	SQL     string   `json:"sql,omitempty"`
	Args    []string `json:"args,omitempty"`
	// Fails: the statement fails in the counterexample (with a server
	// error, not a deadlock): the replay sends one the server refuses in
	// its place, so that a PostgreSQL transaction is aborted there.
	Fails bool `json:"fails,omitempty"`
}

// Isolation is the isolation level the run assumes and where it comes
// from ("sql.TxOptions at store.go:31", "postgres default").
type Isolation struct {
	Level  string `json:"level"`
	Source string `json:"source"`
}

// ParseOrder reads a hand-written order "A1 B1 A2 B2": each word is a
// request name (letters) followed by the operation's number, and
// "(fails)" where the operation fails (Step.Fails), as a replay prints it:
// "A1 A2 A3 A4(fails) B1".
func ParseOrder(order string) ([]Step, error) {
	var steps []Step
	for _, w := range strings.Fields(strings.ReplaceAll(order, ",", " ")) {
		w, fails := strings.CutSuffix(w, "(fails)")
		i := strings.IndexFunc(w, func(r rune) bool { return r >= '0' && r <= '9' })
		if i <= 0 {
			return nil, fmt.Errorf("schedule step %q: want a request name and an operation number, as A1", w)
		}
		n, err := strconv.Atoi(w[i:])
		if err != nil || n < 1 {
			return nil, fmt.Errorf("schedule step %q: bad operation number", w)
		}
		steps = append(steps, Step{Request: w[:i], Step: n, Fails: fails})
	}
	return steps, nil
}

// Steps are the schedule's steps: Schedule, or Order parsed.
func (s *Schedule) Steps() ([]Step, error) {
	if len(s.Schedule) > 0 {
		return s.Schedule, nil
	}
	return ParseOrder(s.Order)
}

// Validate checks that the requests have distinct names and that every
// step names one of them.
func (s *Schedule) Validate() error {
	if len(s.Requests) == 0 {
		return fmt.Errorf("schedule: no requests")
	}
	names := map[string]bool{}
	for _, r := range s.Requests {
		if r.Request == "" || r.Entry == "" {
			return fmt.Errorf("schedule: a request needs a name and an entry")
		}
		if names[r.Request] {
			return fmt.Errorf("schedule: two requests named %s", r.Request)
		}
		names[r.Request] = true
	}
	steps, err := s.Steps()
	if err != nil {
		return err
	}
	for _, st := range steps {
		if !names[st.Request] {
			return fmt.Errorf("schedule: step %s%d names no request", st.Request, st.Step)
		}
	}
	return nil
}

func gateSteps(steps []Step) []gate.Step {
	out := make([]gate.Step, len(steps))
	for i, s := range steps {
		out[i] = gate.Step{Request: s.Request, Step: s.Step, Fail: s.Fails}
	}
	return out
}

func inputMap(in []Input) map[string]string {
	m := map[string]string{}
	for _, i := range in {
		m[i.Name] = i.Value
	}
	return m
}
