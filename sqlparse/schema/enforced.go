package schema

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/internal/rules"
)

// A CHECK declared NOT ENFORCED (MySQL 8.0.16+, PostgreSQL 18: CHECK (…)
// NOT ENFORCED, as a column or a table constraint), or switched off later
// (MySQL: ALTER TABLE t ALTER CHECK c NOT ENFORCED, ALTER CONSTRAINT c NOT
// ENFORCED), is kept in the table's definition but the engine checks
// nothing: rows may break it and writes that break it succeed. The schema
// leaves it out of the table's Checks, so that the row model neither
// assumes it on entry nor makes a write fail by it, and says so in a
// warning. ALTER … ENFORCED turns it back on (MySQL then checks the rows
// there, so it holds of them again).

// enforcement reads an optional "[NOT] ENFORCED" at toks[i]: whether it
// says NOT ENFORCED, and the index after it.
func enforcement(toks []tok, i int) (notEnforced bool, next int) {
	switch {
	case i+1 < len(toks) && toks[i].is("not") && toks[i+1].is("enforced"):
		return true, i + 2
	case i < len(toks) && toks[i].is("enforced"):
		return false, i + 1
	}
	return false, i
}

// saysNotEnforced reports whether a constraint's tokens say NOT ENFORCED
// outside parentheses (after CHECK (…), among its other attributes).
func saysNotEnforced(toks []tok) bool {
	depth := 0
	for k, t := range toks {
		switch {
		case t.isPunct("("):
			depth++
		case t.isPunct(")"):
			depth--
		case depth == 0:
			if ne, _ := enforcement(toks, k); ne {
				return true
			}
		}
	}
	return false
}

// alterEnforcement is ALTER CHECK/CONSTRAINT name [NOT] ENFORCED (after
// ALTER, at p): it switches the named CHECK's enforcement, at the
// position "file:line" at. It reports whether the action was one.
func alterEnforcement(p *ddlParser, td *tableDef, at string) bool {
	q := *p
	if !q.accept("check") && !q.accept("constraint") {
		return false
	}
	name, ok := q.name()
	if !ok {
		return false
	}
	notEnforced, next := enforcement(q.toks, q.i)
	if next == q.i {
		return false
	}
	n := strings.ToLower(name)
	for k := range td.checks {
		if rules.ContainsFold(td.checks[k].names, n) {
			td.checks[k].notEnforced = notEnforced
			td.checks[k].at = at
		}
	}
	return true
}

// unenforced returns the table's checks the engine enforces, and a
// warning for each one it does not.
func (td *tableDef) unenforced() (enforced []checkDef, warnings []string) {
	for _, cd := range td.checks {
		if !cd.notEnforced {
			enforced = append(enforced, cd)
			continue
		}
		warnings = append(warnings, fmt.Sprintf("%s: table %s: CHECK %s (%s) is NOT ENFORCED: not assumed (the engine accepts rows and writes that break it; give it with --constraint to have it verified)",
			cd.at, td.name, cd.c.Name, cd.c.Text))
	}
	return enforced, warnings
}

// unenforcedWarnings are the warnings of every table's NOT ENFORCED
// checks, in the order of the tables' names.
func (b *schemaBuilder) unenforcedWarnings() []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(b.tables)) {
		_, w := b.tables[k].unenforced()
		out = append(out, w...)
	}
	return out
}

// notEnforcedFK is the warning of a FOREIGN KEY declared NOT ENFORCED
// (PostgreSQL 18), at offset pos: it is left out of the table, as the
// engine neither refuses a write that breaks it nor applies its actions.
func notEnforcedFK(ctx *stmtCtx, pos int, table string, fk sqlir.ForeignKey) string {
	return fmt.Sprintf("%s: table %s: FOREIGN KEY (%s) REFERENCES %s (%s) is NOT ENFORCED: not assumed (the engine accepts rows and writes that break it)",
		ctx.where(pos), table, strings.Join(fk.Columns, ", "), fk.RefTable, strings.Join(fk.RefColumns, ", "))
}
