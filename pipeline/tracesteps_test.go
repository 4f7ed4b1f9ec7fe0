package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// traceStepsResult runs the check of package pkg of
// testdata/tracesteps against constraint and returns its one result,
// which must be UNSAFE with a counterexample.
func traceStepsResult(t *testing.T, pkg, constraint string) *report.Result {
	t.Helper()
	dir := testdataDir(t, "tracesteps")
	rep, err := runShared(context.Background(), Config{Dir: dir, Patterns: []string{"./" + pkg}, Dialect: "postgres",
		Schema: dir + "/schema.sql", Constraints: []string{constraint}, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 {
		t.Fatalf("%s: %d results, want 1", pkg, len(rep.Results))
	}
	r := rep.Results[0]
	if r.Verdict != report.Unsafe || r.Counterexample == nil {
		t.Fatalf("%s: %s (%s), want UNSAFE with a counterexample", pkg, r.Verdict, r.Reason)
	}
	return r
}

// stepsAt returns the steps of c whose statement starts with prefix.
func stepsAt(c *report.Counterexample, prefix string) []report.Step {
	var out []report.Step
	for _, s := range c.Steps {
		if strings.HasPrefix(s.Text, prefix) {
			out = append(out, s)
		}
	}
	return out
}

// TestTraceCapturedParameter (independent tester adv17
// captured_param_zero): Charge's amount is captured by the closure it
// passes to a transaction helper, so Go moves it to a heap cell (an SSA
// Alloc, then a Store of the argument). The entry's step showed the
// cell's zero value (⇒ amount = 0) while the inputs said amount = 1 and
// the next branch (amount <= 0 → false) contradicted 0: the copy of the
// argument into its cell was taken for memory a call outside the
// analysed code had changed, and left out.
func TestTraceCapturedParameter(t *testing.T) {
	c := traceStepsResult(t, "captured", "wallets.balance >= 0").Counterexample
	in := c.Inputs.Map()
	entry := stepsAt(c, "func Charge(")
	if len(entry) != 1 {
		t.Fatalf("%d steps at func Charge(, want 1: %+v", len(entry), c.Steps)
	}
	for _, name := range []string{"amount", "id"} {
		if got, ok := entry[0].Values[name]; ok && got != in[name] {
			t.Errorf("entry step: %s = %s, inputs say %s", name, got, in[name])
		}
	}
	if _, ok := entry[0].Values["amount"]; !ok {
		t.Errorf("entry step: values %v, want amount (the argument stored in its cell)", entry[0].Values)
	}
}
