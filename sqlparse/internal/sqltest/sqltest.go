// Package sqltest holds what the parser tests of sqlparse and its adapter
// packages share: compact renderings of statements and schemas, and a
// structural comparison of expressions.
package sqltest

import (
	"fmt"
	"math/big"
	"sort"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/internal/rules"
)

// Describe renders a statement compactly for table-driven tests.
func Describe(st sqlir.Statement) string {
	var b strings.Builder
	assigns := func(set []sqlir.Assignment) string {
		var parts []string
		for _, a := range set {
			parts = append(parts, a.Col+" = "+rules.Format(a.Value))
		}
		return strings.Join(parts, ", ")
	}
	switch s := st.(type) {
	case *sqlir.Update:
		verb := "UPDATE"
		if s.Ignore {
			verb = "UPDATE IGNORE"
		}
		fmt.Fprintf(&b, "%s %s SET %s", verb, s.Table, assigns(s.Set))
		if s.Where != nil {
			fmt.Fprintf(&b, " WHERE %s", rules.Format(s.Where))
		}
		for i, o := range s.First {
			sep := ", "
			if i == 0 {
				sep = " FIRST BY "
			}
			b.WriteString(sep + rules.Format(o.Expr))
			if o.Desc {
				b.WriteString(" DESC")
			}
		}
	case *sqlir.Insert:
		b.WriteString("INSERT ")
		if s.Replace {
			b.WriteString("REPLACE ")
		}
		if s.OnConflictNothing {
			b.WriteString("IGNORE ")
		}
		b.WriteString(s.Table)
		if s.Columns != nil {
			fmt.Fprintf(&b, " (%s)", strings.Join(s.Columns, ", "))
		}
		if s.FromSelect {
			b.WriteString(" SELECT")
		}
		for i, row := range s.Rows {
			if i == 0 {
				b.WriteString(" VALUES ")
			} else {
				b.WriteString(", ")
			}
			var vs []string
			for _, v := range row {
				vs = append(vs, rules.Format(v))
			}
			fmt.Fprintf(&b, "(%s)", strings.Join(vs, ", "))
		}
		if s.HasOnConflict {
			fmt.Fprintf(&b, " ON DUP %s", assigns(s.OnConflict))
		}
	case *sqlir.Delete:
		fmt.Fprintf(&b, "DELETE %s", s.Table)
		if s.Where != nil {
			fmt.Fprintf(&b, " WHERE %s", rules.Format(s.Where))
		}
	case *sqlir.Select:
		var cols []string
		for _, c := range s.Columns {
			x := rules.Format(c.Expr)
			if c.Star {
				x = "STAR:" + x
			}
			if c.Alias != "" {
				x += " AS " + c.Alias
			}
			cols = append(cols, x)
		}
		fmt.Fprintf(&b, "SELECT %s FROM %s", strings.Join(cols, ", "), s.Table)
		if s.Where != nil {
			fmt.Fprintf(&b, " WHERE %s", rules.Format(s.Where))
		}
		if s.ForUpdate {
			b.WriteString(" FOR UPDATE")
		}
		if s.ForShare {
			b.WriteString(" FOR SHARE")
		}
		if s.Complex {
			fmt.Fprintf(&b, " COMPLEX(%s)", s.Reason)
		}
		if s.AllTables != nil {
			fmt.Fprintf(&b, " TABLES%v", s.AllTables)
		}
	case *sqlir.TxControl:
		fmt.Fprintf(&b, "TX %s", s.Kind)
		if s.Name != "" {
			fmt.Fprintf(&b, " %s", s.Name)
		}
	case *sqlir.Other:
		fmt.Fprintf(&b, "OTHER %s", s.Text)
	default:
		fmt.Fprintf(&b, "%T", st)
	}
	return b.String()
}

// DescribeSchema renders a schema with sorted tables.
func DescribeSchema(s *sqlir.Schema) string {
	var names []string
	for k := range s.Tables {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, k := range names {
		t := s.Tables[k]
		fmt.Fprintf(&b, "%s=%s(", k, t.Name)
		for i, c := range t.Columns {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s %s", c.Name, c.Type)
			if c.NotNull {
				b.WriteString(" NN")
			}
		}
		fmt.Fprintf(&b, ") keys%v", t.Keys)
		for _, c := range t.Checks {
			fmt.Fprintf(&b, " check[%s on %s: %s]", c.Name, c.Table, rules.Format(c.Expr))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// ExprEqual compares expressions structurally (numbers by value).
func ExprEqual(a, b sqlir.Expr) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case *sqlir.ColRef:
		y, ok := b.(*sqlir.ColRef)
		return ok && *x == *y
	case *sqlir.Param:
		y, ok := b.(*sqlir.Param)
		return ok && *x == *y
	case *sqlir.Num:
		y, ok := b.(*sqlir.Num)
		return ok && x.IsInt == y.IsInt && x.Val.Cmp(y.Val) == 0
	case *sqlir.Str:
		y, ok := b.(*sqlir.Str)
		return ok && *x == *y
	case *sqlir.BoolLit:
		y, ok := b.(*sqlir.BoolLit)
		return ok && *x == *y
	case *sqlir.Null:
		_, ok := b.(*sqlir.Null)
		return ok
	case *sqlir.Binary:
		y, ok := b.(*sqlir.Binary)
		return ok && x.Op == y.Op && ExprEqual(x.X, y.X) && ExprEqual(x.Y, y.Y)
	case *sqlir.Unary:
		y, ok := b.(*sqlir.Unary)
		return ok && x.Op == y.Op && ExprEqual(x.X, y.X)
	case *sqlir.IsNull:
		y, ok := b.(*sqlir.IsNull)
		return ok && x.Not == y.Not && ExprEqual(x.X, y.X)
	case *sqlir.Case:
		y, ok := b.(*sqlir.Case)
		if !ok || len(x.Whens) != len(y.Whens) || !ExprEqual(x.Else, y.Else) {
			return false
		}
		for i := range x.Whens {
			if !ExprEqual(x.Whens[i].Cond, y.Whens[i].Cond) || !ExprEqual(x.Whens[i].Val, y.Whens[i].Val) {
				return false
			}
		}
		return true
	case *sqlir.Unknown:
		y, ok := b.(*sqlir.Unknown)
		return ok && x.Text == y.Text && fmt.Sprint(x.Params) == fmt.Sprint(y.Params)
	}
	return false
}

// RatInt is n as a *big.Rat.
func RatInt(n int64) *big.Rat { return big.NewRat(n, 1) }

// CheckParams asserts every placeholder index in e is below n.
func CheckParams(t *testing.T, q string, e sqlir.Expr, n int) {
	t.Helper()
	for _, p := range rules.ParamsOf(e) {
		if p < 0 || p >= n {
			t.Fatalf("%q: parameter index %d out of range (NumParams %d)", q, p, n)
		}
	}
}
