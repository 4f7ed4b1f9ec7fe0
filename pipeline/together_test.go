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
		rep, err := runShared(context.Background(), Config{
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
	rep, err := runShared(context.Background(), Config{
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

// TestApproxUnknownTogether (adv8 F2): a reset whose next time comes
// from time.Add, which the model does not compute. Alone, used <= quota
// is broken from a row with used < 0, and the time.Add value, which only
// reaches reset_at, does not make that counterexample "may be spurious";
// where the entry also tests the computed time (time.After) the
// counterexample reads it: UNKNOWN alone. With used >= 0 in the same run,
// kept by every entry, both are SAFE, the UNKNOWN decided again as an
// UNSAFE is.
func TestApproxUnknownTogether(t *testing.T) {
	dir := corpusCase("trust/pg_approx_reset_safe")
	run := func(entry string, constraints ...string) map[string]*report.Result {
		t.Helper()
		rep, err := runShared(context.Background(), Config{
			Dir: dir, Patterns: []string{"./..."}, Schema: dir + "/schema.sql", Entry: entry,
			Constraints: constraints, Workers: 1,
		})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]*report.Result{}
		for _, r := range rep.Results {
			out[r.Entry[strings.LastIndexByte(r.Entry, '.')+1:]+" "+r.Constraint] = r
		}
		return out
	}
	const quota, nonNeg = "api_keys.used <= api_keys.quota", "api_keys.used >= 0"
	alone := run("ResetExpired|RenewChecked", quota)
	if r := alone["ResetExpired "+quota]; r == nil || r.Verdict != report.Unsafe || r.Counterexample == nil {
		t.Fatalf("ResetExpired alone: got %+v, want UNSAFE", r)
	} else if used := r.Counterexample.Rows[0].Values["used"]; !strings.HasPrefix(used, "-") {
		t.Errorf("ResetExpired alone: initial used = %s, want a negative count (the only way to break used <= quota with used = 0)", used)
	}
	if r := alone["RenewChecked "+quota]; r == nil || r.Verdict != report.Unknown || !strings.Contains(r.Reason, "time.After") {
		t.Errorf("RenewChecked alone: got %+v, want UNKNOWN reading time.After", r)
	}
	both := run("", quota, nonNeg)
	for _, e := range []string{"ResetExpired", "RenewChecked", "Consume"} {
		for _, c := range []string{quota, nonNeg} {
			if r := both[e+" "+c]; r == nil || r.Verdict != report.Safe {
				t.Errorf("%s [%s] with both constraints: got %+v, want SAFE", e, c, r)
			}
		}
	}
	if r := both["RenewChecked "+quota]; r != nil && !strings.Contains(strings.Join(r.Assumptions, "\n"), "alone, this constraint is not decided") {
		t.Errorf("RenewChecked [%s]: assumptions %q do not say it is not decided alone", quota, r.Assumptions)
	}
}
