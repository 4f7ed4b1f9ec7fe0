package abstraction

import (
	"fmt"
	"sort"
	"time"

	"github.com/dbverify/dbverify/boolprog"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/smt"
)

// Options tunes the abstraction; zero fields take the defaults.
type Options struct {
	MaxRelevant  int // predicates F(φ) is computed over (default 10)
	MaxCubes     int // cubes one AllSAT may enumerate before giving up (default 64)
	MaxQueries   int // SMT queries one Shannon expansion may ask (default 96)
	GroupSize    int // predicates per consistency group after a havoc (default 5, at most 6)
	MaxTriangles int // triangle groups per havoced predicate (default 12)
	// MaxStrengthen bounds the predicates an assume strengthens (default
	// 8; negative: none).
	MaxStrengthen int
}

func (o Options) withDefaults() Options {
	if o.MaxRelevant <= 0 {
		o.MaxRelevant = 10
	}
	if o.MaxCubes <= 0 {
		o.MaxCubes = 64
	}
	if o.MaxQueries <= 0 {
		o.MaxQueries = 96
	}
	if o.GroupSize <= 0 {
		o.GroupSize = 5
	}
	if o.MaxStrengthen == 0 {
		o.MaxStrengthen = 8
	}
	if o.MaxTriangles <= 0 {
		o.MaxTriangles = 12
	}
	if o.GroupSize > allSATLimit {
		o.GroupSize = allSATLimit
	}
	return o
}

// An Abstractor builds boolean programs with one solver. It caches F(φ)
// and the consistency constraints by the text of φ and of the predicates
// they are computed over, so the builds of successive CEGAR iterations
// only pay for what the new predicates change. It is not safe for
// concurrent use.
type Abstractor struct {
	s       *smt.Solver
	opt     Options
	covers  map[string]boolprog.Expr // F(φ) over local variables
	consist map[string]boolprog.Expr // consistency of a group, over local variables
}

// New returns an Abstractor that asks s.
func New(s *smt.Solver, opt Options) *Abstractor {
	return &Abstractor{
		s:       s,
		opt:     opt.withDefaults(),
		covers:  map[string]boolprog.Expr{},
		consist: map[string]boolprog.Expr{},
	}
}

// Stats is the work of one Build.
type Stats struct {
	Queries       int     // Z3 checks (the solver's counter)
	SolverHits    int     // standalone queries the solver answered from its cache
	CacheHits     int     // F(φ) and consistency constraints reused from earlier builds
	Computed      int     // F(φ) and consistency constraints computed
	Fallbacks     int     // F(φ) that fell back to 0 (too many cubes, Unknown)
	Seconds       float64 // wall time of the build
	SolverSeconds float64 // time inside Z3
}

// An Abstraction is the boolean program of an ir program over predicates.
type Abstraction struct {
	Prog  *boolprog.Program
	Preds []*Predicate // Preds[i] is what b_i stands for
	Stats Stats

	aux []bool // by boolprog edge ID: the second edge of a havoc (its consistency assume)
}

// Build is New(s, Options{}).Build(p, preds).
func Build(p *ir.Program, preds []ir.Expr, s *smt.Solver) (*Abstraction, error) {
	return New(s, Options{}).Build(p, preds)
}

// Build abstracts the lowered program p over preds (canonicalised and
// deduplicated; constants dropped). Every edge of p becomes one boolprog
// edge between the corresponding locations, except a havoc that touches
// predicates, which becomes two (the havoc and its consistency assume)
// through an extra location. Statements other than Assign, Assume and
// Havoc are an error: p must be lowered.
func (a *Abstractor) Build(p *ir.Program, preds []ir.Expr) (*Abstraction, error) {
	return a.BuildWithin(p, preds, 0)
}

// A QueryLimitError is BuildWithin's error when the build asked more
// solver queries than it was allowed.
type QueryLimitError struct {
	Limit   int // the queries allowed
	Queries int // the queries asked when the build stopped
}

func (e *QueryLimitError) Error() string {
	return fmt.Sprintf("abstraction: %d SMT queries asked, over the limit of %d", e.Queries, e.Limit)
}

// BuildWithin is Build stopped with a *QueryLimitError once it has asked
// more than maxQueries solver queries (checked after each edge; 0 or
// negative: no limit). The caller's query budget then bounds a whole
// refinement, not only the rounds between builds.
func (a *Abstractor) BuildWithin(p *ir.Program, preds []ir.Expr, maxQueries int) (*Abstraction, error) {
	start := time.Now()
	before := a.s.Stats()
	b := &builder{a: a, p: p, index: map[string]int{}, st: &Stats{}}
	for _, e := range preds {
		q := NewPredicate(e)
		if q == nil {
			continue
		}
		if _, dup := b.index[q.Text]; dup {
			continue
		}
		b.index[q.Text] = len(b.preds)
		b.preds = append(b.preds, q)
	}
	texts := make([]string, len(b.preds))
	for i, q := range b.preds {
		texts[i] = q.Text
	}
	b.bp = boolprog.NewProgram(p.Name, texts)
	b.locs = make([]int, p.NumLocs)
	for i := range b.locs {
		b.locs[i] = -1
	}
	b.locs[p.Entry] = b.bp.Entry
	b.locs[p.Exit] = b.bp.Exit
	b.locs[p.Error] = b.bp.Error
	for _, e := range p.Edges {
		if err := b.edge(e); err != nil {
			return nil, err
		}
		if q := a.s.Stats().Queries - before.Queries; maxQueries > 0 && q > maxQueries {
			return nil, &QueryLimitError{Limit: maxQueries, Queries: q}
		}
	}
	after := a.s.Stats()
	st := b.st
	st.Queries = after.Queries - before.Queries
	st.SolverHits = after.CacheHits - before.CacheHits
	st.SolverSeconds = after.Seconds - before.Seconds
	st.Seconds = time.Since(start).Seconds()
	return &Abstraction{Prog: b.bp, Preds: b.preds, Stats: *st, aux: b.aux}, nil
}

// Path maps an abstract trace of x.Prog back to the edges of p it
// abstracts, dropping the consistency edges of havocs.
func (x *Abstraction) Path(p *ir.Program, t *boolprog.Trace) ([]*ir.Edge, error) {
	var out []*ir.Edge
	for _, e := range t.Edges {
		if e.ID < len(x.aux) && x.aux[e.ID] {
			continue
		}
		if e.Orig < 0 || e.Orig >= len(p.Edges) {
			return nil, fmt.Errorf("abstraction: boolean edge %d abstracts no edge of %s (orig %d)", e.ID, p.Name, e.Orig)
		}
		out = append(out, p.Edges[e.Orig])
	}
	return out, nil
}

// F returns F(φ) over the predicates of x (see package doc), using a's
// caches; for tests and for inspecting an abstraction.
func (a *Abstractor) F(x *Abstraction, phi ir.Expr) (boolprog.Expr, error) {
	b := &builder{a: a, preds: x.Preds, index: map[string]int{}, st: &Stats{}}
	for i, q := range x.Preds {
		b.index[q.Text] = i
	}
	return b.f(phi)
}

// builder is the state of one Build.
type builder struct {
	a     *Abstractor
	p     *ir.Program
	preds []*Predicate
	index map[string]int // predicate text → index
	bp    *boolprog.Program
	locs  []int // ir location → boolprog location (-1: not yet made)
	aux   []bool
	st    *Stats
}

func (b *builder) loc(l ir.Loc) int {
	if b.locs[l] < 0 {
		b.locs[l] = b.bp.NewLoc()
	}
	return b.locs[l]
}

func (b *builder) add(from, to int, s boolprog.Stmt, orig int, label string, aux bool) {
	e := b.bp.AddEdge(from, to, s, orig, label)
	for len(b.aux) <= e.ID {
		b.aux = append(b.aux, false)
	}
	b.aux[e.ID] = aux
}

// edge abstracts one edge of the program.
func (b *builder) edge(e *ir.Edge) error {
	if int(e.From) >= len(b.locs) || int(e.To) >= len(b.locs) || e.From < 0 || e.To < 0 {
		return fmt.Errorf("abstraction: edge %d: location out of range", e.ID)
	}
	from, to := b.loc(e.From), b.loc(e.To)
	label := Label(e.Stmt)
	switch s := e.Stmt.(type) {
	case *ir.Assign:
		if len(s.Lhs) != len(s.Rhs) {
			return fmt.Errorf("abstraction: %s: %d variables, %d values", label, len(s.Lhs), len(s.Rhs))
		}
		m := make(map[*ir.Var]ir.Expr, len(s.Lhs))
		set := make(map[*ir.Var]bool, len(s.Lhs))
		for i, v := range s.Lhs {
			m[v] = s.Rhs[i]
			set[v] = true
		}
		var stmt boolprog.Stmt = boolprog.Skip{}
		asg := &boolprog.Assign{}
		for i, q := range b.preds {
			if !q.Mentions(set) {
				continue
			}
			wp := ir.Substitute(q.Expr, m)
			pos, err := b.f(wp)
			if err != nil {
				return err
			}
			neg, err := b.f(ir.Not(wp))
			if err != nil {
				return err
			}
			asg.Vars = append(asg.Vars, i)
			asg.Values = append(asg.Values, boolprog.Choose{Pos: pos, Neg: neg})
		}
		if len(asg.Vars) > 0 {
			stmt = asg
		}
		b.add(from, to, stmt, e.ID, label, false)
	case *ir.Assume:
		nf, err := b.f(ir.Not(s.Cond))
		if err != nil {
			return err
		}
		var stmt boolprog.Stmt = boolprog.Skip{}
		if c := negate(nf); c != boolprog.Const(true) {
			stmt = &boolprog.Assume{Cond: c}
		}
		str, err := b.strengthen(s.Cond)
		if err != nil {
			return err
		}
		switch {
		case str == nil:
			b.add(from, to, stmt, e.ID, label, false)
		case stmt == boolprog.Stmt(boolprog.Skip{}):
			b.add(from, to, str, e.ID, label, false)
		default:
			mid := b.bp.NewLoc()
			b.add(from, mid, stmt, e.ID, label, false)
			b.add(mid, to, str, e.ID, "strengthening after "+label, true)
		}
	case *ir.Havoc:
		set := make(map[*ir.Var]bool, len(s.Vars))
		for _, v := range s.Vars {
			set[v] = true
		}
		var hv []int
		for i, q := range b.preds {
			if q.Mentions(set) {
				hv = append(hv, i)
			}
		}
		if len(hv) == 0 {
			b.add(from, to, boolprog.Skip{}, e.ID, label, false)
			return nil
		}
		asg := &boolprog.Assign{Vars: hv, Values: make([]boolprog.Choose, len(hv))}
		for i := range asg.Values {
			asg.Values[i] = boolprog.Star()
		}
		enf, err := b.enforce(hv, set)
		if err != nil {
			return err
		}
		if enf == boolprog.Const(true) {
			b.add(from, to, asg, e.ID, label, false)
			return nil
		}
		mid := b.bp.NewLoc()
		b.add(from, mid, asg, e.ID, label, false)
		b.add(mid, to, &boolprog.Assume{Cond: enf}, e.ID, "consistency after "+label, true)
	default:
		return fmt.Errorf("abstraction: %s: unsupported statement %T (the program must be lowered to assign, assume and havoc)", label, e.Stmt)
	}
	return nil
}

// f returns F(φ): the weakest boolean formula over the predicates relevant
// to φ that implies φ.
func (b *builder) f(phi ir.Expr) (boolprog.Expr, error) {
	return b.fOver(phi, b.a.opt.MaxRelevant)
}

// fSmall is F(φ) over at most allSATLimit relevant predicates, always by
// AllSAT: exact, inconsistent valuations included, which is what lets a
// strengthening drop the states that contradict what an assume implies.
func (b *builder) fSmall(phi ir.Expr) (boolprog.Expr, error) {
	return b.fOver(phi, allSATLimit)
}

func (b *builder) fOver(phi ir.Expr, maxR int) (boolprog.Expr, error) {
	pos, neg := Canonical(phi)
	if c, ok := pos.(ir.BoolConst); ok {
		return boolprog.Const(bool(c) != neg), nil
	}
	if i, ok := b.index[pos.String()]; ok {
		if neg {
			return boolprog.MkNot(boolprog.Var(i)), nil
		}
		return boolprog.Var(i), nil
	}
	vars := map[*ir.Var]bool{}
	ir.CollectVars(phi, vars)
	// The predicates that are atoms of φ decide it most directly: they
	// come first, in R and in the order of the expansion.
	atoms := map[int]bool{}
	for _, a := range ir.Atoms(phi) {
		if i, ok := b.index[Key(a)]; ok {
			atoms[i] = true
		}
	}
	idx := relevant(b.preds, vars, maxR, nil, atoms)
	R := make([]*Predicate, len(idx))
	for j, i := range idx {
		R[j] = b.preds[i]
	}
	key := cacheKey(phi.String(), R)
	e, ok := b.a.covers[key]
	if ok {
		b.st.CacheHits++
	} else {
		var err error
		if e, err = b.a.cover(phi, R, b.st); err != nil {
			return nil, err
		}
		b.a.covers[key] = e
		b.st.Computed++
	}
	return remap(e, idx), nil
}

// strengthen returns the assignment that, after assume c, gives the
// predicates c decides the values it forces:
//
//	b_p := choose(b_p ∨ F(c → p), ¬b_p ∨ F(c → ¬p))
//
// for the predicates p sharing most variables with c (at most MaxStrengthen,
// the atoms of c left out: the assume constrains them already). A state
// whose b_p contradicts what c forces is dropped, and an unknown b_p is
// decided when c decides it: the abstract state learns at the assume what
// the concrete one does, instead of keeping p unknown and independent of
// what follows. nil when no predicate is affected.
func (b *builder) strengthen(c ir.Expr) (*boolprog.Assign, error) {
	if b.a.opt.MaxStrengthen < 0 {
		return nil, nil
	}
	vars := map[*ir.Var]bool{}
	ir.CollectVars(c, vars)
	if len(vars) == 0 {
		return nil, nil
	}
	skip := map[int]bool{}
	for _, a := range ir.Atoms(c) {
		if i, ok := b.index[Key(a)]; ok {
			skip[i] = true
		}
	}
	notC, err := b.f(ir.Not(c)) // the states the assume drops anyway
	if err != nil {
		return nil, err
	}
	asg := &boolprog.Assign{}
	for _, i := range relevant(b.preds, vars, b.a.opt.MaxStrengthen, skip, nil) {
		p := b.preds[i].Expr
		pos, err := b.fSmall(ir.Implies(c, p))
		if err != nil {
			return nil, err
		}
		neg, err := b.fSmall(ir.Implies(c, ir.Not(p)))
		if err != nil {
			return nil, err
		}
		v := boolprog.Var(i)
		// Nothing new if F(c → p) only holds where p does or where the
		// assume blocks, and likewise for ¬p.
		if implies(pos, boolprog.MkOr(v, notC)) && implies(neg, boolprog.MkOr(boolprog.MkNot(v), notC)) {
			continue
		}
		asg.Vars = append(asg.Vars, i)
		asg.Values = append(asg.Values, boolprog.Choose{
			Pos: boolprog.MkOr(v, pos),
			Neg: boolprog.MkOr(boolprog.MkNot(v), neg),
		})
	}
	if len(asg.Vars) == 0 {
		return nil, nil
	}
	return asg, nil
}

// maxImpliesVars bounds the truth tables of implies.
const maxImpliesVars = 12

// implies reports whether f ⇒ g holds for every valuation, by truth table;
// false (the safe answer for its use) when they have too many variables.
func implies(f, g boolprog.Expr) bool {
	if f == boolprog.Const(false) || g == boolprog.Const(true) || boolprog.ExprEqual(f, g) {
		return true
	}
	vars := boolprog.Vars(boolprog.MkOr(f, g))
	if len(vars) > maxImpliesVars {
		return false
	}
	n := 0
	for _, v := range vars {
		n = max(n, v+1)
	}
	state := make([]boolprog.Value, n)
	for m := 0; m < 1<<len(vars); m++ {
		for j, v := range vars {
			state[v] = boolprog.False
			if m&(1<<j) != 0 {
				state[v] = boolprog.True
			}
		}
		if boolprog.Eval(f, state) == boolprog.True && boolprog.Eval(g, state) != boolprog.True {
			return false
		}
	}
	return true
}

// maxTight bounds the tight consistency groups.
const maxTight = 12

// enforce returns the consistency constraint after a havoc of the
// predicates hv: the conjunction of the consistency constraints (the
// AllSAT of true projected on a few predicates, as clauses excluding their
// inconsistent valuations) of these groups, for each havoced predicate h:
//
//   - the tight group: h and the predicates over variables of h only (at
//     most maxTight in all), such as x >= 0, y <= 0, x + y >= 0 for
//     h = x + y >= 0;
//   - h with the predicates sharing most variables with it (GroupSize in
//     all): relations such as x >= 0, x >= 5 or r.b >= 0, s.b >= 0,
//     s.b == r.b;
//   - the triangles {h, n1, n2} where n1 and n2 share variables with h,
//     first the closed ones (every variable occurs in two of the three:
//     x >= 0, y >= x, y >= 0 or q <= s.b, s.b == r.b, q <= r.b), then
//     those where n1 and n2 share a variable h does not have, the ones
//     over fewer variables first, at most MaxTriangles per h;
//   - the substitution clauses of h (see substitutions): e₁ ∧ … ∧ eₖ ⇒
//     (h ⇔ q) when the equality predicates eᵢ turn h into the predicate q,
//     such as r.id == s.id ∧ r.b == s.b ⇒ (s.b >= k ⇔ r.b >= k).
//
// This keeps the correlations among the predicates over a freshly read row
// and between them and the predicates they share variables with.
func (b *builder) enforce(hv []int, havoced map[*ir.Var]bool) (boolprog.Expr, error) {
	var groups [][]int
	for _, h := range hv {
		hvars := b.preds[h].vars
		nb := relevant(b.preds, hvars, len(b.preds), map[int]bool{h: true}, nil)
		if len(nb) == 0 {
			continue
		}
		base := append([]int{h}, nb[:min(len(nb), b.a.opt.GroupSize-1)]...)
		sort.Ints(base)
		groups = append(groups, base)
		// The tight group: h and the predicates over its variables only.
		tight := []int{h}
		for _, i := range nb {
			if len(tight) < maxTight && len(b.preds[i].vars) == b.preds[i].shared(hvars) {
				tight = append(tight, i)
			}
		}
		if len(tight) > 2 {
			sort.Ints(tight)
			groups = append(groups, tight)
		}
		// Triangles: closed ones (every variable in two of the three
		// predicates) first, then those where n1 and n2 meet outside h.
		var closed, open [][]int
		for i := range nb {
			for j := i + 1; j < len(nb); j++ {
				g := []int{h, nb[i], nb[j]}
				switch {
				case closedTriple(b.preds[h], b.preds[nb[i]], b.preds[nb[j]]):
					closed = append(closed, g)
				case b.preds[nb[i]].sharesOutside(b.preds[nb[j]], hvars):
					open = append(open, g)
				}
			}
		}
		// Tighter triangles (fewer variables in all) first.
		width := func(g []int) int {
			vs := map[*ir.Var]bool{}
			for _, i := range g {
				for v := range b.preds[i].vars {
					vs[v] = true
				}
			}
			return len(vs)
		}
		for _, ts := range [][][]int{closed, open} {
			sort.SliceStable(ts, func(i, j int) bool { return width(ts[i]) < width(ts[j]) })
		}
		tris := append(closed, open...)
		for _, g := range tris[:min(len(tris), b.a.opt.MaxTriangles)] {
			sort.Ints(g)
			groups = append(groups, g)
		}
	}
	// Drop groups contained in one whose constraint is known: theirs is
	// implied.
	sort.SliceStable(groups, func(i, j int) bool { return len(groups[i]) > len(groups[j]) })
	var conj []boolprog.Expr
	var kept [][]int
	for _, g := range groups {
		if containedIn(g, kept) {
			continue
		}
		R := make([]*Predicate, len(g))
		for j, i := range g {
			R[j] = b.preds[i]
		}
		key := cacheKey("consistent", R)
		e, ok := b.a.consist[key]
		if ok {
			b.st.CacheHits++
		} else {
			var err error
			if e, err = b.a.consistent(R); err != nil {
				return nil, err
			}
			b.a.consist[key] = e
			b.st.Computed++
		}
		if e == nil {
			continue // gave up: the smaller groups inside still count
		}
		kept = append(kept, g)
		conj = append(conj, remap(e, g))
	}
	conj = append(conj, b.substitutions(hv, havoced)...)
	return boolprog.MkAnd(conj...), nil
}

// maxSubstitutions bounds the substitution clauses made for one havoced
// predicate.
const maxSubstitutions = 32

// substitutions returns the clauses e₁ ∧ … ∧ eₖ ⇒ (h ⇔ q) for each havoced
// predicate h, where each eᵢ is an equality predicate that defines a
// havoced variable xᵢ of h as a term tᵢ free of havoced variables, and
// h[t₁/x₁, …] has the canonical form of the predicate q (or of ¬q). They
// hold in every state, with no solver query: they follow from the
// substitution. They carry the facts about a row read into a row symbol
// over to the rows it may alias, which the consistency groups, bounded
// in size, may miss.
func (b *builder) substitutions(hv []int, havoced map[*ir.Var]bool) []boolprog.Expr {
	type def struct {
		pred int
		term ir.Expr
	}
	defs := map[*ir.Var][]def{}
	for i, q := range b.preds {
		if bin, ok := q.Expr.(*ir.Binary); !ok || bin.Op != ir.OpEq {
			continue
		}
		for v := range q.vars {
			if !havoced[v] {
				continue
			}
			if t, ok := Solve(q.Expr, v); ok && !ir.Mentions(t, havoced) {
				defs[v] = append(defs[v], def{i, t})
			}
		}
	}
	var out []boolprog.Expr
	for _, h := range hv {
		var xs []*ir.Var
		for v := range b.preds[h].vars {
			if len(defs[v]) > 0 {
				xs = append(xs, v)
			}
		}
		if len(xs) == 0 {
			continue
		}
		sort.Slice(xs, func(i, j int) bool { return xs[i].Name < xs[j].Name })
		// Enumerate the choices (keep x, or one of its definitions) as a
		// mixed-radix counter, skipping "keep every x".
		choice := make([]int, len(xs))
		made := 0
		for made < maxSubstitutions {
			k := 0
			for k < len(xs) {
				choice[k]++
				if choice[k] <= len(defs[xs[k]]) {
					break
				}
				choice[k] = 0
				k++
			}
			if k == len(xs) {
				break
			}
			m := map[*ir.Var]ir.Expr{}
			var lits []boolprog.Expr
			for i, x := range xs {
				if c := choice[i]; c > 0 {
					d := defs[x][c-1]
					if d.pred == h {
						m = nil
						break
					}
					m[x] = d.term
					lits = append(lits, boolprog.MkNot(boolprog.Var(d.pred)))
				}
			}
			if m == nil {
				continue
			}
			pos, neg := Canonical(ir.Substitute(b.preds[h].Expr, m))
			q, ok := b.index[pos.String()]
			if !ok || q == h {
				continue
			}
			var qv boolprog.Expr = boolprog.Var(q)
			if neg {
				qv = boolprog.MkNot(qv)
			}
			hv := boolprog.Var(h)
			out = append(out,
				boolprog.MkOr(append(append([]boolprog.Expr(nil), lits...), boolprog.MkNot(hv), qv)...),
				boolprog.MkOr(append(append([]boolprog.Expr(nil), lits...), hv, negate(qv))...))
			made++
		}
	}
	return out
}

// closedTriple reports whether every variable of the three predicates
// occurs in at least two of them.
func closedTriple(a, b, c *Predicate) bool {
	for _, p := range []*Predicate{a, b, c} {
		for v := range p.vars {
			n := 0
			for _, q := range []*Predicate{a, b, c} {
				if q.vars[v] {
					n++
				}
			}
			if n < 2 {
				return false
			}
		}
	}
	return true
}

// containedIn reports whether the sorted set g is a subset of one of gs.
func containedIn(g []int, gs [][]int) bool {
	for _, h := range gs {
		i := 0
		for _, x := range h {
			if i < len(g) && g[i] == x {
				i++
			}
		}
		if i == len(g) {
			return true
		}
	}
	return false
}

// Label is the text of an abstracted statement for a boolprog edge: the
// statement and its source position.
func Label(s ir.Stmt) string {
	text := s.String()
	if pos := s.Source().Position(); pos != "" {
		text += " (" + pos + ")"
	}
	return text
}
