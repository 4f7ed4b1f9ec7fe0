package sqlir

// Rewrite returns e with every subexpression x replaced by f(x) when f
// reports a replacement; it rebuilds only what changes and never modifies e.
func Rewrite(e Expr, f func(Expr) (Expr, bool)) Expr {
	if e == nil {
		return nil
	}
	if r, ok := f(e); ok {
		return r
	}
	switch x := e.(type) {
	case *Binary:
		a, b := Rewrite(x.X, f), Rewrite(x.Y, f)
		if a != x.X || b != x.Y {
			return &Binary{Op: x.Op, X: a, Y: b}
		}
	case *Unary:
		if a := Rewrite(x.X, f); a != x.X {
			return &Unary{Op: x.Op, X: a}
		}
	case *IsNull:
		if a := Rewrite(x.X, f); a != x.X {
			return &IsNull{X: a, Not: x.Not}
		}
	case *Case:
		c := &Case{Else: Rewrite(x.Else, f)}
		changed := c.Else != x.Else
		for _, w := range x.Whens {
			nw := When{Cond: Rewrite(w.Cond, f), Val: Rewrite(w.Val, f)}
			changed = changed || nw.Cond != w.Cond || nw.Val != w.Val
			c.Whens = append(c.Whens, nw)
		}
		if changed {
			return c
		}
	}
	return e
}

// RewriteStatement returns a copy of s with Rewrite applied to every
// expression it holds.
func RewriteStatement(s Statement, f func(Expr) (Expr, bool)) Statement {
	items := func(its []SelectItem) []SelectItem {
		out := make([]SelectItem, len(its))
		for i, it := range its {
			out[i] = it
			out[i].Expr = Rewrite(it.Expr, f)
		}
		return out
	}
	sets := func(as []Assignment) []Assignment {
		out := make([]Assignment, len(as))
		for i, a := range as {
			out[i] = Assignment{Col: a.Col, Value: Rewrite(a.Value, f)}
		}
		return out
	}
	switch x := s.(type) {
	case *Update:
		c := *x
		c.Set, c.Where, c.Returning = sets(x.Set), Rewrite(x.Where, f), items(x.Returning)
		if x.Join != nil {
			c.Join = &JoinedUpdate{Table: x.Join.Table, Alias: x.Join.Alias, Where: Rewrite(x.Join.Where, f),
				TargetWhere: Rewrite(x.Join.TargetWhere, f), Set: sets(x.Join.Set)}
		}
		return &c
	case *Insert:
		c := *x
		c.Rows = make([][]Expr, len(x.Rows))
		for i, row := range x.Rows {
			c.Rows[i] = make([]Expr, len(row))
			for j, v := range row {
				c.Rows[i][j] = Rewrite(v, f)
			}
		}
		c.OnConflict, c.Returning = sets(x.OnConflict), items(x.Returning)
		if x.OnConflictRows != nil {
			c.OnConflictRows = make([][]Assignment, len(x.OnConflictRows))
			for i, set := range x.OnConflictRows {
				c.OnConflictRows[i] = sets(set)
			}
		}
		return &c
	case *Delete:
		c := *x
		c.Where, c.Returning = Rewrite(x.Where, f), items(x.Returning)
		return &c
	case *Select:
		c := *x
		c.Columns, c.Where = items(x.Columns), Rewrite(x.Where, f)
		if x.OrderBy != nil {
			c.OrderBy = make([]OrderTerm, len(x.OrderBy))
			for i, o := range x.OrderBy {
				c.OrderBy[i] = o
				c.OrderBy[i].Expr = Rewrite(o.Expr, f)
			}
		}
		return &c
	}
	return s
}

// HasUnknown reports whether e contains an expression the model does not
// evaluate (an Unknown: a subquery, an unknown function).
func HasUnknown(e Expr) bool {
	found := false
	Rewrite(e, func(x Expr) (Expr, bool) {
		if _, ok := x.(*Unknown); ok {
			found = true
		}
		return nil, false
	})
	return found
}
