package sqlparse

import (
	"math/big"
	"strings"

	"github.com/dbverify/dbverify/sqlir"
)

// rewrite rebuilds e bottom-up, applying f to every node after its
// children have been rewritten. f returns its argument to keep a node.
// The input is never modified.
func rewrite(e sqlir.Expr, f func(sqlir.Expr) sqlir.Expr) sqlir.Expr {
	if e == nil {
		return nil
	}
	var out sqlir.Expr
	switch x := e.(type) {
	case *sqlir.ColRef:
		c := *x
		out = &c
	case *sqlir.Param:
		p := *x
		out = &p
	case *sqlir.Num:
		n := &sqlir.Num{IsInt: x.IsInt}
		if x.Val != nil {
			n.Val = new(big.Rat).Set(x.Val)
		}
		out = n
	case *sqlir.Str:
		s := *x
		out = &s
	case *sqlir.BoolLit:
		b := *x
		out = &b
	case *sqlir.Null:
		out = &sqlir.Null{}
	case *sqlir.Binary:
		out = &sqlir.Binary{Op: x.Op, X: rewrite(x.X, f), Y: rewrite(x.Y, f)}
	case *sqlir.Unary:
		out = &sqlir.Unary{Op: x.Op, X: rewrite(x.X, f)}
	case *sqlir.IsNull:
		out = &sqlir.IsNull{X: rewrite(x.X, f), Not: x.Not}
	case *sqlir.Case:
		c := &sqlir.Case{Else: rewrite(x.Else, f)}
		for _, w := range x.Whens {
			c.Whens = append(c.Whens, sqlir.When{Cond: rewrite(w.Cond, f), Val: rewrite(w.Val, f)})
		}
		out = c
	case *sqlir.Unknown:
		u := &sqlir.Unknown{Text: x.Text}
		if x.Params != nil {
			u.Params = append([]int(nil), x.Params...)
		}
		out = u
	default:
		return e
	}
	return f(out)
}

// clone returns a deep copy of e.
func clone(e sqlir.Expr) sqlir.Expr {
	return rewrite(e, func(x sqlir.Expr) sqlir.Expr { return x })
}

// visit calls f on every node of e in pre-order.
func visit(e sqlir.Expr, f func(sqlir.Expr)) {
	if e == nil {
		return
	}
	f(e)
	switch x := e.(type) {
	case *sqlir.Binary:
		visit(x.X, f)
		visit(x.Y, f)
	case *sqlir.Unary:
		visit(x.X, f)
	case *sqlir.IsNull:
		visit(x.X, f)
	case *sqlir.Case:
		for _, w := range x.Whens {
			visit(w.Cond, f)
			visit(w.Val, f)
		}
		visit(x.Else, f)
	}
}

// and conjoins a and b; a nil operand is "true".
func and(a, b sqlir.Expr) sqlir.Expr {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return &sqlir.Binary{Op: "AND", X: a, Y: b}
}

// or disjoins a and b; a nil operand is "false".
func or(a, b sqlir.Expr) sqlir.Expr {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return &sqlir.Binary{Op: "OR", X: a, Y: b}
}

func not(x sqlir.Expr) sqlir.Expr { return &sqlir.Unary{Op: "NOT", X: x} }

func boolLit(v bool) sqlir.Expr { return &sqlir.BoolLit{Val: v} }

// paramsOf returns the distinct placeholder indexes in e (including those
// recorded in Unknown nodes), in order of appearance.
func paramsOf(e sqlir.Expr) []int {
	var out []int
	seen := map[int]bool{}
	add := func(i int) {
		if !seen[i] {
			seen[i] = true
			out = append(out, i)
		}
	}
	visit(e, func(x sqlir.Expr) {
		switch x := x.(type) {
		case *sqlir.Param:
			add(x.Index)
		case *sqlir.Unknown:
			for _, p := range x.Params {
				add(p)
			}
		}
	})
	return out
}

// substCols replaces column references to table (or unqualified ones)
// whose lower-cased name is a key of vals by a copy of the value.
func substCols(e sqlir.Expr, table string, vals map[string]sqlir.Expr) sqlir.Expr {
	if len(vals) == 0 {
		return e
	}
	return rewrite(e, func(x sqlir.Expr) sqlir.Expr {
		c, ok := x.(*sqlir.ColRef)
		if !ok || (c.Table != "" && !strings.EqualFold(c.Table, table)) {
			return x
		}
		if v, ok := vals[strings.ToLower(c.Name)]; ok {
			return clone(v)
		}
		return x
	})
}
