package dbmodel

import (
	"strings"

	"github.com/dbverify/dbverify/ir"
)

// Texts bound next to integers. A Go string bound to a placeholder that
// meets an integer (an integer column compared with it or written from
// it, an integer in its arithmetic) is converted by the engine, as
// measured on the real engines (PostgreSQL 15, MariaDB 10.11):
//
//   - PostgreSQL types the placeholder as the integer and converts the
//     text when the statement is bound: surrounding blanks, a sign and
//     leading zeros are accepted ("007 " is 7), any other text fails the
//     statement (22P02, "invalid input syntax for type bigint"). So on
//     the statement's success path the text is one the model spells as
//     a number (a decimal integer's text or its variants: leading zero,
//     trailing spaces; numNorm); a text it cannot convert takes the
//     statement's error path, which every statement has.
//   - MySQL/MariaDB compare it as a number read from the text's numeric
//     prefix ('7abc' = 7, 'abc' = 0, no error in strict mode); the model
//     does not spell that conversion, so it takes the text to be a
//     number's (an assumption the result states) rather than comparing
//     the string's code with the column, which gave counterexamples whose
//     BIGINT key is the text "STR1 " (adv9 m8).
//   - SQLite leaves a text that is no number as text, which an INTEGER
//     column may hold: the code comparison stands.
//
// The conditions are collected while a statement is lowered
// (intTexts.conds) and assumed, as a fact, at the start of the success
// path of each error fork of that statement (intTexts.at), before any of
// its results is assigned.

// intTexts collects the texts the statement being lowered binds next to
// an integer.
type intTexts struct {
	conds []ir.Expr
	at    []*ir.Assume
}

// textMeetsInt records that Go string code e is bound next to an integer
// in the statement being lowered.
func (m *lowerer) textMeetsInt(e ir.Expr) {
	switch m.opt.Dialect {
	case "postgres":
	case "mysql":
		m.assume("a Go string bound next to an integer column is the text of an integer (with leading zeros or trailing spaces): MySQL reads any other text by its numeric prefix ('7abc' is 7, 'abc' is 0), which is not modelled")
	default:
		return
	}
	m.intTexts.conds = append(m.intTexts.conds, ir.SplitVariant(e).Decimal)
}

// intTextsAt reserves, on the success path em of the statement being
// lowered, the place of the conditions on its texts (filled by
// flushIntTexts once the statement is lowered).
func (m *lowerer) intTextsAt(em *emitter) {
	info := em.info
	info.Kind = ir.KindFact
	a := &ir.Assume{Cond: ir.True, Info: info}
	em.add(a)
	m.intTexts.at = append(m.intTexts.at, a)
}

// flushIntTexts assumes the conditions of the statement just lowered on
// its success paths and starts the next statement afresh.
func (m *lowerer) flushIntTexts() {
	if len(m.intTexts.conds) > 0 {
		c := ir.And(m.intTexts.conds...)
		for _, a := range m.intTexts.at {
			a.Cond = c
		}
	}
	m.intTexts = intTexts{}
}

// intColumn reports a column of integer sort: declared an integer type
// by the schema, or (without one) tracked as an integer.
func (m *lowerer) intColumn(table, col string) bool {
	if t := m.schemaTable(table); t != nil {
		for _, c := range t.Columns {
			if strings.EqualFold(c.Name, col) {
				_, _, ok := intType(strings.ToLower(c.Type))
				return ok
			}
		}
	}
	t := m.model(table)
	return t != nil && t.sorts[strings.ToLower(col)] == ir.Int
}
