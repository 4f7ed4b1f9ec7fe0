package refine

import (
	"slices"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/smt"
	"github.com/dbverify/dbverify/vcgen"
)

// Two reads that must agree. A counterexample in which two executions of
// queries of the same rows read different rows is no real run
// (vcgen.PathFormula.RereadRows), but the bug it shows may have a run in
// which they agree: the solver, free to pick the reads apart, picked one
// that does not. agreeingReads solves the path once more with the reads
// agreeing (vcgen.PathFormula.RereadAgreement): a model of it is the
// counterexample; none leaves the first one's note (UNKNOWN, "possibly
// spurious"), as a bug that needs the reads to disagree is no bug.

// agreeingReads returns m when its reads agree (note ""), else a model
// of path formula pf in which they do, else m with RereadRows' note.
// The solver's assertions are as they were on return.
func agreeingReads(s *smt.Solver, pf *vcgen.PathFormula, m vcgen.Model) (vcgen.Model, string, error) {
	note := pf.RereadRows(m)
	if note == "" {
		return m, "", nil
	}
	am, err := agreeingModel(s, pf)
	if err != nil || am == nil {
		return m, note, err
	}
	if vcgen.Validate(pf, am) != nil || pf.RereadRows(am) != "" {
		return m, note, nil
	}
	return am, "", nil
}

// agreeingModel is a model of pf in which its reads of the same rows
// agree, nil when there is none (or the solver gives up).
func agreeingModel(s *smt.Solver, pf *vcgen.PathFormula) (*smt.Model, error) {
	s.Push()
	defer s.Pop()
	if err := s.Assert(ir.And(pf.Formula(), pf.RereadAgreement())); err != nil {
		return nil, err
	}
	r, err := s.Check()
	if err != nil || r != smt.Sat {
		return nil, err
	}
	m, err := s.Model()
	if err != nil {
		return nil, err
	}
	return s.NiceModel(m, niceScale)
}

// A block path fixes how often each loop runs, and so how many rows each
// execution of a query reads: when every counterexample of an abstract
// one's unrolling needs two reads of the same rows to disagree (the
// first loop ran once less than the second), the block paths that run
// its loops once or twice more may have one in which they agree
// (agreeingUnrolling). Each is one more query; at most
// maxRereadUnrollings are tried.
const (
	maxRereadUnrollings = 12
	maxExtraIterations  = 2
)

// agreeingUnrolling tries the block paths that repeat one of seq's cut
// points (Entry and Error aside: a loop head, so that its loop runs once
// more), then two, and returns the first UNSAFE outcome.
func (le *loopEngine) agreeingUnrolling(seq []ir.Loc) (dagOutcome, bool) {
	seen := map[string]bool{locList(seq): true}
	frontier := [][]ir.Loc{seq}
	tried := 0
	for extra := 0; extra < maxExtraIterations; extra++ {
		var next [][]ir.Loc
		for _, s := range frontier {
			for i := 1; i+1 < len(s); i++ {
				v := slices.Insert(slices.Clone(s), i, s[i])
				if seen[locList(v)] {
					continue
				}
				seen[locList(v)] = true
				if tried == maxRereadUnrollings || le.late() || le.overWork() != nil {
					return dagOutcome{}, false
				}
				tried++
				q, _ := unroll(le.p, le.out, le.cut, v)
				if o := decideDAG(q, le.s, le.late, func() bool { return le.overWork() != nil }, minJoinsForInvariants, le.opt.Canonical); o.verdict == Unsafe {
					return o, true
				}
				next = append(next, v)
			}
		}
		frontier = next
	}
	return dagOutcome{}, false
}
