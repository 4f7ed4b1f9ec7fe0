package pipeline

import (
	"bytes"
	"context"
	"strconv"
	"testing"

	"github.com/dbverify/dbverify/benchmarks/gen"
	"github.com/dbverify/dbverify/refine"
	"github.com/dbverify/dbverify/report"
)

// TestLargeLoopFreeBlock: a loop-free entry with many guarded updates
// (gen.Sequential, the scaling study's N) is decided with a number of SMT
// queries linear in N, within the default work limit and without a wall
// clock: SAFE by the invariants at its joins; with its last update made a
// debit, UNSAFE with a counterexample through that update (the one formula,
// given the invariants the first pass proved, finds it).
func TestLargeLoopFreeBlock(t *testing.T) {
	const n = 64
	p, err := gen.Sequential(n)
	if err != nil {
		t.Fatal(err)
	}
	credit := []byte("balance = balance + ?")
	i := bytes.LastIndex(p.Source, credit)
	unsafe := append(append(append([]byte{}, p.Source[:i]...), "balance = balance - ?"...), p.Source[i+len(credit):]...)
	tests := []struct {
		name   string
		source []byte
		want   report.Verdict
	}{
		{"all credits", p.Source, report.Safe},
		{"last one a debit", unsafe, report.Unsafe},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			q := *p
			q.Source = tt.source
			if err := q.Write(dir); err != nil {
				t.Fatal(err)
			}
			rep, err := runShared(context.Background(), Config{
				Dir: dir, Patterns: []string{"./..."}, Constraints: []string{gen.Constraint}, Workers: 1,
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Results) != 1 {
				t.Fatalf("got %d results, want 1", len(rep.Results))
			}
			r := rep.Results[0]
			if r.Verdict != tt.want {
				t.Fatalf("%s (%s), want %s", r.Verdict, r.Reason, tt.want)
			}
			if r.SMTQueries > 4*n+32 {
				t.Errorf("%d SMT queries for %d updates: want at most 4N + 32", r.SMTQueries, n)
			}
			switch tt.want {
			case report.Safe:
				if r.Proof != refine.ProofJoinInvariants {
					t.Errorf("proof %q, want %q", r.Proof, refine.ProofJoinInvariants)
				}
			case report.Unsafe:
				if r.Counterexample == nil || r.Position != "seq/seq.go:"+lineOfLastExec(tt.source) {
					t.Errorf("counterexample %v at %s: want one at the last update (line %s)", r.Counterexample != nil, r.Position, lineOfLastExec(tt.source))
				}
			}
		})
	}
}

// lineOfLastExec returns the line number of the last db.Exec of src.
func lineOfLastExec(src []byte) string {
	i := bytes.LastIndex(src, []byte("db.Exec("))
	return strconv.Itoa(bytes.Count(src[:i], []byte("\n")) + 1)
}
