package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestConfigVariable (adv11 p33): a package-level variable set when its
// package is initialised (minBalance, from the environment) is a value the
// deployment sets, not an input: a counterexample that needs a negative
// floor is UNKNOWN naming the variable; with ConfigInputs the user says a
// deployment's settings are inputs, and the counterexample picks one.
func TestConfigVariable(t *testing.T) {
	dir := corpusCase("trust/init_config_var_unknown")
	run := func(inputs bool) *report.Result {
		rep, err := runShared(context.Background(), Config{
			Dir: dir, Patterns: []string{"./..."}, Schema: dir + "/schema.sql", Entry: "Withdraw",
			Constraints: []string{"accounts.balance >= 0"}, Workers: 1, ConfigInputs: inputs,
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Results) != 1 {
			t.Fatalf("got %d results, want 1", len(rep.Results))
		}
		return rep.Results[0]
	}
	if r := run(false); r.Verdict != report.Unknown || !strings.Contains(r.Reason, "minBalance") {
		t.Errorf("default: %s (%s), want UNKNOWN naming minBalance", r.Verdict, r.Reason)
	}
	r := run(true)
	if r.Verdict != report.Unsafe || r.Counterexample == nil {
		t.Fatalf("ConfigInputs: %s (%s), want UNSAFE", r.Verdict, r.Reason)
	}
	if _, ok := r.Counterexample.Inputs.Map()["init_config_var_unknown.minBalance"]; !ok {
		t.Errorf("ConfigInputs: inputs %v, want the floor among them", r.Counterexample.Inputs.Map())
	}
}
