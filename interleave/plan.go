package interleave

import (
	"errors"
	"fmt"

	"github.com/dbverify/dbverify/ir"
)

// A Segment of a schedule plan: request Request (an index into the
// programs) performs Ops database operations (Ops < 0: until it ends),
// with the Go code after the last of them.
type Segment struct {
	Request int
	Ops     int
}

// Switches returns the plans "request f performs n1 operations, then
// request o performs n2, then f runs to its end, then o to its end", for
// f, o the two requests (f = 0 only when symmetric: the requests are
// copies of one program), 1 <= n1 <= max1 and 1 <= n2 <= max2 (max1,
// max2: the most database operations of a path of f, of o). The plans
// come in the order of n1 + n2, the fewest operations first: their
// products are the smallest, and the reads of a lost update come early,
// so a search that stops at the first counterexample or at a limit has
// searched the cheap short prefixes before the long ones.
func Switches(symmetric bool, ops0, ops1 int) [][]Segment {
	var plans [][]Segment
	firsts := []int{0, 1}
	if symmetric {
		firsts = []int{0}
	}
	for sum := 2; sum <= ops0+ops1; sum++ {
		for _, f := range firsts {
			o := 1 - f
			maxF, maxO := ops0, ops1
			if f == 1 {
				maxF, maxO = ops1, ops0
			}
			for n1 := max(1, sum-maxO); n1 <= min(maxF, sum-1); n1++ {
				plans = append(plans, []Segment{{f, n1}, {o, sum - n1}, {f, -1}, {o, -1}})
			}
		}
	}
	return plans
}

// SwitchesOf3 returns the plans of three copies of one program (ops: the
// most database operations of a path of it): "A performs n1
// operations, B n2, C n3, then the three run to their ends in some
// order", 1 <= n1, n2, n3 <= ops, for the six orders of the ends. (The
// first phase runs A, B, C in that order: the copies are alike, so any
// other order is the same plan with the requests renamed.) The plans
// come in the order of n1 + n2 + n3, the fewest operations first: a
// search stopped by a limit has searched the short prefixes (the reads
// of a lost update come early) before the long ones.
func SwitchesOf3(ops int) [][]Segment {
	orders := [][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	var plans [][]Segment
	for sum := 3; sum <= 3*ops; sum++ {
		for n1 := 1; n1 <= ops; n1++ {
			for n2 := 1; n2 <= ops; n2++ {
				n3 := sum - n1 - n2
				if n3 < 1 || n3 > ops {
					continue
				}
				for _, o := range orders {
					plans = append(plans, []Segment{{0, n1}, {1, n2}, {2, n3}, {o[0], -1}, {o[1], -1}, {o[2], -1}})
				}
			}
		}
	}
	return plans
}

// MaxOps returns the most database operations on a path of p from Entry
// (loops counted once around each back edge's target: a bound, not
// exact).
func MaxOps(p *ir.Program) int {
	best := make([]int, p.NumLocs)
	for i := range best {
		best[i] = -1
	}
	var visit func(l ir.Loc, onStack map[ir.Loc]bool) int
	visit = func(l ir.Loc, onStack map[ir.Loc]bool) int {
		if best[l] >= 0 {
			return best[l]
		}
		onStack[l] = true
		m := 0
		for _, e := range p.Out[l] {
			if onStack[e.To] {
				continue
			}
			n := visit(e.To, onStack)
			if IsDBOp(e.Stmt) {
				n++
			}
			m = max(m, n)
		}
		delete(onStack, l)
		best[l] = m
		return m
	}
	return visit(p.Entry, map[ir.Loc]bool{})
}

// ProductPlan is Product restricted to the schedules of plan: the
// requests take turns as its segments say (each segment's request runs
// its operations and the Go code after the last; a request that ends
// early ends its segment).
func ProductPlan(plan []Segment, progs ...*ir.Program) (*ir.Program, error) {
	out, reqs, err := newProduct(progs)
	if err != nil {
		return nil, err
	}
	for _, s := range plan {
		if s.Request < 0 || s.Request >= len(progs) {
			return nil, fmt.Errorf("interleave: plan names request %d of %d", s.Request, len(progs))
		}
	}
	if len(plan) == 0 {
		return nil, errors.New("interleave: empty plan")
	}
	b := &planBuilder{builder: builder{out: out, reqs: reqs, locs: map[string]ir.Loc{}}, plan: plan}
	start := planState{locs: make([]ir.Loc, len(progs))}
	for i, p := range progs {
		start.locs[i] = p.Entry
	}
	start = b.norm(start)
	b.locs[start.key()] = out.Entry
	b.work = append(b.work, start)
	for len(b.work) > 0 {
		s := b.work[len(b.work)-1]
		b.work = b.work[:len(b.work)-1]
		b.expand(s)
	}
	if err := ir.Sanity(out); err != nil {
		return nil, fmt.Errorf("interleave: product of %s: %w", out.Name, err)
	}
	return out, nil
}

// planState is a tuple of request locations, the plan's segment and the
// operations done in it.
type planState struct {
	locs     []ir.Loc
	seg, ops int
}

func (s planState) key() string { return fmt.Sprintf("%s|%d|%d", key(s.locs), s.seg, s.ops) }

type planBuilder struct {
	builder
	plan []Segment
	work []planState
}

// norm moves s past the segments that are over: their request has ended,
// or has done its operations and stands before the next one.
func (b *planBuilder) norm(s planState) planState {
	for s.seg < len(b.plan) {
		seg := b.plan[s.seg]
		l := s.locs[seg.Request]
		if b.ended(seg.Request, l) || (seg.Ops >= 0 && s.ops >= seg.Ops && b.parked(seg.Request, l)) {
			s.seg, s.ops = s.seg+1, 0
			continue
		}
		break
	}
	return s
}

func (b *planBuilder) loc(s planState) ir.Loc {
	for i, l := range s.locs {
		if l == b.reqs[i].src.Error {
			return b.out.Error
		}
	}
	if s.seg >= len(b.plan) {
		done := true
		for i, l := range s.locs {
			done = done && l == b.reqs[i].src.Exit
		}
		if done {
			return b.out.Exit
		}
	}
	k := s.key()
	if l, ok := b.locs[k]; ok {
		return l
	}
	l := b.out.NewLoc()
	b.locs[k] = l
	b.work = append(b.work, s)
	return l
}

// expand adds the edges of the running segment's request out of s.
func (b *planBuilder) expand(s planState) {
	from := b.loc(s)
	if from == b.out.Exit || from == b.out.Error || s.seg >= len(b.plan) {
		return
	}
	i := b.plan[s.seg].Request
	for _, e := range b.reqs[i].src.Out[s.locs[i]] {
		next := planState{locs: append([]ir.Loc(nil), s.locs...), seg: s.seg, ops: s.ops}
		next.locs[i] = e.To
		if IsDBOp(e.Stmt) && b.plan[s.seg].Ops >= 0 {
			// (A segment that runs to the end counts nothing: a loop
			// would count forever.)
			next.ops++
		}
		b.step(from, b.reqs[i], e, b.loc(b.norm(next)))
	}
}
