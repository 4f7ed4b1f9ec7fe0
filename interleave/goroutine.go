package interleave

import "github.com/dbverify/dbverify/ir"

// Goroutines translated at their go statement (ir.Goroutine): the
// program runs the goroutine first, then the rest of the entry. That is
// the verdict of every interleaving of the two where no operation of the
// goroutine conflicts with one of the rest that may run while it runs:
// independent adjacent operations of two threads commute (they reach the
// same state with the same results), so every interleaving is
// equivalent to the one with the goroutine's operations first.
//
// Two database operations conflict where they would not commute between
// two requests (footprint.go: one writes or locks a cell the other
// reads, writes or locks; a write to a table conflicts with every other
// write to it), with two changes for the threads of one request: BEGIN
// takes no snapshot that matters (a snapshot decides only what later
// reads of the transaction see, and those are compared themselves), and
// COMMIT and ROLLBACK publish or undo the writes and locks of their own
// transaction only. Operations of the two on one transaction or
// connection always conflict (their order inside it matters, and
// database/sql's Tx is not for concurrent use). Two Go statements
// conflict where one assigns a variable of the program (a memory cell,
// a value the other reads) that the other reads or assigns. When the
// goroutine may start again while it runs (a go statement in a loop),
// its operations are compared with themselves too, and its writes of a
// variable that code outside it touches conflict.

// Conflict is a pair of operations that may not commute: Goroutine's
// (an edge of the goroutine) and Other's (an edge of the rest of the
// program, or of the goroutine started again). Var is the variable both
// touch, for a conflict of two Go statements (nil: database operations).
type Conflict struct {
	Goroutine, Other *ir.Edge
	Var              *ir.Var
}

// GoroutineConflict returns a conflict between goroutine g of p and the
// rest of p that may run while it runs (ir.Program.Rest), or nil when
// every interleaving is equivalent to the program's order. related maps
// a table to the tables a write to it may also touch (foreign keys).
func GoroutineConflict(p *ir.Program, g *ir.Goroutine, related func(string) []string) *Conflict {
	rest, again := p.Rest(g)
	gf := newGoFootprints(p, related)
	if c := opsConflict(gf, dbOps(g.Edges), dbOps(rest)); c != nil {
		return c
	}
	// (The fence runs at the go statement, before anything that may run
	// concurrently with the goroutine.)
	fence := map[*ir.Edge]bool{}
	for _, e := range g.Fence {
		fence[e] = true
	}
	var body []*ir.Edge
	for _, e := range g.Edges {
		if !fence[e] {
			body = append(body, e)
		}
	}
	if c := varsConflict(body, rest); c != nil {
		return c
	}
	if !again {
		return nil
	}
	if c := opsConflict(gf, dbOps(g.Edges), dbOps(g.Edges)); c != nil {
		return c
	}
	return selfVarsConflict(p, g)
}

// dbOps returns the database operations among edges.
func dbOps(edges []*ir.Edge) []*ir.Edge {
	var out []*ir.Edge
	for _, e := range edges {
		if IsDBOp(e.Stmt) {
			out = append(out, e)
		}
	}
	return out
}

// goFootprints are the footprints of a program's operations for the
// threads of one request.
type goFootprints struct {
	fs    *footprints
	perTx map[ir.Tx]*footprint // what each transaction writes or locks
}

func newGoFootprints(p *ir.Program, related func(string) []string) *goFootprints {
	gf := &goFootprints{fs: newFootprints(p, related, false), perTx: map[ir.Tx]*footprint{}}
	for _, e := range p.Edges {
		if _, ok := e.Stmt.(*ir.TxOp); ok || !IsDBOp(e.Stmt) {
			continue
		}
		f := gf.fs.of(e.Stmt)
		tx := txOf(e.Stmt)
		pub := gf.perTx[tx]
		if pub == nil {
			pub = newFootprint()
			gf.perTx[tx] = pub
		}
		pub.all = pub.all || f.all
		pub.writes.merge(f.writes)
		pub.writes.merge(f.xlocks)
		pub.writes.merge(f.slocks)
	}
	return gf
}

// of returns the footprint of operation s.
func (gf *goFootprints) of(s ir.Stmt) *footprint {
	op, ok := s.(*ir.TxOp)
	if !ok {
		return gf.fs.of(s)
	}
	if op.Op == ir.Begin {
		return newFootprint()
	}
	if f := gf.perTx[op.Tx]; f != nil {
		return f
	}
	return newFootprint()
}

// txOf returns the transaction or connection an operation runs on (0:
// the pool).
func txOf(s ir.Stmt) ir.Tx {
	switch s := s.(type) {
	case *ir.Exec:
		return s.Tx
	case *ir.Select:
		return s.Tx
	case *ir.TxOp:
		return s.Tx
	}
	return 0
}

// opsConflict returns the first pair of database operations, one of as
// and one of bs, that may not commute.
func opsConflict(gf *goFootprints, as, bs []*ir.Edge) *Conflict {
	for _, a := range as {
		for _, b := range bs {
			ta, tb := txOf(a.Stmt), txOf(b.Stmt)
			if (ta != 0 && ta == tb) || dependent(gf.of(a.Stmt), gf.of(b.Stmt)) {
				return &Conflict{Goroutine: a, Other: b}
			}
		}
	}
	return nil
}

// memoryVar reports whether v is Go state of the program (not the row
// model's bookkeeping).
func memoryVar(v *ir.Var) bool { return v.Kind == ir.Local || v.Kind == ir.Input }

// varsConflict returns a variable one of gs assigns and one of rs reads
// or assigns, or the other way round.
func varsConflict(gs, rs []*ir.Edge) *Conflict {
	for _, g := range gs {
		gr, gw := map[*ir.Var]bool{}, map[*ir.Var]bool{}
		ir.Reads(g.Stmt, gr)
		ir.Writes(g.Stmt, gw)
		for _, r := range rs {
			rr, rw := map[*ir.Var]bool{}, map[*ir.Var]bool{}
			ir.Reads(r.Stmt, rr)
			ir.Writes(r.Stmt, rw)
			if v := common(gw, rr, rw); v != nil {
				return &Conflict{Goroutine: g, Other: r, Var: v}
			}
			if v := common(rw, gr); v != nil {
				return &Conflict{Goroutine: g, Other: r, Var: v}
			}
		}
	}
	return nil
}

// common returns a memory variable of w that is in one of sets.
func common(w map[*ir.Var]bool, sets ...map[*ir.Var]bool) *ir.Var {
	var found *ir.Var
	for v := range w {
		if !memoryVar(v) {
			continue
		}
		for _, s := range sets {
			if s[v] && (found == nil || v.Name < found.Name) {
				found = v
			}
		}
	}
	return found
}

// selfVarsConflict returns a variable goroutine g assigns that an edge
// outside g touches: two runs of g share it (the variables only g
// touches are its own locals, one per run).
func selfVarsConflict(p *ir.Program, g *ir.Goroutine) *Conflict {
	own := map[*ir.Edge]bool{}
	for _, e := range g.Edges {
		own[e] = true
	}
	outside := map[*ir.Var]bool{}
	var touched []*ir.Edge
	for _, e := range p.Edges {
		if own[e] {
			continue
		}
		n := len(outside)
		ir.Reads(e.Stmt, outside)
		ir.Writes(e.Stmt, outside)
		if len(outside) > n {
			touched = append(touched, e)
		}
	}
	for _, e := range g.Edges {
		w := map[*ir.Var]bool{}
		ir.Writes(e.Stmt, w)
		if v := common(w, outside); v != nil {
			for _, o := range touched {
				s := map[*ir.Var]bool{}
				ir.Reads(o.Stmt, s)
				ir.Writes(o.Stmt, s)
				if s[v] {
					return &Conflict{Goroutine: e, Other: o, Var: v}
				}
			}
			return &Conflict{Goroutine: e, Other: e, Var: v}
		}
	}
	return nil
}
