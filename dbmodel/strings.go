package dbmodel

import (
	"fmt"
	"math/big"
	"regexp"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// Strings in SQL. A string is its code (ir.StringCode): equal strings have
// equal codes, the canonical decimal text of an integer ("25") is coded as
// the integer, and strings of one shape (dates, times in one format) are
// coded in their order. So:
//   - a string compared with or assigned to a number becomes the number
//     the engine converts it to when its text is known ('25', '2.5'); a
//     known text that is no number is an arbitrary, approximated value;
//   - two known texts compare exactly when every engine and collation
//     agrees (equal texts; the order of texts of one shape), otherwise the
//     result is an arbitrary, approximated truth value;
//   - other strings compare by their codes (an unknown string may be any
//     string, so any order of codes is some order of strings). Known texts
//     of different shapes that meet only through columns are ordered by
//     their codes, which may not be their order (a documented gap).

// valueKind is what the model knows of a SQL value's type.
type valueKind uint8

const (
	// kindAny: a number, or a string by its code (a Go value bound to a
	// placeholder, a column of unknown type).
	kindAny valueKind = iota
	// kindNum: a number (a numeric literal or column, arithmetic, a truth
	// value).
	kindNum
	// kindText: a string whose text is known (a literal, a Go string
	// constant bound to a placeholder).
	kindText
	// kindStr: a string whose text is not known (a text column).
	kindStr
)

// sqlValue is a lowered SQL value.
type sqlValue struct {
	e    ir.Expr
	kind valueKind
	text string    // kindText: the string
	col  bool      // a column of the row
	coll collClass // a column's collation
}

func (v sqlValue) isString() bool { return v.kind == kindText || v.kind == kindStr }

// columnKind classifies column col of table: by its declared type, else
// numeric when the constraint computes or orders with it.
func (m *lowerer) columnKind(table, col string) valueKind {
	if t := m.schemaTable(table); t != nil {
		for _, c := range t.Columns {
			if strings.EqualFold(c.Name, col) {
				if k, ok := typeKind(c.Type); ok {
					return k
				}
			}
		}
	}
	if t := m.model(table); t != nil && t.numCols[strings.ToLower(col)] {
		return kindNum
	}
	return kindAny
}

// typeKind classifies a declared column type.
func typeKind(t string) (valueKind, bool) {
	t = strings.ToLower(t)
	for _, k := range []string{"interval", "point", "year", "bit"} {
		if strings.Contains(t, k) {
			return kindAny, false
		}
	}
	for _, k := range []string{"char", "text", "clob", "date", "time", "enum", "uuid", "json", "blob", "binary", "bytea", "inet", "xml", "set("} {
		if strings.Contains(t, k) {
			return kindStr, true
		}
	}
	for _, k := range []string{"int", "decimal", "numeric", "real", "float", "double", "money", "serial", "bool"} {
		if strings.Contains(t, k) {
			return kindNum, true
		}
	}
	return kindAny, false
}

// numericColumns returns the columns of the constrained table that the
// constraint uses in arithmetic or compares with a number or arithmetic:
// numbers, whatever the schema says (or does not say). Two columns compared
// with each other may be strings (check_in < check_out).
func numericColumns(c sqlir.Expr) map[string]bool {
	out := map[string]bool{}
	var mark func(e sqlir.Expr)
	mark = func(e sqlir.Expr) {
		switch e := e.(type) {
		case *sqlir.ColRef:
			out[strings.ToLower(e.Name)] = true
		case *sqlir.Unary:
			mark(e.X)
		case *sqlir.Binary:
			mark(e.X)
			mark(e.Y)
		}
	}
	var walk func(e sqlir.Expr)
	walk = func(e sqlir.Expr) {
		switch e := e.(type) {
		case *sqlir.Binary:
			switch {
			case e.Op.IsArith():
				mark(e)
			case e.Op.IsComparison():
				if isNumeric(e.X) || isNumeric(e.Y) {
					mark(e)
				}
			default:
				walk(e.X)
				walk(e.Y)
			}
		case *sqlir.Unary:
			if e.Op == sqlir.OpNeg {
				mark(e.X)
			} else {
				walk(e.X)
			}
		case *sqlir.IsNull:
			walk(e.X)
		case *sqlir.Case:
			for _, w := range e.Whens {
				walk(w.Cond)
				walk(w.Val)
			}
			if e.Else != nil {
				walk(e.Else)
			}
		}
	}
	walk(c)
	return out
}

// numericTextRE matches the texts every engine converts to a number.
var numericTextRE = regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$`)

// numericText returns the number the engine converts text to, when it
// converts it exactly: MySQL and SQLite any decimal text (surrounding
// spaces allowed), Postgres an integer text, or a decimal one when the
// other operand (or the column) is a decimal (realOK); Postgres rejects a
// decimal text for an integer.
func (m *lowerer) numericText(text string, realOK bool) (ir.Expr, bool) {
	t := strings.TrimSpace(text)
	if !numericTextRE.MatchString(t) {
		return nil, false
	}
	r, ok := new(big.Rat).SetString(strings.TrimPrefix(t, "+"))
	if !ok {
		return nil, false
	}
	if r.IsInt() && !strings.ContainsAny(t, ".eE") {
		return ir.BigInt(r.Num()), true
	}
	if m.opt.Dialect == "postgres" && !realOK {
		return nil, false
	}
	return ir.RealLit(r), true
}

// toNum is v used as a number next to a value of sort other.
func (m *lowerer) toNum(v sqlValue, other ir.Sort) ir.Expr {
	switch v.kind {
	case kindText:
		if n, ok := m.numericText(v.text, other == ir.Real); ok {
			return n
		}
		return m.approxVar("$strnum", ir.Int, fmt.Sprintf("the number the string %q converts to", v.text))
	case kindStr:
		m.assumeCanonical()
	case kindAny:
		if isGoString(v) {
			return m.numNorm(v.e, other == ir.Int) // "01" is 1
		}
	case kindNum:
	}
	return asNum(v.e)
}

// assumeCanonical records the assumption under which a string column's
// code is its number.
func (m *lowerer) assumeCanonical() {
	m.assume("a string column used as a number holds the canonical decimal text of an integer (as its code)")
}

// assume records an assumption of the model (once).
func (m *lowerer) assume(text string) {
	for _, a := range m.res.Assumptions {
		if a == text {
			return
		}
	}
	m.res.Assumptions = append(m.res.Assumptions, text)
}

// approxVar is a fresh variable whose arbitrary value over-approximates
// what the engine computes: a counterexample that depends on it is not
// reported as certain.
func (m *lowerer) approxVar(name string, s ir.Sort, why string) *ir.Var {
	v := m.freshVar(name, s)
	if pos := m.at.Position(); pos != "" {
		why += " at " + pos
	}
	v.Approx = why + ", not modelled"
	return v
}

// compare is a op b (op a comparison: = <> < <= > >=).
func (m *lowerer) compare(op sqlir.Op, a, b sqlValue) ir.Expr {
	irop := map[sqlir.Op]ir.Op{sqlir.OpEq: ir.OpEq, sqlir.OpNe: ir.OpNe, sqlir.OpLt: ir.OpLt, sqlir.OpLe: ir.OpLe, sqlir.OpGt: ir.OpGt, sqlir.OpGe: ir.OpGe}[op]
	if r, ok := m.sqliteTextWithNumber(irop, op, a, b); ok {
		return r
	}
	switch {
	case !a.isString() && !b.isString():
		return m.collatedCmp(irop, op, a, b)
	case a.kind == kindText && b.kind == kindText:
		if r, ok := m.compareTexts(irop, a.text, b.text); ok {
			return ir.BoolConst(r)
		}
		return m.approxVar("$strcmp", ir.Bool, fmt.Sprintf("the comparison %s %s %s of two strings", describe(a), op, describe(b)))
	}
	// A string s and another value o (a string too, of unknown text, when
	// s is a known text).
	s, o := a, b
	if b.kind == kindText || !a.isString() {
		s, o = b, a
	}
	if o.kind == kindNum {
		switch {
		case s.kind == kindText && (m.opt.Dialect != "sqlite" || o.col):
			// MySQL compares as numbers; Postgres converts the literal (or
			// the text parameter) to the column's type; SQLite applies the
			// column's numeric affinity to the text.
			return cmp(irop, m.toNum(a, b.e.Sort()), m.toNum(b, a.e.Sort()))
		case s.kind == kindStr && m.opt.Dialect == "mysql":
			return cmp(irop, m.toNum(a, b.e.Sort()), m.toNum(b, a.e.Sort()))
		}
		return m.approxVar("$strcmp", ir.Bool, fmt.Sprintf("a comparison of a string with a number (%s %s %s)", describe(a), op, describe(b)))
	}
	if m.opt.Dialect == "mysql" && s.kind == kindStr && s.col && isGoNumber(o) {
		// MySQL compares a string column with a number as numbers:
		// '05' = 5 (a decimal variant with a leading zero is its
		// number). '5 ' = 5 too, but '5 ' and '5' are one key under
		// the column's PAD SPACE collation, which the model keeps only
		// where it folds the column: the forms with a leading zero stand
		// for the other spellings of a number.
		return cmp(irop, numberOf(s.e), o.e)
	}
	if s.kind == kindText {
		if _, canon := ir.CanonicalInt(s.text); !canon && numericTextRE.MatchString(strings.TrimSpace(s.text)) {
			// '5.0' or '007': equal to 5 as a number, not as a string.
			return m.approxVar("$strcmp", ir.Bool, fmt.Sprintf("a comparison with the numeric string %q (as a number or as a string)", s.text))
		}
	}
	return m.collatedCmp(irop, op, a, b)
}

// sqliteTextWithNumber is a op b on SQLite when one is a Go string (bound
// as TEXT) and the other a number without affinity (a literal,
// arithmetic, a truth value: no column). SQLite converts the text only
// for a column of numeric affinity (datatype3.html §4.2); otherwise it
// compares TEXT with a number, and TEXT sorts above every number: '-5' >
// 0 is true. Exact against a constant; another number may be NULL, which
// the comparison does not see, so the result is approximated. ok is
// false when the rule does not apply.
func (m *lowerer) sqliteTextWithNumber(irop ir.Op, op sqlir.Op, a, b sqlValue) (ir.Expr, bool) {
	if m.opt.Dialect != "sqlite" {
		return nil, false
	}
	textFirst := isGoString(a) && b.kind == kindNum && !b.col
	if !textFirst && !(isGoString(b) && a.kind == kindNum && !a.col) {
		return nil, false
	}
	num := b.e
	if !textFirst {
		num = a.e
	}
	switch num.(type) {
	case *ir.IntConst, *ir.RealConst:
	default:
		return m.approxVar("$strcmp", ir.Bool, fmt.Sprintf("a comparison of a text-bound Go string with a number (%s %s %s: TEXT sorts above every number on SQLite)", describe(a), op, describe(b))), true
	}
	// The text is the greater operand.
	var r bool
	switch irop {
	case ir.OpNe:
		r = true
	case ir.OpGt, ir.OpGe:
		r = textFirst
	case ir.OpLt, ir.OpLe:
		r = !textFirst
	}
	return ir.BoolConst(r), true
}

// collatedCmp is a op b as the engine compares them (collatedPair).
func (m *lowerer) collatedCmp(irop ir.Op, op sqlir.Op, a, b sqlValue) ir.Expr {
	ea, eb, ok := m.collatedPair(a, b)
	if !ok {
		return m.approxVar("$strcmp", ir.Bool, collationNote(a, b, op))
	}
	return cmp(irop, ea, eb)
}

// compareTexts decides op between two known strings when every engine and
// collation agrees: equality (MySQL's default collations ignore ASCII
// case; trailing spaces and other letters are left undecided there), and
// the order of two texts of the same shape (digits in the same places,
// the other bytes equal: dates, times, zero-padded numbers).
func (m *lowerer) compareTexts(op ir.Op, a, b string) (result, ok bool) {
	switch op {
	case ir.OpEq, ir.OpNe:
		eq := a == b
		if m.opt.Dialect == "mysql" {
			if !plainASCII(a) || !plainASCII(b) {
				return false, false
			}
			eq = strings.EqualFold(a, b)
		}
		return eq == (op == ir.OpEq), true
	}
	if !sameShape(a, b) {
		return false, false
	}
	c := strings.Compare(a, b)
	switch op {
	case ir.OpLt:
		return c < 0, true
	case ir.OpLe:
		return c <= 0, true
	case ir.OpGt:
		return c > 0, true
	}
	return c >= 0, true
}

// plainASCII reports ASCII text without trailing spaces.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return !strings.HasSuffix(s, " ")
}

// sameShape reports texts of equal length with digits in the same places
// and equal bytes elsewhere.
func sameShape(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	digit := func(c byte) bool { return '0' <= c && c <= '9' }
	for i := 0; i < len(a); i++ {
		if digit(a[i]) != digit(b[i]) || !digit(a[i]) && a[i] != b[i] {
			return false
		}
	}
	return true
}

// describe names a value in an approximation note.
func describe(v sqlValue) string {
	if v.kind == kindText {
		return "'" + v.text + "'"
	}
	if x, ok := v.e.(*ir.Var); ok && x.Col != "" {
		return x.Col // (a column read without affinity too)
	}
	return "a value"
}

// assigned is the value written into column col of table t: a known
// string, or a Go string, written into a numeric column is converted as
// the engine converts it.
func (m *lowerer) assigned(t *tableModel, col string, e sqlir.Expr, x *symbol, args []ir.Expr) ir.Expr {
	v := m.value(e, x, args)
	if v.kind == kindText && m.columnKind(t.name, col) == kindNum {
		return m.toNum(v, t.sorts[strings.ToLower(col)])
	}
	if isGoString(v) && m.columnKind(t.name, col) == kindNum {
		return m.numNorm(v.e, t.sorts[strings.ToLower(col)] == ir.Int) // "01" stores 1
	}
	return v.e
}

// isNumeric reports a numeric literal or arithmetic.
func isNumeric(e sqlir.Expr) bool {
	switch e := e.(type) {
	case *sqlir.Num:
		return true
	case *sqlir.Unary:
		return e.Op == sqlir.OpNeg
	case *sqlir.Binary:
		return e.Op.IsArith()
	}
	return false
}
