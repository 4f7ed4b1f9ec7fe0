package refine

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/smt"
	"github.com/dbverify/dbverify/vcgen"
)

// errorCone returns the locations of p that lie on some path from Entry to
// Error (reachable from Entry and reaching Error), and the edges between
// them. Only these matter for the reachability of Error.
func errorCone(p *ir.Program) (locs []bool, edges []*ir.Edge) {
	fwd := p.Reachable()
	bwd := make([]bool, p.NumLocs)
	in := p.In()
	bwd[p.Error] = true
	stack := []ir.Loc{p.Error}
	for len(stack) > 0 {
		l := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range in[l] {
			if !bwd[e.From] {
				bwd[e.From] = true
				stack = append(stack, e.From)
			}
		}
	}
	locs = make([]bool, p.NumLocs)
	for l := range locs {
		locs[l] = fwd[l] && bwd[l]
	}
	for _, e := range p.Edges {
		if locs[e.From] && locs[e.To] {
			edges = append(edges, e)
		}
	}
	return locs, edges
}

// topoOrder returns the locations of the cone in topological order of its
// edges, Entry first, or ok == false when the cone has a cycle (a loop
// that can reach Error).
func topoOrder(p *ir.Program, locs []bool, edges []*ir.Edge) (order []ir.Loc, ok bool) {
	indeg := make([]int, p.NumLocs)
	out := make([][]*ir.Edge, p.NumLocs)
	n := 0
	for _, in := range locs {
		if in {
			n++
		}
	}
	for _, e := range edges {
		indeg[e.To]++
		out[e.From] = append(out[e.From], e)
	}
	var queue []ir.Loc
	for l, in := range locs {
		if in && indeg[l] == 0 {
			queue = append(queue, ir.Loc(l))
		}
	}
	for len(queue) > 0 {
		l := queue[0]
		queue = queue[1:]
		order = append(order, l)
		for _, e := range out[l] {
			indeg[e.To]--
			if indeg[e.To] == 0 {
				queue = append(queue, e.To)
			}
		}
	}
	return order, len(order) == n
}

// dagFormula is the large-block encoding of a loop-free cone: one formula
// whose models are exactly the executions of the program from Entry to
// Error, as the conjunction of Parts.
//
// Every edge e has a selector take(e) (a Bool); every location l a
// reach(l). A variable gets a fresh version at each edge that assigns or
// havocs it and at each location where the versions of its incoming
// edges differ (the join). The parts are
//
//	reach(Error)
//	reach(l) => take(e1) || … || take(ek)          for l ≠ Entry, ei into l
//	take(e) => reach(from(e)) && C(e) && M(e)     for every edge e
//
// where C(e) is the edge's statement over versions, exactly as
// vcgen.Build states it (Assign: new == rhs; Assume: cond; Havoc: fresh
// versions, no constraint), and M(e) equates the join versions of to(e)
// with e's outgoing versions. A model therefore selects, backwards from
// Error, a path whose steps it satisfies (Path); conversely an execution
// reaching Error gives a model. The formula is the disjunction over all
// paths of their path formulas, of size linear in the program.
type dagFormula struct {
	prog  *ir.Program
	Parts []ir.Expr
	take  map[*ir.Edge]*ir.Var
	reach []*ir.Var
	in    [][]*ir.Edge // the cone's incoming edges by location
	// at and out are the versions in force at each location and after
	// each edge; initial holds the versions 0 (values at entry).
	at      []map[*ir.Var]*ir.Var
	out     map[*ir.Edge]map[*ir.Var]*ir.Var
	initial map[*ir.Var]*ir.Var
	init    func(*ir.Var) *ir.Var // the version 0 of a variable, made on first use
	// cons is C(e) of each edge, over versions (what take(e) implies
	// besides reach(from(e))).
	cons map[*ir.Edge]ir.Expr
}

// entryVersion returns the version of v at Entry (its value at entry).
func (d *dagFormula) entryVersion(v *ir.Var) *ir.Var { return d.init(v) }

// errorVersion returns the version of v in force at Error.
func (d *dagFormula) errorVersion(v *ir.Var) *ir.Var {
	if s, ok := d.at[d.prog.Error][v]; ok {
		return s
	}
	return d.init(v)
}

// atEntry and atError state e over the versions at Entry and at Error.
func (d *dagFormula) atEntry(e ir.Expr) ir.Expr { return d.rename(e, d.entryVersion) }
func (d *dagFormula) atError(e ir.Expr) ir.Expr { return d.rename(e, d.errorVersion) }

func (d *dagFormula) rename(e ir.Expr, version func(*ir.Var) *ir.Var) ir.Expr {
	vars := map[*ir.Var]bool{}
	ir.CollectVars(e, vars)
	m := make(map[*ir.Var]ir.Expr, len(vars))
	for v := range vars {
		m[v] = version(v)
	}
	return ir.Substitute(e, m)
}

// buildDAG encodes the loop-free cone (order is its topological order).
func buildDAG(p *ir.Program, order []ir.Loc, edges []*ir.Edge) (*dagFormula, error) {
	return buildDAGMerging(p, order, edges, true)
}

// buildDAGMerging is buildDAG; with atError false, Error gets no join
// versions (no M(e) for the edges into it) and errorVersion must not be
// used: a caller that only asks whether Error is reachable reads no
// variable there, and those equalities, one per variable written on the
// way for each edge into Error, would make the formula quadratic in the
// number of checks.
func buildDAGMerging(p *ir.Program, order []ir.Loc, edges []*ir.Edge, atError bool) (*dagFormula, error) {
	b := newDAGBuilder(p, edges)
	b.mergeAtError = atError
	d := b.d
	for _, l := range order {
		d.reach[l] = b.fresh("$reach.L"+strconv.Itoa(int(l)), ir.Bool, ir.Ghost)
	}
	d.Parts = append(d.Parts, d.reach[p.Error])
	outEdges := make([][]*ir.Edge, p.NumLocs)
	for _, e := range edges {
		outEdges[e.From] = append(outEdges[e.From], e)
	}
	for _, l := range order {
		cur, err := b.versionsAt(l)
		if err != nil {
			return nil, err
		}
		d.at[l] = cur
		if l != p.Entry {
			ins := d.in[l]
			sel := make([]ir.Expr, len(ins))
			for k, e := range ins {
				sel[k] = d.take[e]
			}
			d.Parts = append(d.Parts, ir.Implies(d.reach[l], ir.Or(sel...)))
		}
		for _, e := range outEdges[l] {
			if err := b.encodeEdge(e, cur); err != nil {
				return nil, err
			}
		}
	}
	for _, e := range edges {
		if m := b.merge[e]; len(m) > 0 {
			d.Parts = append(d.Parts, ir.Implies(d.take[e], ir.And(m...)))
		}
	}
	return d, nil
}

// dagBuilder holds the state of one buildDAG: the names in use, the
// versions made of each variable and the equalities of each edge into a
// join.
type dagBuilder struct {
	d     *dagFormula
	used  map[string]bool
	count map[*ir.Var]int
	merge map[*ir.Edge][]ir.Expr // M(e) of each edge into a join
	// mergeAtError: Error gets join versions like any location.
	mergeAtError bool
}

func newDAGBuilder(p *ir.Program, edges []*ir.Edge) *dagBuilder {
	b := &dagBuilder{
		d: &dagFormula{
			prog:    p,
			take:    make(map[*ir.Edge]*ir.Var, len(edges)),
			reach:   make([]*ir.Var, p.NumLocs),
			in:      make([][]*ir.Edge, p.NumLocs),
			at:      make([]map[*ir.Var]*ir.Var, p.NumLocs),
			out:     make(map[*ir.Edge]map[*ir.Var]*ir.Var, len(edges)),
			initial: map[*ir.Var]*ir.Var{},
			cons:    make(map[*ir.Edge]ir.Expr, len(edges)),
		},
		used:  map[string]bool{},
		count: map[*ir.Var]int{},
		merge: map[*ir.Edge][]ir.Expr{},
	}
	for _, v := range p.Vars {
		b.used[v.Name] = true
	}
	b.d.init = b.initVersion
	for _, e := range edges {
		b.d.in[e.To] = append(b.d.in[e.To], e)
		b.d.take[e] = b.fresh("$take.e"+strconv.Itoa(e.ID), ir.Bool, ir.Ghost)
	}
	return b
}

// fresh returns a new variable whose name no other variable has.
func (b *dagBuilder) fresh(name string, s ir.Sort, kind ir.VarKind) *ir.Var {
	for b.used[name] {
		name += "'"
	}
	b.used[name] = true
	return &ir.Var{Name: name, Type: s, Kind: kind}
}

// version returns a new version of v.
func (b *dagBuilder) version(v *ir.Var) *ir.Var {
	b.count[v]++
	nv := b.fresh(v.Name+"~"+strconv.Itoa(b.count[v]), v.Type, v.Kind)
	nv.Row, nv.Table, nv.Col = v.Row, v.Table, v.Col
	return nv
}

// initVersion returns the version 0 of v (its value at entry), made on
// first use.
func (b *dagBuilder) initVersion(v *ir.Var) *ir.Var {
	if s, ok := b.d.initial[v]; ok {
		return s
	}
	s := b.fresh(v.Name+"~0", v.Type, v.Kind)
	s.Row, s.Table, s.Col = v.Row, v.Table, v.Col
	b.d.initial[v] = s
	return s
}

// versionsAt returns the versions in force at l: those after its one
// incoming edge, or at a join a new version of each variable whose
// incoming versions differ, tied to them by the edges' M(e).
func (b *dagBuilder) versionsAt(l ir.Loc) (map[*ir.Var]*ir.Var, error) {
	d := b.d
	ins := d.in[l]
	switch {
	case l == d.prog.Entry && len(ins) == 0:
		return map[*ir.Var]*ir.Var{}, nil
	case len(ins) == 0:
		return nil, fmt.Errorf("lbe: location L%d of the cone has no incoming edge", l)
	case len(ins) == 1:
		return d.out[ins[0]], nil
	case l == d.prog.Error && !b.mergeAtError:
		return nil, nil
	}
	cur := map[*ir.Var]*ir.Var{}
	vars := map[*ir.Var]bool{}
	for _, e := range ins {
		for v := range d.out[e] {
			vars[v] = true
		}
	}
	incoming := func(e *ir.Edge, v *ir.Var) *ir.Var {
		if ver, ok := d.out[e][v]; ok {
			return ver
		}
		return b.initVersion(v)
	}
	for _, v := range sortedVars(vars) {
		first := incoming(ins[0], v)
		same := true
		for _, e := range ins[1:] {
			if incoming(e, v) != first {
				same = false
			}
		}
		if same {
			cur[v] = first
			continue
		}
		j := b.version(v)
		cur[v] = j
		for _, e := range ins {
			b.merge[e] = append(b.merge[e], ir.Eq(j, incoming(e, v)))
		}
	}
	return cur, nil
}

// encodeEdge adds take(e) ⇒ reach(from) ∧ C(e) over the versions cur in
// force at e's source, and records the versions after e.
func (b *dagBuilder) encodeEdge(e *ir.Edge, cur map[*ir.Var]*ir.Var) error {
	d := b.d
	rename := func(x ir.Expr) ir.Expr {
		vars := map[*ir.Var]bool{}
		ir.CollectVars(x, vars)
		m := make(map[*ir.Var]ir.Expr, len(vars))
		for v := range vars {
			if s, ok := cur[v]; ok {
				m[v] = s
			} else {
				m[v] = b.initVersion(v)
			}
		}
		return ir.Substitute(x, m)
	}
	next := cur
	var c ir.Expr = ir.True
	switch s := e.Stmt.(type) {
	case *ir.Assign:
		if len(s.Lhs) != len(s.Rhs) {
			return fmt.Errorf("lbe: %s: %d variables, %d values", s, len(s.Lhs), len(s.Rhs))
		}
		next = copyMap(cur)
		eqs := make([]ir.Expr, len(s.Lhs))
		for k, v := range s.Lhs {
			nv := b.version(v)
			eqs[k] = ir.Eq(nv, rename(s.Rhs[k]))
			next[v] = nv
		}
		c = ir.And(eqs...)
	case *ir.Assume:
		c = rename(s.Cond)
	case *ir.Havoc:
		next = copyMap(cur)
		for _, v := range s.Vars {
			next[v] = b.version(v)
		}
	default:
		return fmt.Errorf("lbe: edge L%d -> L%d: unsupported statement %T (the program must be lowered)", e.From, e.To, e.Stmt)
	}
	d.out[e] = next
	d.cons[e] = c
	d.Parts = append(d.Parts, ir.Implies(d.take[e], ir.And(d.reach[e.From], c)))
	return nil
}

// Path reads the path a model of the formula selects: backwards from
// Error, at each location an incoming edge whose selector is true.
func (d *dagFormula) Path(m *smt.Model) ([]*ir.Edge, error) {
	var rev []*ir.Edge
	l := d.prog.Error
	for steps := 0; l != d.prog.Entry; steps++ {
		if steps > len(d.take) {
			return nil, fmt.Errorf("lbe: the model's path does not end at the entry")
		}
		var pick *ir.Edge
		for _, e := range d.in[l] {
			if v, ok := m.Value(d.take[e]); ok && v.Sort == ir.Bool && v.B {
				pick = e
				break
			}
		}
		if pick == nil {
			return nil, fmt.Errorf("lbe: the model selects no edge into L%d", l)
		}
		rev = append(rev, pick)
		l = pick.From
	}
	path := make([]*ir.Edge, len(rev))
	for i, e := range rev {
		path[len(rev)-1-i] = e
	}
	return path, nil
}

// block returns the formula excluding path: not all of its selectors.
func (d *dagFormula) block(path []*ir.Edge) ir.Expr {
	sel := make([]ir.Expr, len(path))
	for i, e := range path {
		sel[i] = d.take[e]
	}
	return ir.Not(ir.And(sel...))
}

func copyMap(m map[*ir.Var]*ir.Var) map[*ir.Var]*ir.Var {
	out := make(map[*ir.Var]*ir.Var, len(m)+4)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// sortedVars returns the set's variables by name, for a deterministic
// formula.
func sortedVars(set map[*ir.Var]bool) []*ir.Var {
	out := make([]*ir.Var, 0, len(set))
	for v := range set {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// pathModel gives the versions of a path formula (package vcgen) the
// values a model of the DAG formula gives their counterparts, so that
// vcgen.Validate and report.BuildTrace read the counterexample off the one
// query that found it. The correspondence is not trusted: Validate
// re-evaluates every step of the path with these values.
type pathModel struct {
	m  *smt.Model
	of map[*ir.Var]*ir.Var
}

func (pm pathModel) Value(v *ir.Var) (ir.Value, bool) {
	if d, ok := pm.of[v]; ok {
		return pm.m.Value(d)
	}
	return pm.m.Value(v)
}

// modelFor maps the versions of pf, the path formula of a path the model
// m selects, to their counterparts in d: a version 0 to the DAG's value
// at entry, a version an edge defines to the version that edge defines in
// the DAG (join versions in between are equal to it on the selected path).
func (d *dagFormula) modelFor(pf *vcgen.PathFormula, m *smt.Model) pathModel {
	of := map[*ir.Var]*ir.Var{}
	for orig, ver := range pf.Init {
		if dv, ok := d.initial[orig]; ok {
			of[ver] = dv
		}
	}
	for _, st := range pf.Steps {
		out := d.out[st.Edge]
		for _, ver := range st.Defs {
			if dv, ok := out[pf.Origin[ver].Orig]; ok {
				of[ver] = dv
			}
		}
	}
	return pathModel{m: m, of: of}
}
