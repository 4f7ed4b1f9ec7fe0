package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestNilErrorsEqual: two nil errors are equal (err == last with both
// nil holds), so Debit's unchecked debit runs. The comparison of two
// error values was false wherever the left one was nil: a wrong SAFE.
func TestNilErrorsEqual(t *testing.T) {
	rep, err := Run(context.Background(), Config{Dir: testdataDir(t, "src"), Patterns: []string{"./errnileq"}, Constraints: []string{"accounts.balance >= 0"}, Dialect: "sqlite", Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 {
		t.Fatalf("%d results, want 1", len(rep.Results))
	}
	r := rep.Results[0]
	if r.Verdict != report.Unsafe {
		t.Fatalf("%s: %s, want UNSAFE: with last = nil and amount 50 the debit runs (balance 0 -> -50)", r.Entry, r.Verdict)
	}
	for _, s := range r.Counterexample.Steps {
		if strings.Contains(s.Text, "if err == last {") && s.Outcome == "true" {
			return
		}
	}
	t.Errorf("no step takes err == last as true: %+v", r.Counterexample.Steps)
}
