package main

import (
	"strings"
	"testing"

	"github.com/dbverify/dbverify/benchmarks/harness"
)

func outcomeRun(c string, os ...harness.Outcome) *harness.CaseRun {
	for i := range os {
		os[i].Case = c
	}
	return &harness.CaseRun{Case: &harness.Case{Name: c}, Outcomes: os}
}

// TestWriteComparison checks that the side-by-side report flags a
// conflicting decided verdict as a conflict, a verdict only one engine
// decides as such, and sums each engine's work.
func TestWriteComparison(t *testing.T) {
	lbe := engineRuns{engine: "lbe", runs: []*harness.CaseRun{
		outcomeRun("a/x", harness.Outcome{Entry: "F", Constraint: "t.v >= 0", Got: harness.Safe, SMTQueries: 1, Seconds: 0.01, Engine: "lbe", Status: harness.StatusCorrect}),
		outcomeRun("a/y", harness.Outcome{Entry: "G", Constraint: "t.v >= 0", Got: harness.Unsafe, SMTQueries: 1, Seconds: 0.02, Engine: "lbe", Status: harness.StatusCorrect}),
		outcomeRun("a/z", harness.Outcome{Entry: "H", Constraint: "t.v >= 0", Got: harness.Safe, SMTQueries: 9, Seconds: 0.5, Engine: "lbe", Status: harness.StatusCorrect}),
	}}
	fix := engineRuns{engine: "fixpoint", runs: []*harness.CaseRun{
		outcomeRun("a/x", harness.Outcome{Entry: "F", Constraint: "t.v >= 0", Got: harness.Safe, SMTQueries: 900, Seconds: 1, Status: harness.StatusCorrect}),
		outcomeRun("a/y", harness.Outcome{Entry: "G", Constraint: "t.v >= 0", Got: harness.Safe, SMTQueries: 50, Seconds: 0.1, Status: harness.StatusWrong}),
		outcomeRun("a/z", harness.Outcome{Entry: "H", Constraint: "t.v >= 0", Got: harness.Unknown, Reason: "time limit", SMTQueries: 5000, Seconds: 60, Status: harness.StatusUndecided}),
	}}
	conflicts, one := engineDisagreements(lbe, fix)
	if len(conflicts) != 1 || !strings.Contains(conflicts[0], "a/y") {
		t.Errorf("conflicts %q, want the one on a/y", conflicts)
	}
	if len(one) != 1 || !strings.Contains(one[0], "a/z") || !strings.Contains(one[0], "time limit") {
		t.Errorf("decided by one engine %q, want a/z with fixpoint's reason", one)
	}
	s := summarize(lbe)
	if s.queries != 11 || s.loopFree != 3 || s.loopFreeMaxQuery != 9 || s.results != 3 {
		t.Errorf("lbe summary %+v", s)
	}
	var b strings.Builder
	writeComparison(&b, []engineRuns{lbe, fix}, true)
	out := b.String()
	for _, want := range []string{"| lbe |", "| fixpoint |", "1 conflicting decided verdicts", "- CONFLICT a/y"} {
		if !strings.Contains(out, want) {
			t.Errorf("comparison lacks %q:\n%s", want, out)
		}
	}
}
