package pipeline

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestFuncChosenInSwitch: a function value assigned on branches (op =
// credit in one case of a switch, op = debit in another) is called as
// each function on its branch, as a map literal of functions is; a
// branch that leaves it nil panics at the call (adv16 dispatch.ApplyUser:
// "call through a function value the analysis cannot resolve").
func TestFuncChosenInSwitch(t *testing.T) {
	wants := map[string]report.Verdict{
		"ApplyUser":  report.Safe,
		"ApplyAdmin": report.Unsafe,
		"ApplyMaybe": report.Safe,
	}
	cfg := Config{Dir: testdataDir(t, "funcphi"), Patterns: []string{"./..."}, Dialect: "postgres",
		Constraints: []string{"wallets.balance >= 0"}, Workers: 1, Entry: "Apply"}
	for name, r := range checkVerdicts(t, cfg, wants) {
		if r.Verdict != report.Unsafe || wants[name] != report.Unsafe {
			continue
		}
		// The chargeback's UPDATE, which ends at its WHERE id = $2.
		cx, err := json.Marshal(r.Counterexample)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(cx), `WHERE id = $2"`) {
			t.Errorf("%s: the counterexample does not run the chargeback: %s", name, cx)
		}
	}
}
