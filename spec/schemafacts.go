package spec

import (
	"maps"
	"slices"
	"strings"

	"github.com/dbverify/dbverify/sqlir"
)

// CheckFacts returns the schema's CHECK constraints, other than p itself,
// as facts about the initial database: the database enforces them, so
// every row satisfies them on entry. Only the checks of p's tables and of
// the tables read (those the entry's SELECTs read) can matter. A CHECK
// over columns that may be NULL also accepts the rows where one of them is
// NULL (its condition is unknown there, not false): the fact is then
// "one of those columns IS NULL, or the condition" — implied by what the
// engine enforces (a condition is unknown only where a NULL enters it),
// so assuming it is sound, and the row model keeps a nullable column's
// NULL-ness (adv15 checkcol: `hold INTEGER CHECK (hold >= 0)` was not
// assumed, and a counterexample began from hold = -7758, a row the
// engine refuses; a false UNSAFE). This is the one rule by which a schema
// CHECK becomes a fact.
func CheckFacts(schema *sqlir.Schema, p Property, read []string) []*TableFact {
	if schema == nil {
		return nil
	}
	want := map[string]bool{}
	for _, t := range p.Tables() {
		want[strings.ToLower(t)] = true
	}
	for _, t := range read {
		want[t] = true
	}
	var out []*TableFact
	for _, n := range slices.Sorted(maps.Keys(schema.Tables)) {
		if !want[n] {
			continue
		}
		t := schema.Tables[n]
		for _, ck := range t.Checks {
			if c, ok := p.(*RowCheck); ok && c.Is(ck) {
				continue // p itself: it is assumed on entry anyway
			}
			if ck.Table == "" || ck.NotValid {
				continue // NOT VALID: rows older than the CHECK may break it
			}
			nullable, ok := nullableColumns(t, ck.Expr)
			if !ok {
				continue
			}
			expr := ck.Expr
			for _, c := range nullable {
				expr = &sqlir.Binary{Op: sqlir.OpOr, X: &sqlir.IsNull{X: &sqlir.ColRef{Name: c}}, Y: expr}
			}
			out = append(out, &TableFact{Name: ck.Name, Text: ck.Text, Table: ck.Table, Expr: expr})
		}
	}
	return out
}

// nullableColumns returns the columns of t that e mentions and that may
// hold NULL, each once; false when e mentions a column t does not declare
// or one of another table.
func nullableColumns(t *sqlir.Table, e sqlir.Expr) ([]string, bool) {
	ok := true
	var out []string
	sqlir.Rewrite(e, func(x sqlir.Expr) (sqlir.Expr, bool) {
		c, isCol := x.(*sqlir.ColRef)
		if !isCol {
			return nil, false
		}
		if c.Table != "" && !strings.EqualFold(c.Table, t.Name) {
			ok = false
			return nil, false
		}
		found := false
		for _, col := range t.Columns {
			if strings.EqualFold(col.Name, c.Name) {
				found = true
				if !col.NotNull && !slices.Contains(out, col.Name) {
					out = append(out, col.Name)
				}
			}
		}
		ok = ok && found
		return nil, false
	})
	return out, ok
}
