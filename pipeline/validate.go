package pipeline

import (
	"fmt"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

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
			if err := checkUsedColumns(c, l); err != nil {
				return err
			}
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
			return fmt.Errorf("constraint %q: %s has no column %s in the schema%s (columns: %s)",
				c.Text, c.Table, bad, didYouMean(bad, sortedSet(cols)), strings.Join(sortedSet(cols), ", "))
		}
	}
	return nil
}

// checkUsedColumns reports a constraint column that no SQL of the program
// names when no schema declares the table, if it looks like a typo of a
// column the SQL does name (balanse for balance): the constraint would
// otherwise be proved vacuously, since nothing writes it. A column the
// program never touches (capacity in booked <= capacity, or every column
// of a program that only deletes rows) is fine. SQL that
// may touch columns it does not name (SELECT *, INSERT without a column
// list, SQL built at run time) keeps the check quiet.
func checkUsedColumns(c *sqlir.Constraint, l *frontend.Loaded) error {
	named, all := l.Columns(c.Table)
	if all || l.RunsUnknownSQL() || len(named) == 0 {
		return nil
	}
	known := map[string]bool{}
	for _, n := range named {
		known[n] = true
	}
	var unnamed []string
	sqlir.Rewrite(c.Expr, func(e sqlir.Expr) (sqlir.Expr, bool) {
		if r, ok := e.(*sqlir.ColRef); ok && !known[strings.ToLower(r.Name)] {
			unnamed = append(unnamed, r.Name)
		}
		return nil, false
	})
	for _, col := range unnamed {
		if hint := didYouMean(col, named); hint != "" {
			return fmt.Errorf("constraint %q: no SQL of the program names column %s of %s and no --schema declares it%s (columns the SQL names: %s)",
				c.Text, col, c.Table, hint, strings.Join(named, ", "))
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
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// checkEntries reports a run with no entry point: an --entry that matches
// nothing, or packages in which no function may write a constrained
// table. Either would otherwise end in "0 results" and exit 0.
func checkEntries(cfg Config, entries []*ssa.Function, tables []string, l *frontend.Loaded) error {
	if len(entries) > 0 {
		return nil
	}
	if cfg.Entry != "" {
		var names []string
		for _, fn := range l.Entries(tables, nil) {
			names = append(names, frontend.EntryName(fn))
		}
		if len(names) == 0 {
			return fmt.Errorf("--entry %q matches no function, and no function in %s may write %s", cfg.Entry, patterns(cfg), strings.Join(tables, ", "))
		}
		return fmt.Errorf("--entry %q matches no function (entry points that write %s: %s)", cfg.Entry, strings.Join(tables, ", "), strings.Join(names, ", "))
	}
	written := l.WrittenTables()
	if len(written) == 0 {
		return fmt.Errorf("nothing to check: no function in %s may write %s (the packages run no UPDATE, INSERT or DELETE the tool can see)", patterns(cfg), strings.Join(tables, ", "))
	}
	return fmt.Errorf("nothing to check: no function in %s may write %s (tables written: %s)", patterns(cfg), strings.Join(tables, ", "), strings.Join(written, ", "))
}

func patterns(cfg Config) string {
	if len(cfg.Patterns) == 0 {
		return "./..."
	}
	return strings.Join(cfg.Patterns, " ")
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
