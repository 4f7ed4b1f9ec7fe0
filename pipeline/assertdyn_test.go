package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// assertVerdicts runs the check of pattern (SQLite, stocks.quantity >= 0)
// and compares the verdicts of the named entries; an UNSAFE must not rest
// on a value the model approximates (then it would be UNKNOWN).
func assertVerdicts(t *testing.T, pattern string, wants map[string]report.Verdict) {
	t.Helper()
	rep, err := runShared(context.Background(), Config{Dir: testdataDir(t, "src"), Patterns: []string{pattern}, Constraints: []string{"stocks.quantity >= 0"}, Dialect: "sqlite", Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range rep.Results {
		name := r.Entry[strings.LastIndex(r.Entry, ".")+1:]
		w, ok := wants[name]
		if !ok || !strings.Contains(r.Entry, "(*Service)") {
			continue
		}
		seen[name] = true
		if r.Verdict != w {
			t.Errorf("%s: %s (%s), want %s", name, r.Verdict, r.Reason, w)
		}
	}
	for name := range wants {
		if !seen[name] {
			t.Errorf("no result for (*Service).%s", name)
		}
	}
}

// TestTypeAssertionDecided: sqlc's emit_interface shape, whose
// transaction helper asserts s.Querier.(*Queries) (independent tester
// adv17, mini/querier_type_assert; every entry of the public service
// Revazashvili/ecommerce-inventory-management was UNKNOWN "reads the
// dynamic type of t2"). *Queries is the only type of the program that
// implements Querier: the assertion holds unless the field is nil, which
// panics. The unchecked AddStock is UNSAFE, the checked Restock SAFE.
func TestTypeAssertionDecided(t *testing.T) {
	assertVerdicts(t, "./assertdyn", map[string]report.Verdict{
		"AddStock": report.Unsafe,
		"Restock":  report.Safe,
	})
}

// TestTypeAssertionSameFactAsDispatch: two types implement Querier, one
// with a guarded UPDATE (*Queries), one without (*Loose). An assertion
// on the field and a call through it read the same dynamic type: after
// s.Querier.(*Queries) (or in the branch where comma-ok or a type switch
// found a *Queries) the call runs the guarded UPDATE only (SAFE), after
// s.Querier.(*Loose), or where the field is not a *Queries, the
// unguarded one (UNSAFE). An assertion after a call through the field
// (FloorChecked) holds where that call ran the asserted type's method.
func TestTypeAssertionSameFactAsDispatch(t *testing.T) {
	assertVerdicts(t, "./assertchoice", map[string]report.Verdict{
		"Checked":      report.Safe,
		"Unchecked":    report.Unsafe,
		"CheckedOk":    report.Safe,
		"UncheckedOk":  report.Unsafe,
		"Switch":       report.Safe,
		"FloorChecked": report.Safe,
		"FloorLoose":   report.Unsafe,
	})
}

// TestTypeAssertionLibraryType: a call through the field ran the module's
// implementation (the only one the model inlines); a later comma-ok
// assertion of a library type implementing the same interface
// (*bytes.Buffer) may still hold, and its branch's unguarded UPDATE
// breaks the constraint.
func TestTypeAssertionLibraryType(t *testing.T) {
	assertVerdicts(t, "./assertlib", map[string]report.Verdict{
		"Take": report.Unsafe,
	})
}
