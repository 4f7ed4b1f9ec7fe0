package postgres

import (
	"math/big"
	"regexp"
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/internal/rules"
)

// Postgres expressions → sqlir.

func (t *translator) unknown(n *pg.Node) *sqlir.Unknown {
	t.collectReads(n)
	return &sqlir.Unknown{Text: pgDeparseExpr(t.version, n), Params: pgParamsIn(n)}
}

func (t *translator) expr(n *pg.Node) sqlir.Expr {
	if n == nil {
		return &sqlir.Null{}
	}
	switch x := n.Node.(type) {
	case *pg.Node_ColumnRef:
		return t.columnRef(x.ColumnRef, n)
	case *pg.Node_ParamRef:
		if x.ParamRef.Number >= 1 {
			return &sqlir.Param{Index: int(x.ParamRef.Number) - 1}
		}
	case *pg.Node_AConst:
		return t.constant(x.AConst, n)
	case *pg.Node_TypeCast:
		return t.cast(x.TypeCast, n)
	case *pg.Node_CollateClause:
		return t.expr(x.CollateClause.Arg)
	case *pg.Node_AExpr:
		return t.aExpr(x.AExpr, n)
	case *pg.Node_BoolExpr:
		return t.boolExpr(x.BoolExpr, n)
	case *pg.Node_NullTest:
		return t.nullTest(x.NullTest)
	case *pg.Node_BooleanTest:
		return t.booleanTest(x.BooleanTest, n)
	case *pg.Node_CaseExpr:
		return t.caseExpr(x.CaseExpr, n)
	case *pg.Node_CoalesceExpr:
		if r := rules.Coalesce(t.exprs(x.CoalesceExpr.Args)); r != nil {
			return r
		}
	case *pg.Node_MinMaxExpr:
		least := x.MinMaxExpr.Op == pg.MinMaxOp_IS_LEAST
		if r := rules.GreatestLeast(least, t.exprs(x.MinMaxExpr.Args), rules.IgnoreNulls); r != nil {
			return r
		}
	case *pg.Node_FuncCall:
		if r := t.function(x.FuncCall); r != nil {
			return r
		}
	}
	return t.unknown(n)
}

func (t *translator) exprs(ns []*pg.Node) []sqlir.Expr {
	out := make([]sqlir.Expr, len(ns))
	for i, n := range ns {
		out[i] = t.expr(n)
	}
	return out
}

func (t *translator) columnRef(c *pg.ColumnRef, n *pg.Node) sqlir.Expr {
	parts := make([]string, len(c.Fields))
	for i, f := range c.Fields {
		s := f.GetString_()
		if s == nil { // t.* or *
			return t.unknown(n)
		}
		parts[i] = s.Sval
	}
	k := len(parts)
	switch {
	case k == 1:
		return &sqlir.ColRef{Name: parts[0]}
	case k == 2 && t.inConflict && strings.EqualFold(parts[0], "excluded"):
		if v, ok := t.excluded[strings.ToLower(parts[1])]; ok {
			return rules.Clone(v)
		}
		return t.unknown(n) // a default value, or one of several rows
	case k >= 2 && k <= 4:
		return &sqlir.ColRef{Table: t.resolve(parts[k-2]), Name: parts[k-1]}
	}
	return t.unknown(n)
}

// pgDecimalRE matches a decimal literal (underscores removed).
var pgDecimalRE = regexp.MustCompile(`^([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$`)

// pgNumber parses a Postgres numeric literal or numeric input string
// (decimal, 0x/0o/0b, with optional sign and underscores) into a Num.
func pgNumber(s string) (*sqlir.Num, bool) {
	s = strings.TrimSpace(s)
	neg := false
	switch {
	case strings.HasPrefix(s, "-"):
		neg, s = true, s[1:]
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	}
	lower := strings.ToLower(strings.ReplaceAll(s, "_", ""))
	var r *big.Rat
	isInt := false
	switch {
	case len(lower) > 2 && (strings.HasPrefix(lower, "0x") || strings.HasPrefix(lower, "0o") || strings.HasPrefix(lower, "0b")):
		i, ok := new(big.Int).SetString(lower, 0)
		if !ok {
			return nil, false
		}
		r, isInt = new(big.Rat).SetInt(i), true
	case pgDecimalRE.MatchString(lower):
		v, ok := new(big.Rat).SetString(lower)
		if !ok {
			return nil, false
		}
		r, isInt = v, !strings.ContainsAny(lower, ".e")
	default:
		return nil, false
	}
	if neg {
		r.Neg(r)
	}
	return &sqlir.Num{Val: r, IsInt: isInt}, true
}

func (t *translator) constant(c *pg.A_Const, n *pg.Node) sqlir.Expr {
	if c.Isnull {
		return &sqlir.Null{}
	}
	switch v := c.Val.(type) {
	case *pg.A_Const_Ival:
		return &sqlir.Num{Val: big.NewRat(int64(v.Ival.GetIval()), 1), IsInt: true}
	case *pg.A_Const_Fval:
		if num, ok := pgNumber(v.Fval.GetFval()); ok {
			return num
		}
	case *pg.A_Const_Boolval:
		return rules.Bool(v.Boolval.GetBoolval())
	case *pg.A_Const_Sval:
		return &sqlir.Str{Val: v.Sval.GetSval()}
	}
	return t.unknown(n)
}

// Type categories of casts.
const (
	catOther = iota // dates, times, json, uuid, arrays, …: the value changes
	catInt
	catExact // numeric, decimal
	catFloat
	catText
	catBool
	catUser // a type outside pg_catalog (usually an enum or a domain)
)

// pgTypeCategory classifies a cast's type; typmod reports a length,
// precision or scale (varchar(3), numeric(10,2)), which may change values.
func pgTypeCategory(tn *pg.TypeName) (cat int, typmod bool) {
	if tn == nil || len(tn.ArrayBounds) > 0 || tn.Setof || tn.PctType {
		return catOther, false
	}
	typmod = len(tn.Typmods) > 0
	name, builtin := pgName(tn.Names)
	if !builtin {
		return catUser, typmod
	}
	switch name {
	case "int2", "int4", "int8", "smallint", "integer", "int", "bigint":
		return catInt, typmod
	case "numeric", "decimal":
		return catExact, typmod
	case "float4", "float8", "real", "float", "double precision":
		return catFloat, typmod
	case "text", "varchar", "bpchar", "char", "name", "citext", "character varying", "character":
		return catText, typmod
	case "bool", "boolean":
		return catBool, typmod
	case "date", "time", "timetz", "timestamp", "timestamptz", "interval", "uuid",
		"json", "jsonb", "jsonpath", "bytea", "money", "inet", "cidr", "macaddr",
		"macaddr8", "oid", "regclass", "regtype", "regproc", "regprocedure",
		"regoper", "regnamespace", "regrole", "xml", "tsvector", "tsquery",
		"point", "line", "lseg", "box", "path", "polygon", "circle", "bit",
		"varbit", "int4range", "int8range", "numrange", "tsrange", "tstzrange",
		"daterange", "int4multirange", "int8multirange", "nummultirange",
		"tsmultirange", "tstzmultirange", "datemultirange", "record", "void",
		"pg_lsn", "txid_snapshot", "pg_snapshot", "xid", "xid8", "cid", "tid",
		"anyelement", "anyarray", "unknown", "hstore", "ltree":
		return catOther, typmod
	}
	return catUser, typmod
}

// cast translates "x::type" / CAST(x AS type). A placeholder keeps its
// value (the driver binds the Go argument as that type; SQLite's numeric
// cast of a placeholder is 0 + ?, which converts a bound TEXT); a literal is
// converted when the conversion is exact ('5'::int is 5); other operands
// keep their value when cast to a numeric, text, boolean or user-defined
// type without a length/precision (the parser has no column types to tell
// a rounding integer cast apart). Anything else is Unknown.
func (t *translator) cast(c *pg.TypeCast, n *pg.Node) sqlir.Expr {
	cat, typmod := pgTypeCategory(c.TypeName)
	switch a := c.Arg.GetNode().(type) {
	case *pg.Node_ParamRef:
		if t.sqlite && (cat == catInt || cat == catExact || cat == catFloat) {
			// SQLite converts a bound TEXT to a number, as arithmetic
			// does: the result compares as a number, not as TEXT.
			return &sqlir.Binary{Op: sqlir.OpAdd, X: &sqlir.Num{Val: new(big.Rat), IsInt: true}, Y: t.expr(c.Arg)}
		}
		return t.expr(c.Arg)
	case *pg.Node_AConst:
		if r := castConst(a.AConst, cat, typmod); r != nil {
			return r
		}
		return t.unknown(n)
	}
	if !typmod {
		switch cat {
		case catInt, catExact, catFloat, catText, catBool, catUser:
			return t.expr(c.Arg)
		}
	}
	return t.unknown(n)
}

// castConst converts a literal to a type category; nil when the result
// is not exactly representable.
func castConst(c *pg.A_Const, cat int, typmod bool) sqlir.Expr {
	if c.Isnull {
		return &sqlir.Null{}
	}
	var num *sqlir.Num
	text, isText := "", false
	switch v := c.Val.(type) {
	case *pg.A_Const_Ival:
		num = &sqlir.Num{Val: big.NewRat(int64(v.Ival.GetIval()), 1), IsInt: true}
		text = strconv.Itoa(int(v.Ival.GetIval()))
	case *pg.A_Const_Fval:
		var ok bool
		if num, ok = pgNumber(v.Fval.GetFval()); !ok {
			return nil
		}
		text = v.Fval.GetFval()
	case *pg.A_Const_Boolval:
		switch {
		case cat == catBool:
			return rules.Bool(v.Boolval.GetBoolval())
		case cat == catInt && v.Boolval.GetBoolval():
			return &sqlir.Num{Val: big.NewRat(1, 1), IsInt: true}
		case cat == catInt:
			return &sqlir.Num{Val: new(big.Rat), IsInt: true}
		}
		return nil
	case *pg.A_Const_Sval:
		text, isText = v.Sval.GetSval(), true
		if cat == catInt || cat == catExact || cat == catFloat {
			var ok bool
			if num, ok = pgNumber(text); !ok {
				return nil
			}
		}
	default:
		return nil
	}
	if typmod {
		return nil
	}
	switch cat {
	case catInt:
		if num == nil || !num.Val.IsInt() {
			return nil // rounds
		}
		return &sqlir.Num{Val: num.Val, IsInt: true}
	case catExact, catFloat:
		if num == nil {
			return nil
		}
		return &sqlir.Num{Val: num.Val, IsInt: false}
	case catText:
		return &sqlir.Str{Val: text}
	case catBool:
		if !isText {
			return nil
		}
		if b, ok := pgBool(text); ok {
			return rules.Bool(b)
		}
	case catUser:
		if isText {
			return &sqlir.Str{Val: text}
		}
	}
	return nil
}

// pgBool parses a Postgres boolean input string ('t', 'yes', 'off', …).
func pgBool(s string) (val, ok bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return false, false
	}
	switch s[0] {
	case 't':
		return true, strings.HasPrefix("true", s)
	case 'y':
		return true, strings.HasPrefix("yes", s)
	case 'f':
		return false, strings.HasPrefix("false", s)
	case 'n':
		return false, strings.HasPrefix("no", s)
	case 'o':
		switch {
		case len(s) < 2:
			return false, false // "o" is on or off
		case strings.HasPrefix("on", s):
			return true, true
		case strings.HasPrefix("off", s):
			return false, true
		}
	case '1':
		return true, s == "1"
	case '0':
		return false, s == "0"
	}
	return false, false
}

// pgBinaryOp reports the arithmetic and comparison operators the IR models.
func pgBinaryOp(op string) (sqlir.Op, bool) {
	switch op {
	case "+":
		return sqlir.OpAdd, true
	case "-":
		return sqlir.OpSub, true
	case "*":
		return sqlir.OpMul, true
	case "/":
		return sqlir.OpDiv, true
	case "%":
		return sqlir.OpMod, true
	case "=":
		return sqlir.OpEq, true
	case "<":
		return sqlir.OpLt, true
	case "<=":
		return sqlir.OpLe, true
	case ">":
		return sqlir.OpGt, true
	case ">=":
		return sqlir.OpGe, true
	case "<>", "!=":
		return sqlir.OpNe, true
	}
	return sqlir.OpInvalid, false
}

// aExpr is an operator expression: x op y, op y, x op ANY/ALL (ARRAY[…]),
// IS [NOT] DISTINCT FROM, NULLIF, IN lists and BETWEEN [SYMMETRIC].
func (t *translator) aExpr(a *pg.A_Expr, n *pg.Node) sqlir.Expr {
	op, builtin := pgName(a.Name)
	if !builtin {
		return t.unknown(n)
	}
	var r sqlir.Expr
	switch a.Kind {
	case pg.A_Expr_Kind_AEXPR_OP:
		r = t.operator(op, a, n)
	case pg.A_Expr_Kind_AEXPR_OP_ANY, pg.A_Expr_Kind_AEXPR_OP_ALL:
		r = t.anyAll(op, a)
	case pg.A_Expr_Kind_AEXPR_DISTINCT, pg.A_Expr_Kind_AEXPR_NOT_DISTINCT:
		if a.Lexpr.GetRowExpr() != nil || a.Rexpr.GetRowExpr() != nil {
			break
		}
		r = distinct(t.expr(a.Lexpr), t.expr(a.Rexpr))
		if a.Kind == pg.A_Expr_Kind_AEXPR_NOT_DISTINCT {
			r = rules.Not(r)
		}
	case pg.A_Expr_Kind_AEXPR_NULLIF:
		r = rules.NullIf(t.expr(a.Lexpr), t.expr(a.Rexpr))
	case pg.A_Expr_Kind_AEXPR_IN:
		r = t.inList(op, a, n)
	case pg.A_Expr_Kind_AEXPR_BETWEEN, pg.A_Expr_Kind_AEXPR_NOT_BETWEEN,
		pg.A_Expr_Kind_AEXPR_BETWEEN_SYM, pg.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM:
		r = t.between(a)
	}
	if r == nil {
		// LIKE, ILIKE, SIMILAR TO, other operators (~, ||, @>, …).
		return t.unknown(n)
	}
	return r
}

// operator is "op y" or "x op y"; nil when the IR does not model it.
func (t *translator) operator(op string, a *pg.A_Expr, n *pg.Node) sqlir.Expr {
	switch {
	case a.Lexpr == nil && a.Rexpr != nil && op == "-":
		v := t.expr(a.Rexpr)
		if num, ok := v.(*sqlir.Num); ok {
			return &sqlir.Num{Val: new(big.Rat).Neg(num.Val), IsInt: num.IsInt}
		}
		return &sqlir.Unary{Op: sqlir.OpNeg, X: v}
	case a.Lexpr == nil && a.Rexpr != nil && op == "+":
		return t.expr(a.Rexpr)
	case a.Lexpr == nil || a.Rexpr == nil:
		return nil
	}
	bop, ok := pgBinaryOp(op)
	if !ok {
		return nil
	}
	lrow, rrow := a.Lexpr.GetRowExpr() != nil, a.Rexpr.GetRowExpr() != nil
	switch {
	case bop == sqlir.OpEq && (lrow || rrow):
		return t.equal(a.Lexpr, a.Rexpr, n)
	case bop == sqlir.OpNe && (lrow || rrow):
		return rules.Not(t.equal(a.Lexpr, a.Rexpr, n))
	case lrow || rrow:
		return nil
	}
	return &sqlir.Binary{Op: bop, X: t.expr(a.Lexpr), Y: t.expr(a.Rexpr)}
}

// anyAll is "x op ANY (ARRAY[a, b])", which is x op a OR x op b (ALL: AND);
// nil for other forms.
func (t *translator) anyAll(op string, a *pg.A_Expr) sqlir.Expr {
	arr := a.Rexpr.GetAArrayExpr()
	bop, ok := pgBinaryOp(op)
	if arr == nil || len(arr.Elements) == 0 || !ok || !bop.IsComparison() || a.Lexpr.GetRowExpr() != nil {
		return nil
	}
	var out sqlir.Expr
	for _, el := range arr.Elements {
		if el.GetAArrayExpr() != nil || el.GetRowExpr() != nil {
			return nil
		}
		c := &sqlir.Binary{Op: bop, X: t.expr(a.Lexpr), Y: t.expr(el)}
		if a.Kind == pg.A_Expr_Kind_AEXPR_OP_ANY {
			out = rules.Or(out, c)
		} else {
			out = rules.And(out, c)
		}
	}
	return out
}

// inList is "x [NOT] IN (a, b, …)"; nil for other forms.
func (t *translator) inList(op string, a *pg.A_Expr, n *pg.Node) sqlir.Expr {
	list := a.Rexpr.GetList()
	if list == nil || len(list.Items) == 0 || (op != "=" && op != "<>") {
		return nil
	}
	var out sqlir.Expr
	for _, el := range list.Items {
		out = rules.Or(out, t.equal(a.Lexpr, el, n))
	}
	if op == "<>" {
		return rules.Not(out)
	}
	return out
}

// between is "x [NOT] BETWEEN [SYMMETRIC] lo AND hi"; nil for row values.
func (t *translator) between(a *pg.A_Expr) sqlir.Expr {
	list := a.Rexpr.GetList()
	if list == nil || len(list.Items) != 2 || a.Lexpr.GetRowExpr() != nil {
		return nil
	}
	lo, hi := list.Items[0], list.Items[1]
	r := rules.Between(t.expr(a.Lexpr), t.expr(lo), t.expr(hi))
	if a.Kind == pg.A_Expr_Kind_AEXPR_BETWEEN_SYM || a.Kind == pg.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM {
		r = rules.Or(r, rules.Between(t.expr(a.Lexpr), t.expr(hi), t.expr(lo)))
	}
	if a.Kind == pg.A_Expr_Kind_AEXPR_NOT_BETWEEN || a.Kind == pg.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM {
		return rules.Not(r)
	}
	return r
}

// distinct is "x IS DISTINCT FROM y" (never NULL).
func distinct(x, y sqlir.Expr) sqlir.Expr {
	literal := func(e sqlir.Expr) bool {
		switch e.(type) {
		case *sqlir.Num, *sqlir.Str, *sqlir.BoolLit:
			return true
		}
		return false
	}
	switch {
	case literal(x) && literal(y):
		return &sqlir.Binary{Op: sqlir.OpNe, X: x, Y: y}
	case literal(x):
		x, y = y, x
		fallthrough
	case literal(y):
		return &sqlir.Case{
			Whens: []sqlir.When{{Cond: &sqlir.IsNull{X: x}, Val: rules.Bool(true)}},
			Else:  &sqlir.Binary{Op: sqlir.OpNe, X: rules.Clone(x), Y: y},
		}
	}
	return &sqlir.Case{
		Whens: []sqlir.When{
			{Cond: &sqlir.IsNull{X: x}, Val: &sqlir.IsNull{X: y, Not: true}},
			{Cond: &sqlir.IsNull{X: rules.Clone(y)}, Val: rules.Bool(true)},
		},
		Else: &sqlir.Binary{Op: sqlir.OpNe, X: rules.Clone(x), Y: rules.Clone(y)},
	}
}

// equal is l = r, element-wise for row values.
func (t *translator) equal(l, r *pg.Node, whole *pg.Node) sqlir.Expr {
	lr, rr := l.GetRowExpr(), r.GetRowExpr()
	switch {
	case lr != nil && rr != nil && len(lr.Args) == len(rr.Args):
		var out sqlir.Expr
		for i := range lr.Args {
			out = rules.And(out, t.equal(lr.Args[i], rr.Args[i], whole))
		}
		return out
	case lr != nil || rr != nil:
		return t.unknown(whole)
	}
	return &sqlir.Binary{Op: sqlir.OpEq, X: t.expr(l), Y: t.expr(r)}
}

func (t *translator) boolExpr(b *pg.BoolExpr, n *pg.Node) sqlir.Expr {
	switch b.Boolop {
	case pg.BoolExprType_AND_EXPR, pg.BoolExprType_OR_EXPR:
		if len(b.Args) == 0 {
			break
		}
		op := sqlir.OpAnd
		if b.Boolop == pg.BoolExprType_OR_EXPR {
			op = sqlir.OpOr
		}
		out := t.expr(b.Args[0])
		for _, a := range b.Args[1:] {
			out = &sqlir.Binary{Op: op, X: out, Y: t.expr(a)}
		}
		return out
	case pg.BoolExprType_NOT_EXPR:
		if len(b.Args) == 1 {
			return rules.Not(t.expr(b.Args[0]))
		}
	}
	return t.unknown(n)
}

func (t *translator) nullTest(nt *pg.NullTest) sqlir.Expr {
	not := nt.Nulltesttype == pg.NullTestType_IS_NOT_NULL
	if row := nt.Arg.GetRowExpr(); row != nil && len(row.Args) > 0 {
		// A row IS NULL when every field is; IS NOT NULL when none is.
		var out sqlir.Expr
		for _, a := range row.Args {
			out = rules.And(out, &sqlir.IsNull{X: t.expr(a), Not: not})
		}
		return out
	}
	return &sqlir.IsNull{X: t.expr(nt.Arg), Not: not}
}

func (t *translator) booleanTest(b *pg.BooleanTest, n *pg.Node) sqlir.Expr {
	v := t.expr(b.Arg)
	switch b.Booltesttype {
	case pg.BoolTestType_IS_TRUE:
		return rules.TruthTest(v, true, false)
	case pg.BoolTestType_IS_NOT_TRUE:
		return rules.TruthTest(v, true, true)
	case pg.BoolTestType_IS_FALSE:
		return rules.TruthTest(v, false, false)
	case pg.BoolTestType_IS_NOT_FALSE:
		return rules.TruthTest(v, false, true)
	case pg.BoolTestType_IS_UNKNOWN:
		return &sqlir.IsNull{X: v}
	case pg.BoolTestType_IS_NOT_UNKNOWN:
		return &sqlir.IsNull{X: v, Not: true}
	}
	return t.unknown(n)
}

// function models the scalar functions that are plain conditionals; nil
// for everything else (which becomes Unknown).
func (t *translator) function(f *pg.FuncCall) sqlir.Expr {
	name, builtin := pgName(f.Funcname)
	if !builtin || f.Over != nil || f.AggStar || f.AggDistinct || f.AggFilter != nil ||
		len(f.AggOrder) > 0 || f.AggWithinGroup || f.FuncVariadic {
		return nil
	}
	for _, a := range f.Args {
		if a.GetNamedArgExpr() != nil {
			return nil
		}
	}
	if t.sqlite {
		if r := t.sqliteFunction(name, f); r != nil {
			return r
		}
	}
	switch name {
	case "abs":
		if len(f.Args) != 1 {
			return nil
		}
		return rules.Abs(t.expr(f.Args[0]))
	}
	return nil
}

// caseExpr is CASE [subject] WHEN … THEN … [ELSE …] END.
func (t *translator) caseExpr(c *pg.CaseExpr, n *pg.Node) sqlir.Expr {
	var subject, els sqlir.Expr
	if c.Arg != nil {
		subject = t.expr(c.Arg)
	}
	whens := make([]sqlir.When, len(c.Args))
	for i, w := range c.Args {
		cw := w.GetCaseWhen()
		if cw == nil {
			return t.unknown(n)
		}
		whens[i] = sqlir.When{Cond: t.expr(cw.Expr), Val: t.expr(cw.Result)}
	}
	if c.Defresult != nil {
		els = t.expr(c.Defresult)
	}
	return rules.SearchedCase(subject, whens, els)
}
