package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestCapturedVariable (independent tester adv16 fu2): the handler a
// factory returns captures minKeep, which the factory clamps to >= 0; a
// counterexample that needs a negative captured floor is UNKNOWN naming
// the variable (it was a false UNSAFE with minKeep = -1), an unguarded
// debit that does not read it stays UNSAFE, and with ConfigInputs the
// captured variable is an input the counterexample picks.
func TestCapturedVariable(t *testing.T) {
	run := func(name string, inputs bool) *report.Result {
		dir := corpusCase(name)
		rep, err := Run(context.Background(), Config{
			Dir: dir, Patterns: []string{"./..."}, Schema: dir + "/schema.sql", Dialect: "sqlite",
			Constraints: []string{"wallets.balance >= 0"}, Workers: 1, ConfigInputs: inputs,
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Results) != 1 {
			t.Fatalf("%s: %d results, want 1", name, len(rep.Results))
		}
		return rep.Results[0]
	}
	if r := run("trust/closure_captured_safe", false); r.Verdict != report.Unknown || !strings.Contains(r.Reason, "minKeep, which the closure at") {
		t.Errorf("closure_captured_safe: %s (%s), want UNKNOWN naming the captured minKeep", r.Verdict, r.Reason)
	}
	if r := run("trust/closure_captured_unsafe", false); r.Verdict != report.Unsafe {
		t.Errorf("closure_captured_unsafe: %s (%s), want UNSAFE", r.Verdict, r.Reason)
	}
	r := run("trust/closure_captured_safe", true)
	if r.Verdict != report.Unsafe || r.Counterexample == nil {
		t.Fatalf("closure_captured_safe with ConfigInputs: %s (%s), want UNSAFE", r.Verdict, r.Reason)
	}
	if _, ok := r.Counterexample.Inputs.Map()["minKeep"]; !ok {
		t.Errorf("ConfigInputs: inputs %v, want minKeep among them", r.Counterexample.Inputs.Map())
	}
}
