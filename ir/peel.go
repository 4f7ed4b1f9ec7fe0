package ir

import (
	"math/big"
	"slices"
)

// PeelCountedLoops unrolls the loops that run a known, small number of
// times into their iterations in sequence, so that the engines decide them
// without abstracting at a loop head (a retry loop `for attempt := 0;
// attempt < 3; attempt++`, a fixed batch of items, the generated programs
// of benchmarks/progen, whose nested constant loops ran out of abstract
// states).
//
// A loop is counted when its head tests an Int variable v against a
// literal (v < C, v <= C or v != C continues the loop), every path into
// the loop last sets v to a literal c0, and every path around the loop
// passes exactly one assignment of v, which sets it to v + 1 (directly or
// through one temporary set to v + 1 on every path before it). The loop
// then runs T = C − c0 (+1 for <=) times, T ≤ maxTrips: its body is copied
// T times, each copy's back edge entering the next, and the last one
// enters a copy of the head that keeps only the exit edge — where the
// continue condition is false, since v = c0 + T. The rewritten program has
// the same executions; the original loop, now unreachable, is removed.
//
// Loops are peeled innermost first, while the program stays under
// maxEdges edges. It returns the number of loops peeled.
func PeelCountedLoops(p *Program, maxTrips, maxEdges int) int {
	n := 0
	for {
		l := findCountedLoop(p, maxTrips, maxEdges)
		if l == nil {
			return n
		}
		peel(p, l)
		pruneUnreachable(p)
		n++
	}
}

// countedLoop is a loop PeelCountedLoops can unroll.
type countedLoop struct {
	head  Loc
	body  map[Loc]bool // the head included
	exit  *Edge        // the head's edge out of the loop
	trips int
}

// findCountedLoop returns an innermost counted loop whose peeling keeps p
// under maxEdges edges (nil: none).
func findCountedLoop(p *Program, maxTrips, maxEdges int) *countedLoop {
	in := incoming(p)
	heads, back := loopHeads(p)
	for _, h := range heads {
		body := loopBody(in, h, back[h])
		inner := false
		for _, o := range heads {
			if o != h && body[o] {
				inner = true
			}
		}
		if inner {
			continue
		}
		l := matchCounted(p, in, h, body, maxTrips)
		if l == nil {
			continue
		}
		size := 0
		for _, e := range p.Edges {
			if body[e.From] {
				size++
			}
		}
		if len(p.Edges)+size*l.trips > maxEdges {
			continue
		}
		return l
	}
	return nil
}

func incoming(p *Program) [][]*Edge {
	in := make([][]*Edge, p.NumLocs)
	for _, e := range p.Edges {
		in[e.To] = append(in[e.To], e)
	}
	return in
}

// loopHeads returns the targets of the back edges of a depth-first search
// from Entry, in order of discovery, and the back edges' sources by
// target.
func loopHeads(p *Program) ([]Loc, map[Loc][]Loc) {
	const (
		unseen = iota
		onStack
		done
	)
	state := make([]int, p.NumLocs)
	var heads []Loc
	back := map[Loc][]Loc{}
	type frame struct {
		l Loc
		i int
	}
	stack := []frame{{p.Entry, 0}}
	state[p.Entry] = onStack
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.i == len(p.Out[f.l]) {
			state[f.l] = done
			stack = stack[:len(stack)-1]
			continue
		}
		e := p.Out[f.l][f.i]
		f.i++
		switch state[e.To] {
		case unseen:
			state[e.To] = onStack
			stack = append(stack, frame{e.To, 0})
		case onStack:
			if back[e.To] == nil {
				heads = append(heads, e.To)
			}
			back[e.To] = append(back[e.To], f.l)
		}
	}
	return heads, back
}

// loopBody returns the natural loop of h: h and every location that
// reaches a back edge's source without passing h.
func loopBody(in [][]*Edge, h Loc, sources []Loc) map[Loc]bool {
	body := map[Loc]bool{h: true}
	var work []Loc
	for _, l := range sources {
		if !body[l] {
			body[l] = true
			work = append(work, l)
		}
	}
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		for _, e := range in[l] {
			if !body[e.From] {
				body[e.From] = true
				work = append(work, e.From)
			}
		}
	}
	return body
}

// matchCounted returns the loop at h if it is counted (see
// PeelCountedLoops).
func matchCounted(p *Program, in [][]*Edge, h Loc, body map[Loc]bool, maxTrips int) *countedLoop {
	out := p.Out[h]
	if len(out) != 2 {
		return nil
	}
	var cont, exit *Edge
	for _, e := range out {
		if body[e.To] {
			cont = e
		} else {
			exit = e
		}
	}
	if cont == nil || exit == nil {
		return nil
	}
	a, ok := cont.Stmt.(*Assume)
	if !ok {
		return nil
	}
	if _, ok := exit.Stmt.(*Assume); !ok {
		return nil
	}
	v, op, c, ok := varVsLiteral(a.Cond)
	if !ok {
		return nil
	}
	inc := incrementEdge(p, h, body, v)
	if inc == nil {
		return nil
	}
	c0, ok := entryValue(p, in, h, body, v)
	if !ok {
		return nil
	}
	var trips int64
	switch op {
	case OpLt, OpNe:
		trips = c - c0
	case OpLe:
		trips = c - c0 + 1
	default:
		return nil
	}
	if trips < 1 || trips > int64(maxTrips) {
		return nil
	}
	return &countedLoop{head: h, body: body, exit: exit, trips: int(trips)}
}

// varVsLiteral matches v op c with v an Int variable and c a literal
// that fits an int64 (c op v is turned around).
func varVsLiteral(e Expr) (v *Var, op Op, c int64, ok bool) {
	b, isBin := e.(*Binary)
	if !isBin || !b.Op.IsComparison() {
		return nil, 0, 0, false
	}
	x, y, op := b.X, b.Y, b.Op
	if _, isVar := y.(*Var); isVar {
		x, y = y, x
		switch op {
		case OpLt:
			op = OpGt
		case OpLe:
			op = OpGe
		case OpGt:
			op = OpLt
		case OpGe:
			op = OpLe
		}
	}
	v, isVar := x.(*Var)
	lit, isLit := y.(*IntConst)
	if !isVar || !isLit || v.Type != Int || !lit.V.IsInt64() {
		return nil, 0, 0, false
	}
	return v, op, lit.V.Int64(), true
}

// assigns returns the right-hand side an edge's statement gives v: nil
// when it does not write v; ok is false when it writes v in another way
// (a havoc).
func assigns(e *Edge, v *Var) (rhs Expr, ok bool) {
	switch s := e.Stmt.(type) {
	case *Assign:
		for i, l := range s.Lhs {
			if l == v && i < len(s.Rhs) {
				return s.Rhs[i], true
			}
		}
	case *Havoc:
		for _, l := range s.Vars {
			if l == v {
				return nil, false
			}
		}
	}
	return nil, true
}

// incrementEdge returns the one edge of the loop that writes v, if it sets
// v to v + 1 (or to a temporary set to v + 1 by one edge of the loop before
// it) and every path around the loop passes it (and the temporary's edge).
func incrementEdge(p *Program, h Loc, body map[Loc]bool, v *Var) *Edge {
	var inc *Edge
	for _, e := range p.Edges {
		if !body[e.From] || !body[e.To] && e.To != h {
			continue
		}
		rhs, ok := assigns(e, v)
		if !ok {
			return nil
		}
		if rhs == nil {
			continue
		}
		if inc != nil {
			return nil
		}
		inc = e
	}
	if inc == nil {
		return nil
	}
	rhs, _ := assigns(inc, v)
	if isPlusOne(rhs, v) {
		if !onEveryCycle(p, h, body, inc) {
			return nil
		}
		return inc
	}
	t, isVar := rhs.(*Var)
	if !isVar {
		return nil
	}
	var def *Edge
	for _, e := range p.Edges {
		if !body[e.From] {
			continue
		}
		r, ok := assigns(e, t)
		if !ok {
			return nil
		}
		if r == nil {
			continue
		}
		if def != nil || !isPlusOne(r, v) {
			return nil
		}
		def = e
	}
	if def == nil || !onEveryCycle(p, h, body, def) || !onEveryCycle(p, h, body, inc) || reachesAvoiding(p, h, body, inc.From, def) {
		return nil
	}
	return inc
}

func isPlusOne(e Expr, v *Var) bool {
	b, ok := e.(*Binary)
	if !ok || b.Op != OpAdd {
		return false
	}
	one := func(x Expr) bool {
		c, ok := x.(*IntConst)
		return ok && c.V.Cmp(big.NewInt(1)) == 0
	}
	return (b.X == v && one(b.Y)) || (b.Y == v && one(b.X))
}

// onEveryCycle reports whether every path from h back to h inside the loop
// passes edge x.
func onEveryCycle(p *Program, h Loc, body map[Loc]bool, x *Edge) bool {
	return !reachesAvoiding(p, h, body, h, x)
}

// reachesAvoiding reports whether a path of at least one edge from h to
// target, inside the loop, avoids edge x.
func reachesAvoiding(p *Program, h Loc, body map[Loc]bool, target Loc, x *Edge) bool {
	seen := map[Loc]bool{}
	work := []Loc{h}
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		for _, e := range p.Out[l] {
			if e == x || !body[e.To] {
				continue
			}
			if e.To == target {
				return true
			}
			if !seen[e.To] && e.To != h {
				seen[e.To] = true
				work = append(work, e.To)
			}
		}
	}
	return false
}

// entryValue returns the literal every path into the loop last gives v:
// walking back from each edge entering h from outside, through locations
// with one incoming edge, to the first edge that writes v.
func entryValue(p *Program, in [][]*Edge, h Loc, body map[Loc]bool, v *Var) (int64, bool) {
	var c0 int64
	found := false
	for _, e := range in[h] {
		if body[e.From] {
			continue
		}
		val, ok := lastLiteral(in, e, v)
		if !ok || (found && val != c0) {
			return 0, false
		}
		c0, found = val, true
	}
	return c0, found
}

func lastLiteral(in [][]*Edge, e *Edge, v *Var) (int64, bool) {
	for steps := 0; steps < 64; steps++ {
		rhs, ok := assigns(e, v)
		if !ok {
			return 0, false
		}
		if rhs != nil {
			c, isLit := rhs.(*IntConst)
			if !isLit || !c.V.IsInt64() {
				return 0, false
			}
			return c.V.Int64(), true
		}
		if len(in[e.From]) != 1 {
			return 0, false
		}
		e = in[e.From][0]
	}
	return 0, false
}

// peel unrolls l in place: T copies of its body in sequence, then a copy of
// the head with only the exit edge. The edges into the head from outside
// enter the first copy.
func peel(p *Program, l *countedLoop) {
	var loopEdges []*Edge
	for _, e := range p.Edges {
		if l.body[e.From] {
			loopEdges = append(loopEdges, e)
		}
	}
	// The copies' locations are numbered in the order of the body's (not
	// the map's), so that a program unrolls to the same one every run.
	body := make([]Loc, 0, len(l.body))
	for loc := range l.body {
		body = append(body, loc)
	}
	slices.Sort(body)
	heads := make([]Loc, l.trips+1)
	copies := make([]map[Loc]Loc, l.trips)
	for c := range copies {
		copies[c] = map[Loc]Loc{}
		for _, loc := range body {
			copies[c][loc] = p.NewLoc()
		}
		heads[c] = copies[c][l.head]
	}
	heads[l.trips] = p.NewLoc()
	for c, m := range copies {
		for _, e := range loopEdges {
			to, inside := m[e.To]
			switch {
			case e.To == l.head:
				to = heads[c+1]
			case !inside:
				to = e.To
			}
			p.AddEdge(m[e.From], to, e.Stmt)
		}
	}
	p.AddEdge(heads[l.trips], l.exit.To, l.exit.Stmt)
	// No copy enters l.head: only the edges from outside the loop do.
	for _, e := range p.Edges {
		if e.To == l.head && !l.body[e.From] {
			e.To = heads[0]
		}
	}
}

// pruneUnreachable removes the edges whose source Entry does not reach and
// numbers the edges again.
func pruneUnreachable(p *Program) {
	reach := make([]bool, p.NumLocs)
	reach[p.Entry] = true
	work := []Loc{p.Entry}
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		for _, e := range p.Out[l] {
			if !reach[e.To] {
				reach[e.To] = true
				work = append(work, e.To)
			}
		}
	}
	var kept []*Edge
	for l := range p.Out {
		if !reach[l] {
			p.Out[l] = nil
		}
	}
	for _, e := range p.Edges {
		if reach[e.From] {
			e.ID = len(kept)
			kept = append(kept, e)
		}
	}
	p.Edges = kept
}

// PeeledCopy returns p with its counted loops peeled (PeelCountedLoops),
// leaving p as it is: the copy has its own edges and locations and
// shares p's variables and statements. It returns p itself where no loop
// is peeled.
func PeeledCopy(p *Program, maxTrips, maxEdges int) *Program {
	q := *p
	q.Edges = make([]*Edge, 0, len(p.Edges))
	q.Out = make([][]*Edge, p.NumLocs)
	q.names = make(map[string]int, len(p.names))
	for k, v := range p.names {
		q.names[k] = v
	}
	for _, e := range p.Edges {
		q.AddEdge(e.From, e.To, e.Stmt)
	}
	if PeelCountedLoops(&q, maxTrips, maxEdges) == 0 {
		return p
	}
	return &q
}
