package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestConcurrentInProcessLockNote: a read-check-write under a
// sync.Mutex is UNSAFE with --concurrent (two instances of the service
// do not share the mutex), and the counterexample says that its
// schedule needs two instances: adv19's probe/mutex interleaved two
// requests inside the locked region with no word.
func TestConcurrentInProcessLockNote(t *testing.T) {
	rep, err := runShared(context.Background(), Config{Dir: testdataDir(t, "concurrent"), Patterns: []string{"./inprocess"}, Dialect: "postgres",
		Constraints: []string{"accounts.balance >= 0"}, Workers: 1, Concurrent: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 {
		t.Fatalf("%d results, want 1", len(rep.Results))
	}
	r := rep.Results[0]
	checkConcurrentResult(t, r, report.Unsafe, "search", "Debit", "", "")
	want := "in-process lock w.mu (sync.Mutex, locked at inprocess/inprocess.go:23) is not a database lock"
	for _, n := range r.Counterexample.Notes {
		if strings.Contains(n, want) && strings.Contains(n, "requests A and B") {
			return
		}
	}
	t.Errorf("notes %q lack %q", r.Counterexample.Notes, want)
}
