package mysql

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/xwb1989/sqlparser"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/internal/rules"
)

// Expressions.

// text renders n as SQL, printing placeholders as $1, $2, … (Index+1)
// like sqlparse.Format, so that Unknown texts and formatted expressions agree.
func (t *translator) text(n sqlparser.SQLNode) string {
	buf := sqlparser.NewTrackedBuffer(func(buf *sqlparser.TrackedBuffer, node sqlparser.SQLNode) {
		var arg string
		switch v := node.(type) {
		case *sqlparser.SQLVal:
			if v.Type == sqlparser.ValArg {
				arg = string(v.Val)
			}
		case sqlparser.ListArg:
			arg = string(v)
		}
		if i, ok := t.params[arg]; ok && arg != "" {
			fmt.Fprintf(buf, "$%d", i+1)
			return
		}
		node.Format(buf)
	})
	buf.Myprintf("%v", n)
	return buf.String()
}

// paramsIn returns the distinct parameter indexes inside n in order.
func (t *translator) paramsIn(n sqlparser.SQLNode) []int {
	var out []int
	seen := map[int]bool{}
	_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
		var arg string
		switch x := node.(type) {
		case *sqlparser.SQLVal:
			if x.Type == sqlparser.ValArg {
				arg = string(x.Val)
			}
		case sqlparser.ListArg:
			arg = string(x)
		}
		if i, ok := t.params[arg]; ok && arg != "" && !seen[i] {
			seen[i] = true
			out = append(out, i)
		}
		return true, nil
	}, n)
	return out
}

func (t *translator) unknown(n sqlparser.SQLNode) *sqlir.Unknown {
	t.collectReads(n)
	return &sqlir.Unknown{Text: t.text(n), Params: t.paramsIn(n)}
}

// compareOp maps sqlparser comparison operators to sqlir ones.
func compareOp(op string) (sqlir.Op, bool) {
	switch op {
	case sqlparser.EqualStr:
		return sqlir.OpEq, true
	case sqlparser.LessThanStr:
		return sqlir.OpLt, true
	case sqlparser.LessEqualStr:
		return sqlir.OpLe, true
	case sqlparser.GreaterThanStr:
		return sqlir.OpGt, true
	case sqlparser.GreaterEqualStr:
		return sqlir.OpGe, true
	case sqlparser.NotEqualStr:
		return sqlir.OpNe, true
	}
	return sqlir.OpInvalid, false
}

// arithOp maps sqlparser arithmetic operators to sqlir ones.
func arithOp(op string) (sqlir.Op, bool) {
	switch op {
	case sqlparser.PlusStr:
		return sqlir.OpAdd, true
	case sqlparser.MinusStr:
		return sqlir.OpSub, true
	case sqlparser.MultStr:
		return sqlir.OpMul, true
	case sqlparser.DivStr:
		return sqlir.OpDiv, true
	case sqlparser.ModStr:
		return sqlir.OpMod, true
	case sqlparser.IntDivStr:
		return sqlir.OpDivInt, true
	}
	return sqlir.OpInvalid, false
}

func (t *translator) expr(e sqlparser.Expr) sqlir.Expr {
	switch x := e.(type) {
	case *sqlparser.AndExpr:
		return &sqlir.Binary{Op: sqlir.OpAnd, X: t.expr(x.Left), Y: t.expr(x.Right)}
	case *sqlparser.OrExpr:
		return &sqlir.Binary{Op: sqlir.OpOr, X: t.expr(x.Left), Y: t.expr(x.Right)}
	case *sqlparser.NotExpr:
		return rules.Not(t.expr(x.Expr))
	case *sqlparser.ParenExpr:
		return t.expr(x.Expr)
	case *sqlparser.ComparisonExpr:
		return t.comparison(x)
	case *sqlparser.RangeCond:
		r := rules.Between(t.expr(x.Left), t.expr(x.From), t.expr(x.To))
		if x.Operator == sqlparser.NotBetweenStr {
			return rules.Not(r)
		}
		return r
	case *sqlparser.IsExpr:
		v := t.expr(x.Expr)
		switch x.Operator {
		case sqlparser.IsNullStr:
			return &sqlir.IsNull{X: v}
		case sqlparser.IsNotNullStr:
			return &sqlir.IsNull{X: v, Not: true}
		case sqlparser.IsTrueStr, sqlparser.IsNotTrueStr, sqlparser.IsFalseStr, sqlparser.IsNotFalseStr:
			want := x.Operator == sqlparser.IsTrueStr || x.Operator == sqlparser.IsNotTrueStr
			not := x.Operator == sqlparser.IsNotTrueStr || x.Operator == sqlparser.IsNotFalseStr
			return rules.TruthTest(v, want, not)
		}
		return t.unknown(x)
	case *sqlparser.SQLVal:
		return t.value(x)
	case *sqlparser.NullVal:
		return &sqlir.Null{}
	case sqlparser.BoolVal:
		return rules.Bool(bool(x))
	case *sqlparser.ColName:
		name := x.Name.String()
		if strings.HasPrefix(name, "@") || name == "*" { // variables; Name "*" means a star item
			return t.unknown(x)
		}
		return &sqlir.ColRef{Table: t.resolve(x.Qualifier.Name.String()), Name: name}
	case *sqlparser.BinaryExpr:
		if op, ok := arithOp(x.Operator); ok {
			return &sqlir.Binary{Op: op, X: t.expr(x.Left), Y: t.expr(x.Right)}
		}
		return t.unknown(x)
	case *sqlparser.UnaryExpr:
		switch x.Operator {
		case sqlparser.UMinusStr:
			v := t.expr(x.Expr)
			if n, ok := v.(*sqlir.Num); ok {
				return &sqlir.Num{Val: new(big.Rat).Neg(n.Val), IsInt: n.IsInt}
			}
			return &sqlir.Unary{Op: sqlir.OpNeg, X: v}
		case sqlparser.UPlusStr:
			return t.expr(x.Expr)
		case sqlparser.BangStr:
			return rules.Not(t.expr(x.Expr))
		}
		return t.unknown(x)
	case *sqlparser.CaseExpr:
		var subject, els sqlir.Expr
		if x.Expr != nil {
			subject = t.expr(x.Expr)
		}
		whens := make([]sqlir.When, len(x.Whens))
		for i, w := range x.Whens {
			whens[i] = sqlir.When{Cond: t.expr(w.Cond), Val: t.expr(w.Val)}
		}
		if x.Else != nil {
			els = t.expr(x.Else)
		}
		return rules.SearchedCase(subject, whens, els)
	case *sqlparser.FuncExpr:
		if r := t.function(x); r != nil {
			return r
		}
		return t.unknown(x)
	case *sqlparser.ValuesFuncExpr:
		if t.inOnDup && t.insertRow != nil {
			if v, ok := t.insertRow[strings.ToLower(x.Name.Name.String())]; ok {
				return rules.Clone(v)
			}
		}
		return t.unknown(x)
	}
	return t.unknown(e)
}

func (t *translator) value(v *sqlparser.SQLVal) sqlir.Expr {
	switch v.Type {
	case sqlparser.StrVal:
		return &sqlir.Str{Val: string(v.Val)}
	case sqlparser.IntVal, sqlparser.FloatVal, sqlparser.HexNum:
		r, ok := new(big.Rat).SetString(string(v.Val))
		if !ok {
			return t.unknown(v)
		}
		return &sqlir.Num{Val: r, IsInt: v.Type != sqlparser.FloatVal}
	case sqlparser.ValArg:
		if i, ok := t.params[string(v.Val)]; ok {
			return &sqlir.Param{Index: i}
		}
	}
	return t.unknown(v)
}

func (t *translator) comparison(c *sqlparser.ComparisonExpr) sqlir.Expr {
	switch c.Operator {
	case sqlparser.EqualStr:
		return t.equal(c.Left, c.Right, c)
	case sqlparser.NotEqualStr:
		if isTuple(c.Left) || isTuple(c.Right) {
			return rules.Not(t.equal(c.Left, c.Right, c))
		}
		return &sqlir.Binary{Op: sqlir.OpNe, X: t.expr(c.Left), Y: t.expr(c.Right)}
	case sqlparser.InStr, sqlparser.NotInStr:
		list, ok := c.Right.(sqlparser.ValTuple)
		if !ok || len(list) == 0 {
			return t.unknown(c)
		}
		var r sqlir.Expr
		for _, el := range list {
			r = rules.Or(r, t.equal(c.Left, el, c))
		}
		if c.Operator == sqlparser.NotInStr {
			return rules.Not(r)
		}
		return r
	}
	if op, ok := compareOp(c.Operator); ok {
		if isTuple(c.Left) || isTuple(c.Right) {
			return t.unknown(c)
		}
		return &sqlir.Binary{Op: op, X: t.expr(c.Left), Y: t.expr(c.Right)}
	}
	return t.unknown(c)
}

func isTuple(e sqlparser.Expr) bool {
	_, ok := e.(sqlparser.ValTuple)
	return ok
}

// equal is l = r, element-wise for row values.
func (t *translator) equal(l, r sqlparser.Expr, whole sqlparser.SQLNode) sqlir.Expr {
	lt, lok := l.(sqlparser.ValTuple)
	rt, rok := r.(sqlparser.ValTuple)
	switch {
	case lok && rok && len(lt) == len(rt):
		var out sqlir.Expr
		for i := range lt {
			out = rules.And(out, t.equal(lt[i], rt[i], whole))
		}
		return out
	case lok || rok:
		return t.unknown(whole)
	}
	return &sqlir.Binary{Op: sqlir.OpEq, X: t.expr(l), Y: t.expr(r)}
}

// function models the few scalar functions that are plain conditionals;
// it returns nil for everything else.
func (t *translator) function(f *sqlparser.FuncExpr) sqlir.Expr {
	if !f.Qualifier.IsEmpty() || f.Distinct {
		return nil
	}
	var args []sqlir.Expr
	for _, se := range f.Exprs {
		a, ok := se.(*sqlparser.AliasedExpr)
		if !ok || !a.As.IsEmpty() {
			return nil
		}
		args = append(args, t.expr(a.Expr))
	}
	n := len(args)
	switch name := f.Name.Lowered(); {
	case name == "coalesce" && n > 0, name == "ifnull" && n == 2:
		return rules.Coalesce(args)
	case name == "if" && n == 3:
		return rules.If(args[0], args[1], args[2])
	case name == "nullif" && n == 2:
		return rules.NullIf(args[0], args[1])
	case name == "abs" && n == 1:
		return rules.Abs(args[0])
	case (name == "greatest" || name == "least") && n >= 2:
		// MySQL: NULL if any argument is NULL.
		return rules.GreatestLeast(name == "least", args, rules.NullIfAnyNull)
	}
	return nil
}
