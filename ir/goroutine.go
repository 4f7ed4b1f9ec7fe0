package ir

// Goroutines translated in place.
//
// The frontend translates a goroutine (a go statement, errgroup's Go) as
// a call at its go statement, with an edge from every location of its
// body where a database operation starts, and from its end, to where
// the spawning code continues: the goroutine may stop there (block,
// loop or exit forever) while the rest of the entry runs on. That program
// is the goroutine run first, then the rest of the entry; a real run may
// interleave the two. Where no operation of the goroutine conflicts with
// one of the rest that may run while it runs (the same database cells,
// the same variables), every interleaving reaches the states of that
// order (independent operations commute), and the program's verdict is
// the verdict of every interleaving. Package interleave decides the
// conflicts (GoroutineConflict); a goroutine whose operations may not
// commute makes the entry UNKNOWN.

// Goroutine is a goroutine translated at its go statement.
type Goroutine struct {
	Name  string // the function it runs
	Info         // the go statement
	Start Loc    // where it starts
	Cont  Loc    // where the spawning code continues
	Edges []*Edge
	// Fence are the first of Edges: they copy the values the go
	// statement evaluates (its arguments, the variables it captures
	// that no one writes once it starts) into the goroutine's own
	// variables, at the go statement.
	Fence []*Edge
}

// Rest returns the edges of p that may run while g runs: every edge
// reachable from g's start that is not g's own, and whether g's own
// edges are reachable again from them (g is started again: a go
// statement in a loop).
func (p *Program) Rest(g *Goroutine) (rest []*Edge, again bool) {
	own := map[*Edge]bool{}
	for _, e := range g.Edges {
		own[e] = true
	}
	type state struct {
		l   Loc
		out bool // left g
	}
	seen := map[state]bool{{g.Start, false}: true}
	work := []state{{g.Start, false}}
	inRest := map[*Edge]bool{}
	for len(work) > 0 {
		s := work[len(work)-1]
		work = work[:len(work)-1]
		for _, e := range p.Out[s.l] {
			next := state{e.To, s.out}
			if own[e] {
				if s.out {
					again = true
				}
			} else {
				next.out = true
				if !inRest[e] {
					inRest[e] = true
					rest = append(rest, e)
				}
			}
			if !seen[next] {
				seen[next] = true
				work = append(work, next)
			}
		}
	}
	return rest, again
}

// Reads adds to set the variables statement s reads.
func Reads(s Stmt, set map[*Var]bool) {
	switch s := s.(type) {
	case *Assign:
		for _, e := range s.Rhs {
			CollectVars(e, set)
		}
	case *Assume:
		CollectVars(s.Cond, set)
	case *Exec:
		for _, e := range s.Args {
			if e != nil {
				CollectVars(e, set)
			}
		}
	case *Select:
		for _, e := range s.Args {
			if e != nil {
				CollectVars(e, set)
			}
		}
	}
}

// Writes adds to set the variables statement s assigns.
func Writes(s Stmt, set map[*Var]bool) {
	add := func(vs ...*Var) {
		for _, v := range vs {
			if v != nil {
				set[v] = true
			}
		}
	}
	switch s := s.(type) {
	case *Assign:
		add(s.Lhs...)
	case *Havoc:
		add(s.Vars...)
	case *Exec:
		add(s.Err, s.Affected, s.NoRow)
		add(s.Targets...)
	case *Select:
		add(s.Err)
		add(s.Targets...)
	case *TxOp:
		add(s.Err)
	}
}
