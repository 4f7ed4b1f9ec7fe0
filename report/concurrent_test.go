package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// concurrentResult is an UNSAFE result of two requests, as pipeline
// makes one.
func concurrentResult() *Result {
	steps := []Step{
		{Position: "s.go:10", Kind: "sql", Text: "SELECT balance FROM accounts WHERE id = $1", Request: "A", Values: map[string]string{}},
		{Position: "s.go:10", Kind: "sql", Text: "SELECT balance FROM accounts WHERE id = $1", Request: "B", Values: map[string]string{}},
		{Position: "s.go:14", Kind: "sql", Text: "UPDATE accounts SET balance = balance - $1 WHERE id = $2", Request: "A", Values: map[string]string{}},
		{Position: "s.go:14", Kind: "sql", Text: "UPDATE accounts SET balance = balance - $1 WHERE id = $2", Request: "B", Values: map[string]string{}},
	}
	return &Result{
		Entry: "m/p.Withdraw", EntryPosition: "s.go:8", Constraint: "accounts.balance >= 0", Verdict: Unsafe, Position: "s.go:14",
		Predicates:     []string{},
		Counterexample: &Counterexample{Inputs: Inputs{{"A.id", "1"}, {"B.id", "1"}}, Rows: []Row{}, Steps: steps, Violation: &Row{Table: "accounts", Values: map[string]string{"balance": "-1"}}},
		Isolation:      &Isolation{Level: "READ COMMITTED", Source: "postgres default"},
		Concurrency:    &Concurrency{Scope: ScopeSearch, PairsSearched: 1},
		Labels:         []string{LabelConcurrencyOnly},
		ConcurrentWith: "m/p.Withdraw",
		Requests:       []Request{{"A", "m/p.Withdraw", []Input{{"id", "1"}}}, {"B", "m/p.Withdraw", []Input{{"id", "1"}}}},
		InitialRows:    []Row{{Table: "accounts", Values: map[string]string{"id": "1", "balance": "1"}}},
		Schedule: []ScheduleStep{
			{"A", 1, "s.go:10", "select", "SELECT balance FROM accounts WHERE id = $1", []string{"1"}, "", false, false},
			{"B", 1, "s.go:10", "select", "SELECT balance FROM accounts WHERE id = $1", []string{"1"}, "", false, false},
			{"A", 2, "s.go:14", "exec", "UPDATE accounts SET balance = balance - $1 WHERE id = $2", []string{"1", "1"}, "", false, false},
			{"B", 2, "s.go:14", "exec", "UPDATE accounts SET balance = balance - $1 WHERE id = $2", []string{"1", "1"}, "", false, false},
		},
	}
}

// TestConcurrentText: the text output gives the scope, the isolation
// level, the requests and the schedule in two lanes (B's operations
// indented past A's).
func TestConcurrentText(t *testing.T) {
	var b bytes.Buffer
	if err := WriteText(&b, &Report{Results: []*Result{concurrentResult()}}, Options{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"concurrent: 2 concurrent requests [concurrency-only]; isolation READ COMMITTED (postgres default)",
		"request A: m/p.Withdraw(id = 1)", "initial row accounts: balance = 1, id = 1",
		"    A1 s.go:10 SELECT balance FROM accounts WHERE id = $1 [1]\n",
		"    " + strings.Repeat(" ", laneWidth) + "B2 s.go:14 UPDATE"} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks %q:\n%s", want, out)
		}
	}
}

// TestConcurrentSARIF: one code flow with one thread flow per request,
// each location with its place in the whole run.
func TestConcurrentSARIF(t *testing.T) {
	o := sarifOptions{cwd: "/src", root: "/src"}
	res := o.unsafeResult(concurrentResult())
	if len(res.CodeFlows) != 1 || len(res.CodeFlows[0].ThreadFlows) != 2 {
		t.Fatalf("code flows %+v, want one with two thread flows", res.CodeFlows)
	}
	order := map[string][]int{}
	for _, tf := range res.CodeFlows[0].ThreadFlows {
		for _, l := range tf.Locations {
			order[tf.ID] = append(order[tf.ID], l.ExecutionOrder)
		}
	}
	got, _ := json.Marshal(order)
	if string(got) != `{"A":[1,3],"B":[2,4]}` {
		t.Errorf("execution orders %s, want A at 1 and 3, B at 2 and 4", got)
	}
}
