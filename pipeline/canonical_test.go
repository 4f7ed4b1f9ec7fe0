package pipeline

import (
	"context"
	"encoding/json"
	"runtime"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestConcurrentCounterexampleStable: the same --concurrent check run
// four times in one process gives the same counterexample (requests,
// initial rows, schedule, steps). The solver's model depended on its
// internal state, which go-z3's finalizers change with the garbage
// collector's timing: four runs of one job printed Withdraw's amount as
// 39, 8856, 1 and 7720 (refine.canonicalModel).
func TestConcurrentCounterexampleStable(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: searches two requests four times")
	}
	var first string
	for i := 0; i < 4; i++ {
		rep, err := runShared(context.Background(), Config{Dir: testdataDir(t, "concurrent"), Patterns: []string{"./relative", "./pair"}, Dialect: "postgres",
			Constraints: []string{"accounts.balance >= 0"}, Workers: 1, Concurrent: true})
		if err != nil {
			t.Fatal(err)
		}
		got := unsafeCounterexamples(t, rep)
		if i == 0 {
			first = got
		} else if got != first {
			t.Fatalf("run %d's counterexamples differ from run 1's:\n%s\nrun 1:\n%s", i+1, got, first)
		}
		runtime.GC() // another collector timing for the next run
	}
}

// unsafeCounterexamples is the JSON of the requests, initial rows,
// schedule and counterexample of rep's UNSAFE results.
func unsafeCounterexamples(t *testing.T, rep *report.Report) string {
	t.Helper()
	type cex struct {
		Entry    string
		Requests []report.Request
		Rows     any
		Schedule any
		Trace    *report.Counterexample
	}
	var all []cex
	for _, r := range rep.Results {
		if r.Verdict == report.Unsafe {
			all = append(all, cex{r.Entry, r.Requests, r.InitialRows, r.Schedule, r.Counterexample})
		}
	}
	if len(all) != 2 {
		t.Fatalf("%d UNSAFE results, want 2 (relative Withdraw, pair Fee)", len(all))
	}
	b, err := json.MarshalIndent(all, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
