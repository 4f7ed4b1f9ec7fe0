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
// over a column that may be NULL is left out: it also accepts the NULL
// rows (the condition is unknown there), which the row model, without
// NULLs, cannot express. This is the one rule by which a schema CHECK
// becomes a fact.
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
			if ck.Table == "" || !notNullColumns(t, ck.Expr) {
				continue
			}
			out = append(out, &TableFact{Name: ck.Name, Text: ck.Text, Table: ck.Table, Expr: ck.Expr})
		}
	}
	return out
}

// notNullColumns reports whether every column e mentions is a NOT NULL
// column of t.
func notNullColumns(t *sqlir.Table, e sqlir.Expr) bool {
	ok := true
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
				found = col.NotNull
			}
		}
		ok = ok && found
		return nil, false
	})
	return ok
}
