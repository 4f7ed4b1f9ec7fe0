package dbmodel

import (
	"fmt"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// Collations: two different Go strings may be one SQL value. A string
// column whose comparison is not binary compares norm(a) = norm(b), with
// norm a function of the string's code (ir.SplitVariant: a code is a base
// or a variant of one, its case form q and trailing spaces k):
//
//   - casePad (MySQL/MariaDB case-insensitive PAD SPACE collations, the
//     default utf8mb4_general_ci): the base, with a decimal base's
//     leading zeros (q) kept ("01" is not "1" as a string);
//   - caseOnly (SQLite COLLATE NOCASE, MySQL NO PAD case-insensitive
//     collations, PostgreSQL citext): base, q of a decimal base, and k;
//   - padOnly (PostgreSQL CHAR(n), SQLite COLLATE RTRIM, MySQL binary PAD
//     SPACE collations such as utf8mb4_bin): base and q;
//   - exact: the code (PostgreSQL text and varchar, SQLite BINARY, MySQL
//     binary strings and NO PAD binary collations).
//
// A Go string bound next to a numeric column is the number it converts
// to: a decimal base's variants are its number ("01", "1 "; on SQLite too), other codes
// stay as they are (numNorm). Every place that compares keys (a WHERE, the
// row a key pins, two symbols being one row, a key lock) goes through
// these, so a counterexample may hold 'alice' and 'ALICE' (printed so,
// report's naming) as one row, as the engine does.

// collClass is how a column compares strings.
type collClass uint8

const (
	collExact collClass = iota
	collCasePad
	collCaseOnly
	collPadOnly
)

func (c collClass) String() string {
	return [...]string{"binary", "case-insensitive, trailing spaces ignored", "case-insensitive", "trailing spaces ignored"}[c]
}

// columnCollation is how column col of table compares strings: from its
// declared type and COLLATE (or the table's default) and the dialect.
// Without a schema a MySQL column that holds strings (tableModel.text,
// pinnedStr)
// gets the server's default (MariaDB's utf8mb4_general_ci: casePad); any
// other, and a PostgreSQL or SQLite one, compares exactly.
func (m *lowerer) columnCollation(table, col string) collClass {
	st := m.schemaTable(table)
	var c *sqlir.Column
	if st != nil {
		for i := range st.Columns {
			if strings.EqualFold(st.Columns[i].Name, col) {
				c = &st.Columns[i]
			}
		}
	}
	if c == nil {
		// No schema: a MySQL column that holds strings (written or
		// pinned a Go string) has the server's default collation.
		if t := m.model(table); m.opt.Dialect == "mysql" && t != nil && (t.text[strings.ToLower(col)] || t.pinnedStr[strings.ToLower(col)]) {
			return collCasePad
		}
		return collExact
	}
	typ := strings.ToLower(c.Type)
	switch m.opt.Dialect {
	case "postgres":
		return pgCollation(typ)
	case "sqlite":
		switch c.Collate {
		case "nocase":
			return collCaseOnly
		case "rtrim":
			return collPadOnly
		}
		return collExact
	case "mysql":
		if !strings.Contains(typ, "char") && !strings.Contains(typ, "text") && !strings.HasPrefix(typ, "enum") && !strings.HasPrefix(typ, "set(") {
			// Numbers, dates, binary strings and blobs (varchar(n)
			// binary is a _bin collation: below).
			return collExact
		}
		coll := c.Collate
		if coll == "" && st != nil {
			coll = st.Collate
		}
		if strings.Contains(typ, "char") && strings.HasSuffix(typ, " binary") && coll == "" {
			coll = "utf8mb4_bin"
		}
		return mysqlCollation(coll)
	}
	return collExact
}

// pgCollation classifies a PostgreSQL type: CHAR(n) (bpchar) ignores
// trailing blanks, citext case; others (text, varchar, deterministic
// collations) compare exactly.
func pgCollation(typ string) collClass {
	t := strings.TrimSpace(typ)
	switch {
	case strings.Contains(t, "citext"):
		return collCaseOnly
	case strings.Contains(t, "varying") || strings.Contains(t, "varchar"):
		return collExact
	case t == "bpchar" || t == "char" || t == "character" || t == `"char"` ||
		strings.HasPrefix(t, "char(") || strings.HasPrefix(t, "character(") ||
		strings.HasPrefix(t, "char (") || strings.HasPrefix(t, "character ("):
		return collPadOnly
	}
	return collExact
}

// mysqlCollation classifies a MySQL/MariaDB collation name ("": the
// server default, MariaDB 10.11's utf8mb4_general_ci).
func mysqlCollation(coll string) collClass {
	nopad := strings.Contains(coll, "nopad") || strings.Contains(coll, "_0900_")
	switch {
	case coll == "binary":
		return collExact
	case strings.HasSuffix(coll, "_bin"):
		if nopad {
			return collExact
		}
		return collPadOnly
	case strings.Contains(coll, "_cs") && !strings.Contains(coll, "_ci"):
		// Case-sensitive (accent-sensitive) collations.
		if nopad {
			return collExact
		}
		return collPadOnly
	}
	if nopad {
		return collCaseOnly
	}
	return collCasePad
}

// collNorm is norm_c(e) of a string code e (e itself for collExact).
func collNorm(c collClass, e ir.Expr) ir.Expr {
	if c == collExact || e.Sort() != ir.Int {
		return e
	}
	p := ir.SplitVariant(e)
	eight := ir.IntLit(ir.VariantCases)
	// base·2 + (q of a decimal base): the string without case and pads.
	folded := ir.Add(ir.Arith(ir.OpMul, p.Base, eight), ir.IteOf(p.Decimal, p.Case, ir.IntLit(0)))
	switch c {
	case collCasePad:
		return folded
	case collCaseOnly:
		return ir.Add(ir.Arith(ir.OpMul, folded, ir.IntLit(ir.VariantPads)), p.Pads)
	case collPadOnly:
		return ir.Add(ir.Arith(ir.OpMul, p.Base, eight), p.Case)
	case collExact:
	}
	return e
}

// numNorm is the number a Go string of code e converts to next to a
// numeric column: a decimal integer's variant (a leading zero, trailing
// spaces) is its number, any other code itself. SQLite too reads '1 ' as
// 1 next to an INTEGER, BIGINT, INT or NUMERIC column (measured on
// SQLite 3.54 through modernc.org/sqlite: WHERE id = '1 ' matches row 1,
// and SET b = '7 ' stores the integer 7); the model took it for a text
// that matches no key. isInt: the number it meets is an integer, whose
// engine must be able to read the text (strint.go).
func (m *lowerer) numNorm(e ir.Expr, isInt bool) ir.Expr {
	if e.Sort() != ir.Int {
		return e
	}
	if isInt {
		m.textMeetsInt(e)
	}
	p := ir.SplitVariant(e)
	return ir.IteOf(ir.And(p.IsVariant, p.Decimal), p.Base, e)
}

// numberOf is the number MySQL reads in a string column of code e
// compared with a number, for the forms the model spells: a decimal
// integer's text, or its variant with a leading zero and no trailing
// space ("07" is 7); any other code itself.
func numberOf(e ir.Expr) ir.Expr {
	zeros, number, _ := ir.LeadingZero(e)
	return ir.IteOf(zeros, number, e)
}

// isGoNumber reports a value that is a Go number bound to a placeholder
// (an integer variable, not a string's code).
func isGoNumber(v sqlValue) bool {
	x, ok := v.e.(*ir.Var)
	return ok && !x.Str && !v.col && v.kind == kindAny && x.Type == ir.Int
}

// isGoString reports a value that is a Go string variable bound to a
// placeholder (its text unknown).
func isGoString(v sqlValue) bool {
	x, ok := v.e.(*ir.Var)
	return ok && x.Str && !v.col && v.kind == kindAny
}

// collatedPair returns a and b as the comparison sees them: normalised by
// the collation of the column among them (a MySQL comparison of two
// values that are no columns: the connection's, case-insensitive PAD
// SPACE), or a Go string next to a numeric column as its number. Known
// texts that the collation makes equal to another text the program spells
// are an approximated comparison (literal codes are never variants of one
// another).
func (m *lowerer) collatedPair(a, b sqlValue) (ir.Expr, ir.Expr, bool) {
	if a.kind == kindNum && isGoString(b) {
		return a.e, m.numNorm(b.e, a.e.Sort() == ir.Int), true
	}
	if b.kind == kindNum && isGoString(a) {
		return m.numNorm(a.e, b.e.Sort() == ir.Int), b.e, true
	}
	if a.kind == kindNum || b.kind == kindNum {
		return a.e, b.e, true
	}
	c := a.coll
	if c == collExact {
		c = b.coll
	}
	stringy := func(v sqlValue) bool { return isGoString(v) || v.kind == kindText }
	if !a.col && !b.col && m.opt.Dialect == "mysql" && (stringy(a) || stringy(b)) {
		c = collCasePad // the connection's collation
	}
	if c == collExact {
		return a.e, b.e, true
	}
	for _, v := range []sqlValue{a, b} {
		if v.kind == kindText && m.foldedTwin(c, v.text) != "" {
			return nil, nil, false
		}
	}
	return collNorm(c, a.e), collNorm(c, b.e), true
}

// foldedTwin returns another text the program spells that collation c
// makes equal to text ("" if none).
func (m *lowerer) foldedTwin(c collClass, text string) string {
	fold := func(s string) string {
		if c == collCasePad || c == collPadOnly {
			s = strings.TrimRight(s, " ")
		}
		if c == collCasePad || c == collCaseOnly {
			s = strings.ToLower(s)
		}
		return s
	}
	f := fold(text)
	for _, strs := range []map[string]string{m.src.Strings, m.p.Strings} {
		for _, s := range strs {
			if s != text && fold(s) == f {
				return s
			}
		}
	}
	return ""
}

// collationNote names the collation of an approximated comparison.
func collationNote(a, b sqlValue, op sqlir.Op) string {
	return fmt.Sprintf("the comparison %s %s %s under a collation that makes two texts of the program one value", describe(a), op, describe(b))
}

// colKey is the comparison key of column col of t holding e: its
// collation's norm.
func (t *tableModel) colKey(col string, e ir.Expr) ir.Expr {
	return collNorm(t.coll[col], e)
}

// pinKey is value v that a WHERE pins column col of table to, as the
// column's key compares it (colKey, or a Go string's number next to a
// numeric column).
//
// nil where the pin does not determine the key: MySQL compares a string
// column with a Go number as numbers ('5' = 5 and '05' = 5), so rows of
// two keys may match (adv8 W1: a read and a debit WHERE ext_id = ? with
// an int64 were proved to hit one row of a UNIQUE VARCHAR key).
func (m *lowerer) pinKey(table, col string, v sqlValue) ir.Expr {
	if m.opt.Dialect == "mysql" && isGoNumber(v) && m.columnKind(table, col) != kindNum && m.columnCollation(table, col) != collExact {
		return nil
	}
	if isGoString(v) && m.columnKind(table, col) == kindNum {
		return m.numNorm(v.e, m.intColumn(table, col))
	}
	if m.columnKind(table, col) == kindNum {
		return v.e
	}
	return collNorm(m.effectiveCollation(table, col), v.e)
}

// keySources returns, for each column of t, how many different values the
// program compares it with or writes into it: each entry parameter (or
// value read from one, fixed for the run) and each literal counts once,
// any other value (a local, which a loop may change, an expression) as
// two.
func (m *lowerer) keySources(t *tableModel) map[string]int {
	seen := map[string]map[string]bool{}
	out := map[string]int{}
	note := func(col string, e sqlir.Expr, args []ir.Expr) {
		col = strings.ToLower(col)
		key := "*"
		switch e := e.(type) {
		case *sqlir.Str:
			key = "lit:" + e.Val
		case *sqlir.Param:
			if e.Index < len(args) {
				if v, ok := args[e.Index].(*ir.Var); ok && v.Kind == ir.Input {
					key = "in:" + v.Name
				}
			}
		}
		if seen[col] == nil {
			seen[col] = map[string]bool{}
		}
		if key == "*" {
			out[col] += 2
		} else if !seen[col][key] {
			seen[col][key] = true
			out[col]++
		}
	}
	var walk func(e sqlir.Expr, args []ir.Expr)
	walk = func(e sqlir.Expr, args []ir.Expr) {
		b, ok := e.(*sqlir.Binary)
		if !ok {
			return
		}
		if b.Op.IsComparison() {
			for _, pair := range [][2]sqlir.Expr{{b.X, b.Y}, {b.Y, b.X}} {
				if c, ok := pair[0].(*sqlir.ColRef); ok && (c.Table == "" || t.onTable(c.Table)) {
					note(c.Name, pair[1], args)
				}
			}
			return
		}
		walk(b.X, args)
		walk(b.Y, args)
	}
	for _, e := range m.src.Edges {
		table, where, args := stmtWhere(e.Stmt)
		if t.onTable(table) && where != nil {
			walk(where, args)
		}
		x, ok := e.Stmt.(*ir.Exec)
		if !ok {
			continue
		}
		switch q := x.SQL.(type) {
		case *sqlir.Insert:
			if t.onTable(q.Table) {
				for _, row := range q.Rows {
					for i, v := range row {
						if i < len(q.Columns) {
							note(q.Columns[i], v, x.Args)
						}
					}
				}
			}
		case *sqlir.Update:
			if t.onTable(q.Table) {
				for _, a := range q.Set {
					note(a.Col, a.Value, x.Args)
				}
			}
		}
	}
	return out
}

// effectiveCollation is the collation the model applies to column col of
// table: its collation where the program may give it two different
// values (keySources), else exact — one value of a class may stand for
// the whole class (the rows' keys are then chosen as that very value; a
// key read back into Go is approximated, goStringDiffers), at no cost.
func (m *lowerer) effectiveCollation(table, col string) collClass {
	if t := m.model(table); t != nil && t.coll != nil {
		return t.coll[strings.ToLower(col)]
	}
	return m.columnCollation(table, col)
}
