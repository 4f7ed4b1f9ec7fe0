package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestInterfaceFieldDispatch: a call through an interface field of a
// decorator (Logged{Inner: d}.Debit) runs the methods of the types that
// reach the field, not every implementation in the module (adversary
// adv15 mini/decorator: a φ of two guarded implementations was UNSAFE
// through a third, unguarded one never stored there). The type each path
// brings is followed (a φ, a helper's returns), so the counterexample
// of a bad choice sets the flag that chooses it (adv15
// progs/dispatch.WithdrawMode: its counterexample had the wrong flag and
// did not replay). A field the caller fills may hold any implementation;
// a value kept from an earlier round of a loop is not tied to the type
// the last round chose.
func TestInterfaceFieldDispatch(t *testing.T) {
	want := map[string]struct {
		verdict report.Verdict
		input   string // an input of the counterexample, "name=value"
	}{
		"WithdrawChoice":      {report.Safe, ""},
		"WithdrawPtr":         {report.Safe, ""},
		"WithdrawPicked":      {report.Safe, ""},
		"WithdrawAdmin":       {report.Unsafe, "admin=true"},
		"WithdrawNested":      {report.Unsafe, "admin=true"},
		"WithdrawPickedAdmin": {report.Unsafe, "admin=true"},
		"WithdrawGiven":       {report.Unsafe, ""},
		"WithdrawKept":        {report.Unsafe, ""},
	}
	dir := testdataDir(t, "ifacefield")
	cfg := Config{Dir: dir, Patterns: []string{"./decorate"}, Dialect: "sqlite", Schema: dir + "/schema.sql",
		Workers: 1, Constraints: []string{"accounts.balance >= 0"}}
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, r := range rep.Results {
		name := r.Entry[strings.LastIndex(r.Entry, ".")+1:]
		w, ok := want[name]
		if !ok {
			continue
		}
		seen++
		if r.Verdict != w.verdict {
			t.Errorf("%s: %s (%s), want %s", r.Entry, r.Verdict, r.Reason, w.verdict)
			continue
		}
		if w.input == "" {
			continue
		}
		var inputs []string
		for _, in := range r.Counterexample.Inputs {
			inputs = append(inputs, in.Name+"="+in.Value)
		}
		if !strings.Contains(strings.Join(inputs, " "), w.input) {
			t.Errorf("%s: counterexample inputs %v, want %s", r.Entry, inputs, w.input)
		}
	}
	if seen != len(want) {
		t.Errorf("%d of the %d entries checked", seen, len(want))
	}
}
