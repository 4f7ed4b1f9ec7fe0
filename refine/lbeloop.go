package refine

import (
	"fmt"
	"strings"

	"github.com/dbverify/dbverify/abstraction"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/smt"
)

// maxCubes bounds the cubes one block's abstract post enumerates (AllSAT)
// before it falls back to the cartesian post (each predicate alone).
const maxCubes = 128

// cube is an abstract state's valuation of the predicates: 1 true, 0
// false, -1 unknown.
type cube []int8

// covers reports whether every state of d is one of c's: c's known values
// are all d's.
func (c cube) covers(d cube) bool {
	for i, v := range c {
		if v >= 0 && (i >= len(d) || d[i] != v) {
			return false
		}
	}
	return true
}

// absState is a node of the abstract reachability tree over cut points.
type absState struct {
	loc    ir.Loc
	val    cube
	parent *absState
}

// loopEngine is the large-block CEGAR loop for a cone with loops:
// predicate abstraction at the cut points only (Entry, loop heads, Error),
// each block between two cut points one formula (unroll, buildDAG).
type loopEngine struct {
	p    *ir.Program
	s    *smt.Solver
	opt  Options
	late func() bool
	out  [][]*ir.Edge
	cut  []bool
	succ map[ir.Loc][]ir.Loc
	// preds are all the predicates (for the limit and the result); at
	// the ones tracked at each cut point.
	preds *predSet
	at    map[ir.Loc]*localPreds
	dags  map[[2]ir.Loc]*dagFormula
	// touched are the variables each block reads or writes.
	touched map[[2]ir.Loc]map[*ir.Var]bool
	res     *Result
	// before is the solver's query count at the start, for MaxQueries.
	before int
	// states are the abstract states of the last search, by cut point.
	states map[ir.Loc][]cube
}

// overWork reports the query limit, if reached.
func (le *loopEngine) overWork() error {
	if q := le.s.Stats().Queries - le.before; q > le.opt.MaxQueries {
		return fmt.Errorf("SMT query limit %d reached (%d queries)", le.opt.MaxQueries, q)
	}
	return nil
}

// checkLoops runs the large-block CEGAR loop on p (see CheckLBE). It
// fills res. An UNKNOWN is final when it comes from a counterexample
// (one that reads over-approximated values, or that the solver could
// not decide), which another engine would meet too; otherwise the engine
// gave up (a limit, no new predicate).
func checkLoops(p *ir.Program, s *smt.Solver, opt Options, res *Result, late func() bool) (final bool) {
	locs, edges := errorCone(p)
	le := &loopEngine{p: p, s: s, opt: opt, late: late, res: res,
		out: make([][]*ir.Edge, p.NumLocs), succ: map[ir.Loc][]ir.Loc{}, preds: newPredSet(), at: map[ir.Loc]*localPreds{},
		dags: map[[2]ir.Loc]*dagFormula{}, touched: map[[2]ir.Loc]map[*ir.Var]bool{}}
	for _, e := range edges {
		le.out[e.From] = append(le.out[e.From], e)
	}
	le.cut = cutPoints(p, locs, edges)
	le.before = s.Stats().Queries
	for _, e := range p.Edges {
		if a, ok := e.Stmt.(*ir.Assume); ok && e.To == p.Error {
			for _, x := range ir.Atoms(a.Cond) {
				le.addEverywhere(x)
			}
		}
	}
	for _, e := range opt.Seeds {
		le.addEverywhere(e)
	}
	for {
		if late() {
			res.fail(fmt.Sprintf("time limit %s reached (wall clock, the safety net)", opt.Timeout))
			return false
		}
		if le.preds.len() > opt.MaxPredicates {
			le.failAtLimit(fmt.Sprintf("predicate limit %d reached", opt.MaxPredicates))
			return false
		}
		res.Stats.Iterations++
		res.Predicates = res.Predicates[:0]
		for _, q := range le.preds.list {
			res.Predicates = append(res.Predicates, abstraction.Key(q))
		}
		cex, err := le.reach()
		if opt.KeepBoolProg {
			res.BoolProg = le.String()
		}
		if err != nil {
			if LimitOf(err.Error()) == LimitWork {
				le.failAtLimit(err.Error())
			} else {
				res.fail(err.Error())
			}
			return false
		}
		if cex == nil {
			res.Verdict = Safe
			return true
		}
		var seq []ir.Loc
		for st := cex; st != nil; st = st.parent {
			seq = append([]ir.Loc{st.loc}, seq...)
		}
		q, bounds := unroll(p, le.out, le.cut, seq)
		o := decideDAG(q, s, late, func() bool { return le.overWork() != nil }, minJoinsForInvariants, le.opt.Canonical)
		switch o.verdict {
		case Unsafe:
			res.Verdict, res.Trace, res.Position = Unsafe, o.trace, o.position
			return true
		case Unknown:
			if o.reread {
				if u, ok := le.agreeingUnrolling(seq); ok {
					res.Verdict, res.Trace, res.Position = Unsafe, u.trace, u.position
					return true
				}
			}
			res.fail(o.reason)
			res.Position = o.position
			return o.spurious
		}
		if res.Refinements >= opt.MaxRefinements {
			res.fail(fmt.Sprintf("refinement limit %d reached", opt.MaxRefinements))
			return false
		}
		if le.refine(q, bounds, seq) == 0 {
			res.fail(fmt.Sprintf("refinement found no new predicate: the abstract counterexample through cut points %s is infeasible, but the predicates of its blocks are all tracked", locList(seq)))
			return false
		}
		res.Refinements++
	}
}

// reach explores the abstract states at cut points breadth-first from
// Entry; it returns a state at Error (the end of an abstract
// counterexample) or nil when Error is unreachable.
func (le *loopEngine) reach() (*absState, error) {
	n := le.preds.len()
	top := make(cube, le.local(le.p.Entry).len())
	for i := range top {
		top[i] = -1
	}
	root := &absState{loc: le.p.Entry, val: top}
	seen := map[ir.Loc][]cube{le.p.Entry: {top}}
	le.states = seen
	queue := []*absState{root}
	states := 1
	for len(queue) > 0 {
		st := queue[0]
		queue = queue[1:]
		if le.late() {
			return nil, fmt.Errorf("time limit %s reached (wall clock, the safety net)", le.opt.Timeout)
		}
		if err := le.overWork(); err != nil {
			return nil, err
		}
		for _, d := range le.successorsOf(st.loc) {
			posts, err := le.post(st, d)
			if err != nil {
				return nil, err
			}
			for _, c := range posts {
				next := &absState{loc: d, val: c, parent: st}
				if d == le.p.Error {
					return next, nil
				}
				covered := false
				for _, old := range seen[d] {
					if old.covers(c) {
						covered = true
						break
					}
				}
				if covered {
					continue
				}
				seen[d] = append(seen[d], c)
				states++
				le.res.Stats.States++
				if states > le.opt.MaxStates {
					return nil, fmt.Errorf("boolprog: search limit reached: abstract state limit %d reached with %d predicates", le.opt.MaxStates, n)
				}
				queue = append(queue, next)
			}
		}
	}
	return nil, nil
}

func (le *loopEngine) successorsOf(c ir.Loc) []ir.Loc {
	if s, ok := le.succ[c]; ok {
		return s
	}
	s := successors(le.p, le.out, le.cut, c)
	le.succ[c] = s
	return s
}

// block returns the formula of the block from cut point c to cut point d.
func (le *loopEngine) block(c, d ir.Loc) (*dagFormula, error) {
	k := [2]ir.Loc{c, d}
	if f, ok := le.dags[k]; ok {
		return f, nil
	}
	q, _ := unroll(le.p, le.out, le.cut, []ir.Loc{c, d})
	locs, edges := errorCone(q)
	if !locs[q.Entry] {
		return nil, fmt.Errorf("internal: no path of the block L%d -> L%d", c, d)
	}
	order, ok := topoOrder(q, locs, edges)
	if !ok {
		return nil, fmt.Errorf("internal: the block L%d -> L%d has a loop", c, d)
	}
	f, err := buildDAG(q, order, edges)
	if err != nil {
		return nil, err
	}
	touched := map[*ir.Var]bool{}
	for _, e := range edges {
		switch st := e.Stmt.(type) {
		case *ir.Assign:
			for _, v := range st.Lhs {
				touched[v] = true
			}
			for _, x := range st.Rhs {
				ir.CollectVars(x, touched)
			}
		case *ir.Assume:
			ir.CollectVars(st.Cond, touched)
		case *ir.Havoc:
			for _, v := range st.Vars {
				touched[v] = true
			}
		}
	}
	le.dags[k], le.touched[k] = f, touched
	return f, nil
}

// post returns the abstract successors at cut point d of st through the
// block st.loc -> d: the cubes over the predicates that some execution of
// the block from a state of st.val ends in (AllSAT, one query per cube
// and one more), or, past maxCubes, the one cartesian cube. Only the
// predicates over variables the block reads or writes are enumerated;
// the others keep st's value (the block neither changes nor tests
// them). Into Error it only asks whether the block can be executed (one
// query).
func (le *loopEngine) post(st *absState, d ir.Loc) ([]cube, error) {
	f, err := le.block(st.loc, d)
	if err != nil {
		return nil, err
	}
	s := le.s
	s.Push()
	defer s.Pop()
	if err := le.assertFrom(f, st); err != nil {
		return nil, err
	}
	from, to := le.local(st.loc), le.local(d)
	n := to.len()
	// A predicate the block does not touch keeps its value at st, if st
	// tracks it.
	kept := make(cube, n)
	for j, q := range to.list {
		kept[j] = -1
		if k, ok := from.idx[abstraction.Key(q)]; ok {
			kept[j] = st.val[k]
		}
	}
	if d == le.p.Error {
		ok, err := le.checkBlock(st.loc, d)
		if err != nil || !ok {
			return nil, err
		}
		return []cube{make(cube, n)}, nil
	}
	// b_i <=> p_i at the block's end, for the relevant predicates.
	touched := le.touched[[2]ir.Loc{st.loc, d}]
	sel := make([]*ir.Var, n)
	var rel []int
	for i, q := range to.list {
		if !ir.Mentions(q, touched) {
			continue
		}
		rel = append(rel, i)
		sel[i] = &ir.Var{Name: fmt.Sprintf("$pred%d.end", i), Type: ir.Bool, Kind: ir.Ghost}
		if err := s.Assert(ir.Eq(sel[i], f.atError(q))); err != nil {
			return nil, fmt.Errorf("solver: %w", err)
		}
	}
	cubes, complete, err := le.allSAT(st.loc, d, kept, sel, rel)
	if err != nil || complete {
		return cubes, err
	}
	c, err := le.cartesian(st.loc, d, kept, sel, rel, cubes)
	if err != nil {
		return nil, err
	}
	return []cube{c}, nil
}

// assertFrom asserts the block formula f and st's predicate values at the
// block's start.
func (le *loopEngine) assertFrom(f *dagFormula, st *absState) error {
	s := le.s
	for _, part := range f.Parts {
		if err := s.Assert(part); err != nil {
			return fmt.Errorf("solver: %w", err)
		}
	}
	from := le.local(st.loc)
	for i, v := range st.val {
		if v < 0 {
			continue
		}
		lit := f.atEntry(from.list[i])
		if v == 0 {
			lit = ir.Not(lit)
		}
		if err := s.Assert(lit); err != nil {
			return fmt.Errorf("solver: %w", err)
		}
	}
	return nil
}

// checkBlock asks whether what is asserted is satisfiable; unknown is an
// error naming the block from -> to.
func (le *loopEngine) checkBlock(from, to ir.Loc) (bool, error) {
	r, err := le.s.Check()
	if err != nil {
		return false, fmt.Errorf("solver: %w", err)
	}
	if r == smt.Unknown {
		return false, fmt.Errorf("solver answered unknown (%s) on the block L%d -> L%d", le.s.ReasonUnknown(), from, to)
	}
	return r == smt.Sat, nil
}

// allSAT enumerates the cubes over the relevant predicates rel (selectors
// sel) that the block can end in, one query per cube and one more;
// complete is false when it stopped at maxCubes (the cubes found are then
// excluded in the solver).
func (le *loopEngine) allSAT(from, to ir.Loc, kept cube, sel []*ir.Var, rel []int) (cubes []cube, complete bool, err error) {
	s := le.s
	for {
		ok, err := le.checkBlock(from, to)
		if err != nil {
			return nil, false, err
		}
		if !ok {
			return cubes, true, nil
		}
		if len(cubes) == maxCubes {
			return cubes, false, nil
		}
		m, err := s.ModelOf(sel...)
		if err != nil {
			return nil, false, fmt.Errorf("solver: %w", err)
		}
		c := append(cube(nil), kept...)
		lits := make([]ir.Expr, 0, len(rel))
		for _, i := range rel {
			v, _ := m.Value(sel[i])
			c[i] = 0
			lit := ir.Not(sel[i])
			if v.B {
				c[i], lit = 1, sel[i]
			}
			lits = append(lits, lit)
		}
		cubes = append(cubes, c)
		if err := s.Assert(ir.Not(ir.And(lits...))); err != nil {
			return nil, false, fmt.Errorf("solver: %w", err)
		}
	}
}

// cartesian is the post when there are too many cubes: a predicate keeps
// a value only if every cube found has it and no state left (the found
// cubes are excluded by now) has the other.
func (le *loopEngine) cartesian(from, to ir.Loc, kept cube, sel []*ir.Var, rel []int, cubes []cube) (cube, error) {
	s := le.s
	c := append(cube(nil), kept...)
	for _, i := range rel {
		c[i] = cubes[0][i]
		for _, o := range cubes[1:] {
			if o[i] != c[i] {
				c[i] = -1
				break
			}
		}
		if c[i] < 0 {
			continue
		}
		var other ir.Expr = sel[i]
		if c[i] == 1 {
			other = ir.Not(sel[i])
		}
		s.Push()
		err := s.Assert(other)
		var ok bool
		if err == nil {
			ok, err = le.checkBlock(from, to)
		}
		s.Pop()
		if err != nil {
			return nil, err
		}
		if ok {
			c[i] = -1
		}
	}
	return c, nil
}

// refine adds the predicates that refute the infeasible block path q
// (bounds are its cut points): first the atoms of the conditions its
// blocks assume, when that adds nothing the atoms of the weakest
// preconditions at its cut points, then those at every location. It
// returns how many were new.
func (le *loopEngine) refine(q *ir.Program, bounds []ir.Loc, seq []ir.Loc) int {
	locs, edges := errorCone(q)
	order, _ := topoOrder(q, locs, edges)
	chain := dagWP(q, order, edges)
	added := 0
	for i, b := range bounds {
		if seq[i] == le.p.Error {
			continue
		}
		for _, x := range chain[b] {
			if le.addAt(seq[i], x) {
				added++
			}
		}
	}
	if added > 0 {
		return added
	}
	for _, e := range edges {
		if a, ok := e.Stmt.(*ir.Assume); ok && a.Kind != ir.KindFact {
			for _, x := range ir.Atoms(a.Cond) {
				added += le.addEverywhere(x)
			}
		}
	}
	if added > 0 {
		return added
	}
	for _, l := range order {
		for _, x := range chain[l] {
			added += le.addEverywhere(x)
		}
	}
	return added
}

// localPreds are the predicates tracked at one cut point.
type localPreds struct {
	list []ir.Expr
	idx  map[string]int // canonical text -> position in list
}

func (lp *localPreds) len() int { return len(lp.list) }

// local returns the predicates of cut point l.
func (le *loopEngine) local(l ir.Loc) *localPreds {
	lp, ok := le.at[l]
	if !ok {
		lp = &localPreds{idx: map[string]int{}}
		le.at[l] = lp
	}
	return lp
}

// addAt tracks the predicate of e at cut point l; it reports whether it
// was new there.
func (le *loopEngine) addAt(l ir.Loc, e ir.Expr) bool {
	q := abstraction.NewPredicate(e)
	if q == nil {
		return false
	}
	lp := le.local(l)
	if _, ok := lp.idx[q.Text]; ok {
		return false
	}
	lp.idx[q.Text] = len(lp.list)
	lp.list = append(lp.list, q.Expr)
	le.preds.add(q.Expr)
	return true
}

// addEverywhere tracks the predicate of e at every cut point but Error;
// it returns at how many it was new.
func (le *loopEngine) addEverywhere(e ir.Expr) int {
	n := 0
	for l, c := range le.cut {
		if c && ir.Loc(l) != le.p.Error && le.addAt(ir.Loc(l), e) {
			n++
		}
	}
	return n
}

// dagWP returns, for each location of the loop-free cone of q, the atoms
// of the weakest precondition of reaching Error from it: NewPredicates'
// chain, joined over the branches (at most maxChain atoms a location).
func dagWP(q *ir.Program, order []ir.Loc, edges []*ir.Edge) map[ir.Loc][]ir.Expr {
	const maxChain = 256
	out := make([][]*ir.Edge, q.NumLocs)
	for _, e := range edges {
		out[e.From] = append(out[e.From], e)
	}
	chain := map[ir.Loc][]ir.Expr{}
	for i := len(order) - 1; i >= 0; i-- {
		l := order[i]
		seen := map[string]bool{}
		var acc []ir.Expr
		for _, e := range out[l] {
			for _, a := range wpStep(e.Stmt, chain[e.To]) {
				for _, x := range ir.Atoms(a) {
					pr := abstraction.NewPredicate(x)
					if pr == nil || seen[pr.Text] || len(acc) >= maxChain {
						continue
					}
					seen[pr.Text] = true
					acc = append(acc, pr.Expr)
				}
			}
		}
		chain[l] = acc
	}
	return chain
}

// wpStep carries the atoms of a weakest precondition back through one
// statement, as NewPredicates does: an assume adds its condition's atoms,
// an assignment substitutes, a havoc eliminates the havocked variables
// where a definition or bounds allow and drops the atoms still naming
// them.
func wpStep(st ir.Stmt, chain []ir.Expr) []ir.Expr {
	switch s := st.(type) {
	case *ir.Assume:
		if s.Kind == ir.KindFact {
			return chain
		}
		return append(append([]ir.Expr(nil), chain...), s.Cond)
	case *ir.Assign:
		m := make(map[*ir.Var]ir.Expr, len(s.Lhs))
		for k, v := range s.Lhs {
			if k < len(s.Rhs) {
				m[v] = s.Rhs[k]
			}
		}
		next := make([]ir.Expr, len(chain))
		for k, a := range chain {
			next[k] = ir.Substitute(a, m)
		}
		return next
	case *ir.Havoc:
		set := map[*ir.Var]bool{}
		for _, v := range s.Vars {
			set[v] = true
		}
		var atoms []ir.Expr
		for _, a := range chain {
			atoms = append(atoms, ir.Atoms(a)...)
		}
		atoms = eliminate(atoms, s.Vars, set)
		var kept []ir.Expr
		for _, a := range atoms {
			if !ir.Mentions(a, set) {
				kept = append(kept, a)
			}
		}
		return kept
	}
	return chain
}

func locList(seq []ir.Loc) string {
	parts := make([]string, len(seq))
	for i, l := range seq {
		parts[i] = fmt.Sprintf("L%d", l)
	}
	return strings.Join(parts, " ")
}

// String prints the block-level abstract program of the last search: the
// cut points, the blocks between them, the predicates and the abstract
// states reached at each cut point (what --dump-boolprog shows for lbe).
func (le *loopEngine) String() string {
	var b strings.Builder
	var cuts []ir.Loc
	for l, c := range le.cut {
		if c {
			cuts = append(cuts, ir.Loc(l))
		}
	}
	fmt.Fprintf(&b, "// large-block program: abstraction at cut points %s (entry L%d, error L%d, the others loop heads)\n", locList(cuts), le.p.Entry, le.p.Error)
	for _, c := range cuts {
		for i, q := range le.local(c).list {
			fmt.Fprintf(&b, "// at L%d: b%d == %s\n", c, i, abstraction.Key(q))
		}
	}
	for _, c := range cuts {
		for _, d := range le.successorsOf(c) {
			n := 0
			if q, ok := le.dags[[2]ir.Loc{c, d}]; ok {
				n = len(q.take)
			}
			fmt.Fprintf(&b, "block L%d -> L%d (%d edges)\n", c, d, n)
		}
	}
	for _, c := range cuts {
		for _, v := range le.states[c] {
			var lits []string
			for i, x := range v {
				switch x {
				case 1:
					lits = append(lits, fmt.Sprintf("b%d", i))
				case 0:
					lits = append(lits, fmt.Sprintf("!b%d", i))
				}
			}
			if len(lits) == 0 {
				lits = []string{"true"}
			}
			fmt.Fprintf(&b, "L%d: %s\n", c, strings.Join(lits, " && "))
		}
	}
	return b.String()
}
