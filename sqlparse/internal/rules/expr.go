package rules

import (
	"math/big"
	"strings"

	"github.com/dbverify/dbverify/sqlir"
)

// Map rebuilds e bottom-up, applying f to every node after its
// children have been rewritten. f returns its argument to keep a node.
// The input is never modified.
func Map(e sqlir.Expr, f func(sqlir.Expr) sqlir.Expr) sqlir.Expr {
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
		out = &sqlir.Binary{Op: x.Op, X: Map(x.X, f), Y: Map(x.Y, f)}
	case *sqlir.Unary:
		out = &sqlir.Unary{Op: x.Op, X: Map(x.X, f)}
	case *sqlir.IsNull:
		out = &sqlir.IsNull{X: Map(x.X, f), Not: x.Not}
	case *sqlir.Case:
		c := &sqlir.Case{Else: Map(x.Else, f)}
		for _, w := range x.Whens {
			c.Whens = append(c.Whens, sqlir.When{Cond: Map(w.Cond, f), Val: Map(w.Val, f)})
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

// Clone returns a deep copy of e.
func Clone(e sqlir.Expr) sqlir.Expr {
	return Map(e, func(x sqlir.Expr) sqlir.Expr { return x })
}

// Visit calls f on every node of e in pre-order.
func Visit(e sqlir.Expr, f func(sqlir.Expr)) {
	if e == nil {
		return
	}
	f(e)
	switch x := e.(type) {
	case *sqlir.Binary:
		Visit(x.X, f)
		Visit(x.Y, f)
	case *sqlir.Unary:
		Visit(x.X, f)
	case *sqlir.IsNull:
		Visit(x.X, f)
	case *sqlir.Case:
		for _, w := range x.Whens {
			Visit(w.Cond, f)
			Visit(w.Val, f)
		}
		Visit(x.Else, f)
	}
}

// And conjoins a and b; a nil operand is "true".
func And(a, b sqlir.Expr) sqlir.Expr {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return &sqlir.Binary{Op: sqlir.OpAnd, X: a, Y: b}
}

// Or disjoins a and b; a nil operand is "false".
func Or(a, b sqlir.Expr) sqlir.Expr {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return &sqlir.Binary{Op: sqlir.OpOr, X: a, Y: b}
}

// Not is NOT x.
func Not(x sqlir.Expr) sqlir.Expr { return &sqlir.Unary{Op: sqlir.OpNot, X: x} }

// Bool is the literal TRUE or FALSE.
func Bool(v bool) sqlir.Expr { return &sqlir.BoolLit{Val: v} }

// ParamsOf returns the distinct placeholder indexes in e (including those
// recorded in Unknown nodes), in order of appearance.
func ParamsOf(e sqlir.Expr) []int {
	var out []int
	seen := map[int]bool{}
	add := func(i int) {
		if !seen[i] {
			seen[i] = true
			out = append(out, i)
		}
	}
	Visit(e, func(x sqlir.Expr) {
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

// SubstCols replaces column references to table (or unqualified ones)
// whose lower-cased name is a key of vals by a copy of the value.
func SubstCols(e sqlir.Expr, table string, vals map[string]sqlir.Expr) sqlir.Expr {
	if len(vals) == 0 {
		return e
	}
	return Map(e, func(x sqlir.Expr) sqlir.Expr {
		c, ok := x.(*sqlir.ColRef)
		if !ok || (c.Table != "" && !strings.EqualFold(c.Table, table)) {
			return x
		}
		if v, ok := vals[strings.ToLower(c.Name)]; ok {
			return Clone(v)
		}
		return x
	})
}

// DedupeInts returns xs without repetitions, in order of first appearance.
func DedupeInts(xs []int) []int {
	var out []int
	seen := map[int]bool{}
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// ContainsFold reports whether list holds s, ignoring case.
func ContainsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// IsLiteral reports a literal number, string or boolean (never NULL).
func IsLiteral(e sqlir.Expr) bool {
	switch e.(type) {
	case *sqlir.Num, *sqlir.Str, *sqlir.BoolLit:
		return true
	}
	return false
}

// DedupeFold concatenates lists, dropping names already present (ignoring
// case).
func DedupeFold(lists ...[]string) []string {
	var out []string
	seen := map[string]bool{}
	for _, l := range lists {
		for _, s := range l {
			k := strings.ToLower(s)
			if !seen[k] {
				seen[k] = true
				out = append(out, s)
			}
		}
	}
	return out
}
