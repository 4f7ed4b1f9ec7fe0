package pipeline

import (
	"context"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestConcurrentReduction: the partial-order reduction keeps the verdict
// and the counterexample's shape of the search of two requests while it builds
// fewer interleavings; --por=none (NoReduction) builds every one.
func TestConcurrentReduction(t *testing.T) {
	src := testdataDir(t, "concurrent")
	tests := []struct {
		pkg     string
		verdict report.Verdict
		// minRatio is the least reduction expected (unreduced/reduced).
		minRatio uint64
	}{
		{"./lookups", report.Unsafe, 20},
		{"./relative", report.Unsafe, 1},
		{"./bounded", report.Safe, 1},
	}
	for _, tt := range tests {
		t.Run(tt.pkg, func(t *testing.T) {
			var got [2]*report.Result
			for i, none := range []bool{false, true} {
				cfg := Config{Dir: src, Patterns: []string{tt.pkg}, Dialect: "postgres",
					Constraints: []string{"accounts.balance >= 0"}, Workers: 1, Concurrent: true, NoReduction: none}
				rep, err := runShared(context.Background(), cfg)
				if err != nil {
					t.Fatal(err)
				}
				if len(rep.Results) != 1 {
					t.Fatalf("%d results, want 1", len(rep.Results))
				}
				got[i] = rep.Results[0]
			}
			red, full := got[0], got[1]
			for _, r := range got {
				if r.Verdict != tt.verdict || r.Concurrency == nil || r.Concurrency.PairsSearched == 0 {
					t.Fatalf("%s (%s), want %s after a search of pairs", r.Verdict, r.Reason, tt.verdict)
				}
			}
			rc, fc := red.Concurrency, full.Concurrency
			if fc.Interleavings != fc.InterleavingsUnreduced {
				t.Errorf("without reduction: %d interleavings built, %d unreduced; want equal", fc.Interleavings, fc.InterleavingsUnreduced)
			}
			if rc.InterleavingsUnreduced != fc.InterleavingsUnreduced {
				t.Errorf("unreduced counts differ: %d with the reduction, %d without", rc.InterleavingsUnreduced, fc.InterleavingsUnreduced)
			}
			if rc.Interleavings == 0 || rc.Interleavings*tt.minRatio > rc.InterleavingsUnreduced {
				t.Errorf("reduced to %d of %d interleavings, want at least %d× fewer", rc.Interleavings, rc.InterleavingsUnreduced, tt.minRatio)
			}
			if tt.verdict == report.Unsafe {
				checkConcurrentResult(t, red, report.Unsafe, "search", "Withdraw", "", "")
				checkConcurrentResult(t, full, report.Unsafe, "search", "Withdraw", "", "")
			}
			t.Logf("%s: %d → %d interleavings", red.Verdict, rc.InterleavingsUnreduced, rc.Interleavings)
		})
	}
}
