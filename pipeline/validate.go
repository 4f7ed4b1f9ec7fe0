package pipeline

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dbverify/dbverify/frontend"
	"github.com/dbverify/dbverify/sqlir"
)

// checkNames reports a --constraint whose table the program never uses
// (and the schema does not declare), or, with a schema, whose column the
// table does not have: a typo would otherwise give no result or a
// vacuous SAFE.
func checkNames(cs []*sqlir.Constraint, schema *sqlir.Schema, l *frontend.Loaded) error {
	used := map[string]bool{}
	for _, t := range l.Tables() {
		used[strings.ToLower(t)] = true
	}
	for _, c := range cs {
		if c.Name != "" {
			continue // a CHECK of the schema itself
		}
		table := strings.ToLower(c.Table)
		var tab *sqlir.Table
		if schema != nil {
			tab = schema.Tables[table]
		}
		if tab == nil && !used[table] && (schema != nil || !l.RunsUnknownSQL()) {
			return fmt.Errorf("constraint %q: table %s is neither used by the program's SQL nor declared in the schema (tables used: %s)",
				c.Text, c.Table, strings.Join(sortedSet(used), ", "))
		}
		if tab == nil {
			continue
		}
		cols := map[string]bool{}
		for _, col := range tab.Columns {
			cols[strings.ToLower(col.Name)] = true
		}
		var bad string
		sqlir.Rewrite(c.Expr, func(e sqlir.Expr) (sqlir.Expr, bool) {
			if r, ok := e.(*sqlir.ColRef); ok && bad == "" && !cols[strings.ToLower(r.Name)] {
				bad = r.Name
			}
			return nil, false
		})
		if bad != "" {
			return fmt.Errorf("constraint %q: %s has no column %s in the schema (columns: %s)",
				c.Text, c.Table, bad, strings.Join(sortedSet(cols), ", "))
		}
	}
	return nil
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
