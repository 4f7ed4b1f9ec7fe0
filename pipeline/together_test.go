package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestAssumeOtherConstraints: the constraints of one run are assumed
// together. TransferStock keeps stock >= 0 only where reserved >= 0
// holds: SAFE when every entry keeps reserved >= 0 (stated as an
// assumption), UNKNOWN naming Release when Release may break it, and
// UNKNOWN when --entry leaves the other writers out.
func TestAssumeOtherConstraints(t *testing.T) {
	const entry = ".(*Store).TransferStock"
	tests := []struct {
		dir, entryRE string
		want         report.Verdict
		text         string
	}{
		{"trust/constraints_together_safe", "", report.Safe, "the other constraints of this run hold on entry: warehouse_stock.reserved >= 0"},
		{"trust/constraints_together_unsafe", "", report.Unknown, "(*Store).Release is UNSAFE for warehouse_stock.reserved >= 0"},
		{"trust/constraints_together_safe", "TransferStock", report.Unknown, "--entry selects the entries checked"},
	}
	for _, tt := range tests {
		rep, err := Run(context.Background(), Config{
			Dir: corpusCase(tt.dir), Patterns: []string{"./..."}, Schema: corpusCase(tt.dir) + "/schema.sql", Entry: tt.entryRE,
			Constraints: []string{"warehouse_stock.stock >= 0", "warehouse_stock.reserved >= 0"}, Workers: 1,
		})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, r := range rep.Results {
			if !strings.HasSuffix(r.Entry, entry) || r.Constraint != "warehouse_stock.stock >= 0" {
				continue
			}
			found = true
			text := r.Reason + strings.Join(r.Assumptions, "\n")
			if r.Verdict != tt.want || !strings.Contains(text, tt.text) {
				t.Errorf("%s --entry %q: %s %q, want %s with %q", tt.dir, tt.entryRE, r.Verdict, text, tt.want, tt.text)
			}
		}
		if !found {
			t.Errorf("%s: no result for TransferStock [stock >= 0]", tt.dir)
		}
	}
	// Alone, the constraint is broken from a row with reserved < 0.
	rep, err := Run(context.Background(), Config{
		Dir: corpusCase("trust/constraints_together_safe"), Patterns: []string{"./..."}, Schema: corpusCase("trust/constraints_together_safe") + "/schema.sql",
		Constraints: []string{"warehouse_stock.stock >= 0"}, Entry: "TransferStock", Workers: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 || rep.Results[0].Verdict != report.Unsafe {
		t.Errorf("stock >= 0 alone: got %+v, want one UNSAFE", rep.Results)
	}
}
