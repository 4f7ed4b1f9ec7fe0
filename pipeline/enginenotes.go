package pipeline

import (
	"fmt"
	"math/big"
	"regexp"
	"strings"

	"github.com/dbverify/dbverify/report"
)

// Engine semantics a step relies on, said on the step. The model
// computes as the engine does, but a trace showing only the values read
// as an error of the tool (an independent tester, adv19):
//
//   - MySQL's / is exact division into a DECIMAL, stored rounded (half
//     away from zero) into an integer column: `balance - 2 / 3` from 0
//     stores -1, not 0 as Go's or PostgreSQL's integer division would;
//   - SQLite compares a TEXT with a number when neither is a column as
//     TEXT, and TEXT sorts above every number: a bound Go string "-1"
//     passes `? > 0`.
//
// noteEngineSemantics adds these notes to the SQL steps of results whose
// bound SQL shows such an operation on two literals.

// literalDivision is `a / b` of two integer literals in bound SQL (a
// negative one parenthesised, as a trace binds it).
var literalDivision = regexp.MustCompile(`(\(-\d+\)|\b\d+)\s*/\s*(\(-\d+\)|\d+\b)`)

// textNumberCompare is a quoted text compared with a number literal, in
// either order.
var textNumberCompare = regexp.MustCompile(`('(?:[^']|'')*')\s*(>=|<=|<>|!=|>|<|=)\s*(\(-\d+(?:\.\d+)?\)|\d+(?:\.\d+)?\b)|(\(-\d+(?:\.\d+)?\)|\b\d+(?:\.\d+)?)\s*(>=|<=|<>|!=|>|<|=)\s*('(?:[^']|'')*')`)

// noteEngineSemantics adds, to the SQL steps of results' counterexamples,
// the engine's semantics they rely on (see above); dialect is the run's.
func noteEngineSemantics(results []*report.Result, dialect string) {
	for _, r := range results {
		d := resultDialect(r, dialect)
		c := r.Counterexample
		if c == nil {
			continue
		}
		for i := range c.Steps {
			st := &c.Steps[i]
			if st.Kind != "sql" || st.SQL == "" {
				continue
			}
			var notes []string
			switch d {
			case "mysql":
				notes = mysqlDivisionNotes(st.SQL)
			case "sqlite":
				notes = sqliteTextNotes(st.SQL)
			}
			for _, n := range notes {
				if st.Note == "" {
					st.Note = n
				} else {
					st.Note += "; " + n
				}
			}
		}
	}
}

// mysqlDivisionNotes says, for each division of two integer literals in
// MySQL SQL, its exact value and that an integer column stores it rounded.
func mysqlDivisionNotes(sql string) []string {
	var out []string
	for _, m := range literalDivision.FindAllStringSubmatch(sql, -1) {
		a, okA := new(big.Rat).SetString(strings.Trim(m[1], "()"))
		b, okB := new(big.Rat).SetString(strings.Trim(m[2], "()"))
		if !okA || !okB || b.Sign() == 0 {
			continue
		}
		q := new(big.Rat).Quo(a, b)
		if q.IsInt() {
			continue
		}
		out = append(out, fmt.Sprintf("MySQL's / divides exactly: %s / %s = %s, and an integer column stores the result rounded half away from zero", m[1], m[2], q.FloatString(4)))
	}
	return out
}

// sqliteTextNotes says, for each comparison of a quoted text with a
// number literal in SQLite SQL, that SQLite compares them as TEXT above
// every number.
func sqliteTextNotes(sql string) []string {
	var out []string
	for _, at := range textNumberCompare.FindAllStringSubmatchIndex(sql, -1) {
		if operandOfArith(sql, at[0], at[1]) {
			continue // (credits + '-1' > 0 compares a number)
		}
		m := submatches(sql, at)
		text, op, num, textLeft := m[1], m[2], m[3], true
		if text == "" {
			num, op, text, textLeft = m[4], m[5], m[6], false
		}
		holds := textAboveNumber(op, textLeft)
		out = append(out, fmt.Sprintf("SQLite compares the text %s with the number %s without converting it: TEXT sorts above every number, so %s %s %s is %v", text, num, left(text, num, textLeft), op, right(text, num, textLeft), holds))
	}
	return out
}

// submatches are the texts of a match's groups ("" for a group that did
// not take part).
func submatches(s string, at []int) []string {
	out := make([]string, len(at)/2)
	for i := range out {
		if at[2*i] >= 0 {
			out[i] = s[at[2*i]:at[2*i+1]]
		}
	}
	return out
}

// operandOfArith reports whether the comparison s[from:to] has an
// arithmetic or concatenation operator just before or after it: its
// operand is then that operation's result, not the literal.
func operandOfArith(s string, from, to int) bool {
	before := strings.TrimRight(s[:from], " \t\n")
	after := strings.TrimLeft(s[to:], " \t\n")
	isOp := func(c byte) bool { return strings.IndexByte("+-*/%|", c) >= 0 }
	return (before != "" && isOp(before[len(before)-1])) || (after != "" && isOp(after[0]))
}

// textAboveNumber is the outcome of comparing a TEXT with a number by op,
// the text on the left when textLeft: TEXT is greater than every number.
func textAboveNumber(op string, textLeft bool) bool {
	switch op {
	case ">", ">=":
		return textLeft
	case "<", "<=":
		return !textLeft
	case "<>", "!=":
		return true
	}
	return false // (=)
}

// left and right are a comparison's operands in the order written.
func left(text, num string, textLeft bool) string {
	if textLeft {
		return text
	}
	return num
}

func right(text, num string, textLeft bool) string {
	if textLeft {
		return num
	}
	return text
}

// resultDialect is the dialect r's SQL was read in: its own, else the
// run's.
func resultDialect(r *report.Result, dialect string) string {
	if r.Dialect != "" {
		return r.Dialect
	}
	return dialect
}
