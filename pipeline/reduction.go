package pipeline

import (
	"strings"

	"github.com/dbverify/dbverify/interleave"
	"github.com/dbverify/dbverify/sqlir"
)

// reduction returns the options of the product of a pair: the
// partial-order reduction unless cfg turns it off or the schema has
// triggers or views (a write then touches tables its SQL does not name),
// with the tables each table's foreign keys connect it to.
func reduction(cfg Config, schema *sqlir.Schema) interleave.Options {
	if cfg.NoReduction {
		return interleave.Options{}
	}
	if schema == nil {
		return interleave.Options{Reduce: true}
	}
	if len(schema.Triggers) > 0 || len(schema.Views) > 0 {
		return interleave.Options{}
	}
	// The foreign-key graph, both ways, closed: a write to a parent may
	// cascade to its children's children; an insert of a child reads and
	// locks its parent.
	adj := map[string][]string{}
	for name, t := range schema.Tables {
		for _, fk := range t.ForeignKeys {
			ref := strings.ToLower(fk.RefTable)
			adj[name] = append(adj[name], ref)
			adj[ref] = append(adj[ref], name)
		}
	}
	closure := map[string][]string{}
	related := func(table string) []string {
		if c, ok := closure[table]; ok {
			return c
		}
		seen := map[string]bool{table: true}
		work := []string{table}
		var out []string
		for len(work) > 0 {
			t := work[len(work)-1]
			work = work[:len(work)-1]
			for _, u := range adj[t] {
				if !seen[u] {
					seen[u] = true
					out = append(out, u)
					work = append(work, u)
				}
			}
		}
		closure[table] = out
		return out
	}
	return interleave.Options{Reduce: true, Related: related}
}

// addSat adds two counts, saturating.
func addSat(a, b uint64) uint64 {
	if a > ^uint64(0)-b {
		return ^uint64(0)
	}
	return a + b
}
