package ir

// PropagateCopies rewrites p so that a value copied from one variable to
// another keeps one name: after x := y, until x or y is assigned again on
// every path, the conditions and right-hand sides that read x read y
// instead. The copies themselves stay (the trace still shows x's value),
// but no formula or predicate is stated over x while it merely repeats y,
// so the engines do not learn the same fact under several names.
//
// It is a must-analysis of available copies (a copy is available at a
// location if it holds on every path there), so it never changes which
// executions reach which locations, nor any value: the rewritten program
// has the same executions, statement for statement. Variables with Approx
// set are left alone (their reads must stay visible). Statements other
// than Assign, Assume and Havoc end every copy and are not rewritten.
//
// p is rewritten in place (the edges get new statements; the old ones,
// which other programs may share, are not modified). It returns the number
// of statements rewritten.
func PropagateCopies(p *Program) int {
	facts := availableCopies(p)
	n := 0
	for _, e := range p.Edges {
		f := facts[e.From]
		if len(f) == 0 {
			continue
		}
		switch s := e.Stmt.(type) {
		case *Assign:
			rhs := make([]Expr, len(s.Rhs))
			changed := false
			for i, r := range s.Rhs {
				rhs[i] = Substitute(r, f)
				changed = changed || rhs[i] != r
			}
			if changed {
				e.Stmt = &Assign{Lhs: s.Lhs, Rhs: rhs, Info: s.Info}
				n++
			}
		case *Assume:
			if c := Substitute(s.Cond, f); c != s.Cond {
				e.Stmt = &Assume{Cond: c, Info: s.Info}
				n++
			}
		}
	}
	return n
}

// copies maps a variable to the variable whose value it holds. No value
// is also a key: the value is always the oldest name.
type copies map[*Var]Expr

// availableCopies computes, for every location, the copies that hold on
// every path from Entry to it (nil: unreachable).
func availableCopies(p *Program) []copies {
	in := make([]copies, p.NumLocs)
	in[p.Entry] = copies{}
	work := []Loc{p.Entry}
	queued := make([]bool, p.NumLocs)
	queued[p.Entry] = true
	for len(work) > 0 {
		l := work[0]
		work = work[1:]
		queued[l] = false
		for _, e := range p.Out[l] {
			out := transferCopies(in[l], e.Stmt)
			next, changed := meetCopies(in[e.To], out)
			if !changed {
				continue
			}
			in[e.To] = next
			if !queued[e.To] {
				queued[e.To] = true
				work = append(work, e.To)
			}
		}
	}
	return in
}

// meetCopies intersects the copies known at a location (old, nil if not
// reached yet) with those arriving (c); changed reports a new fact set.
func meetCopies(old, c copies) (copies, bool) {
	if old == nil {
		return c, true
	}
	changed := false
	next := copies{}
	for k, v := range old {
		if w, ok := c[k]; ok && w == v {
			next[k] = v
		} else {
			changed = true
		}
	}
	return next, changed
}

// transferCopies returns the copies after s, given those before it.
func transferCopies(before copies, s Stmt) copies {
	out := copies{}
	switch s := s.(type) {
	case *Assume:
		for k, v := range before {
			out[k] = v
		}
	case *Havoc:
		for k, v := range before {
			out[k] = v
		}
		for _, v := range s.Vars {
			killCopies(out, v)
		}
	case *Assign:
		for k, v := range before {
			out[k] = v
		}
		// A parallel assignment: every right-hand side reads the values
		// before it, so the new copies are computed first.
		type newCopy struct{ x, y *Var }
		var add []newCopy
		assigned := map[*Var]bool{}
		for _, x := range s.Lhs {
			assigned[x] = true
		}
		for i, x := range s.Lhs {
			y, ok := Substitute(s.Rhs[i], before).(*Var)
			if !ok || y == x || assigned[y] || x.Approx != "" || y.Approx != "" || x.Type != y.Type {
				continue
			}
			add = append(add, newCopy{x, y})
		}
		for _, x := range s.Lhs {
			killCopies(out, x)
		}
		for _, c := range add {
			out[c.x] = c.y
		}
	default:
		// Exec, Select, TxOp (not in a lowered program): forget everything.
	}
	return out
}

// killCopies drops every copy that mentions v, which is assigned.
func killCopies(c copies, v *Var) {
	delete(c, v)
	for k, w := range c {
		if w == v {
			delete(c, k)
		}
	}
}
