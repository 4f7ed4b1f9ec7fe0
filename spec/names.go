package spec

import (
	"maps"
	"slices"
	"strings"

	"github.com/dbverify/dbverify/sqlir"
)

// CheckNames reports a --constraint whose table the program never uses
// (and the schema does not declare), or, with a schema, whose column the
// table does not have: a typo would otherwise give no result or a
// vacuous SAFE. The schema's own CHECKs are not checked.
func CheckNames(props []Property, schema *sqlir.Schema, prog Program) error {
	used := map[string]bool{}
	for _, t := range prog.Tables() {
		used[strings.ToLower(t)] = true
	}
	for _, p := range props {
		c, ok := p.(*RowCheck)
		if !ok || c.Name != "" {
			continue // a CHECK of the schema itself
		}
		if err := checkRowCheck(c, used, schema, prog); err != nil {
			return err
		}
	}
	return nil
}

func checkRowCheck(c *RowCheck, used map[string]bool, schema *sqlir.Schema, prog Program) error {
	tab := schemaTable(schema, c.Table)
	if tab == nil && !used[strings.ToLower(c.Table)] && (schema != nil || !prog.RunsUnknownSQL()) {
		return errorf(c.Text, "table %s is neither used by the program's SQL nor declared in the schema%s (tables used: %s)",
			c.Table, didYouMean(c.Table, sortedSet(used)), strings.Join(sortedSet(used), ", "))
	}
	if tab == nil && !used[strings.ToLower(c.Table)] {
		// SQL built at run time may name any table, but one that looks
		// like a typo of a table the SQL names is one (a migration runner
		// in the module made "wallet" for "wallets" pass, exit 0).
		if hint := didYouMean(c.Table, sortedSet(used)); hint != "" {
			return errorf(c.Text, "table %s is neither used by the program's constant SQL nor declared in the schema%s (SQL built at run time may name it: declare it with --schema to check it)", c.Table, hint)
		}
	}
	if tab == nil {
		return checkUsedColumns(c, prog)
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
		return errorf(c.Text, "%s has no column %s in the schema%s (columns: %s)",
			c.Table, bad, didYouMean(bad, sortedSet(cols)), strings.Join(sortedSet(cols), ", "))
	}
	return nil
}

// checkUsedColumns reports a constraint column that no SQL of the program
// names when no schema declares the table, if it looks like a typo of a
// column the SQL does name (balanse for balance): the constraint would
// otherwise be proved vacuously, since nothing writes it. A column the
// program never touches (capacity in booked <= capacity, or every column
// of a program that only deletes rows) is fine. SQL that may touch
// columns it does not name (SELECT *, INSERT without a column list, SQL
// built at run time) keeps the check quiet.
func checkUsedColumns(c *RowCheck, prog Program) error {
	named, all := prog.Columns(c.Table)
	if all || prog.RunsUnknownSQL() || len(named) == 0 {
		return nil
	}
	var unnamed []string
	sqlir.Rewrite(c.Expr, func(e sqlir.Expr) (sqlir.Expr, bool) {
		if r, ok := e.(*sqlir.ColRef); ok && !slices.Contains(named, strings.ToLower(r.Name)) {
			unnamed = append(unnamed, r.Name)
		}
		return nil, false
	})
	for _, col := range unnamed {
		if hint := didYouMean(col, named); hint != "" {
			return errorf(c.Text, "no SQL of the program names column %s of %s and no --schema declares it%s (columns the SQL names: %s)",
				col, c.Table, hint, strings.Join(named, ", "))
		}
	}
	return nil
}

func didYouMean(name string, names []string) string {
	if n := closest(name, names); n != "" {
		return "; did you mean " + n + "?"
	}
	return ""
}

func sortedSet(m map[string]bool) []string {
	return slices.Sorted(maps.Keys(m))
}

// closest returns the name in names nearest to name by edit distance, if
// it is near enough to be a likely typo.
func closest(name string, names []string) string {
	best, bestD := "", min(3, len(name)/3+1)
	for _, n := range names {
		if d := editDistance(strings.ToLower(name), strings.ToLower(n)); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
