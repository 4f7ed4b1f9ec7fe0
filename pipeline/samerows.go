package pipeline

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/dbverify/dbverify/dbmodel"
	"github.com/dbverify/dbverify/report"
	"github.com/dbverify/dbverify/sqlir"
)

// Two row symbols of one table are one row only where they agree on a
// key of the table (dbmodel: the schema's keys, else a column named id).
// Without --schema, a table keyed by tenant_id has no key the model
// knows, and a counterexample may use two rows with the same tenant_id
// that differ elsewhere: "row r quotas: lim = -1, tenant_id = 3" and
// "row s1 quotas: lim = 0, tenant_id = 3" read as one row seen twice
// (an independent tester, adv18, issue 12). noteSameColumnRows says, in
// a note of the counterexample, that they are two different rows, and
// how to declare the key that would rule them out.

// noteSameColumnRows adds to each counterexample of results a note for
// every pair of its rows of one table that are different rows (some
// column differs) yet agree on a column a statement of the path selects
// rows by (in its WHERE), which is no key of the table.
func noteSameColumnRows(results []*report.Result, schema *sqlir.Schema, noInferKey bool) {
	for _, r := range results {
		c := r.Counterexample
		if c == nil {
			continue
		}
		filtered := whereColumns(r)
		rows := slices.Clone(c.Rows)
		for i, a := range rows {
			for _, b := range rows[i+1:] {
				if n := sameColumnNote(a, b, filtered, schema, noInferKey); n != "" {
					c.Notes = append(c.Notes, n)
				}
			}
		}
	}
}

// sameColumnNote is the note for rows a and b ("" if none is due).
func sameColumnNote(a, b report.Row, filtered map[string]bool, schema *sqlir.Schema, noInferKey bool) string {
	if a.Table != b.Table || a.Symbol == "" || b.Symbol == "" || !differ(a, b) {
		return ""
	}
	keys := singleKeyColumns(a.Table, schema, noInferKey)
	var same []string
	for _, col := range slices.Sorted(maps.Keys(a.Values)) {
		v := a.Values[col]
		if b.Values[col] == v && v != "NULL" && filtered[strings.ToLower(col)] && !keys[strings.ToLower(col)] {
			same = append(same, col+" = "+v)
		}
	}
	if len(same) == 0 {
		return ""
	}
	return fmt.Sprintf("rows %s and %s are two different rows of %s with the same %s: %s", a.Symbol, b.Symbol, a.Table, strings.Join(same, ", "), noKeyReason(a.Table, schema, noInferKey))
}

// noKeyReason says why the columns are no key of table, and how to
// declare one.
func noKeyReason(table string, schema *sqlir.Schema, noInferKey bool) string {
	switch {
	case schemaTable(schema, table) != nil:
		return "no PRIMARY KEY or UNIQUE key of the schema's " + table + " is over them alone"
	case noInferKey:
		return "without --schema (and with --no-infer-key) " + table + " has no key; give --schema with its PRIMARY KEY or UNIQUE declaration if they identify a row"
	}
	return "without --schema only a column named id is a key; give --schema with the PRIMARY KEY or UNIQUE declaration of " + table + " if they identify a row"
}

// differ reports whether rows a and b differ in some column both show.
func differ(a, b report.Row) bool {
	for col, v := range a.Values {
		if w, ok := b.Values[col]; ok && w != v {
			return true
		}
	}
	return false
}

// singleKeyColumns lists the columns of table's keys as the row model
// takes them (dbmodel.TableKeys): a key of one column identifies a row by
// that column alone; a column of a key of several columns does not.
func singleKeyColumns(table string, schema *sqlir.Schema, noInferKey bool) map[string]bool {
	out := map[string]bool{}
	for _, k := range dbmodel.TableKeys(schema, table, noInferKey) {
		if len(k) == 1 {
			out[k[0]] = true
		}
	}
	return out
}

func schemaTable(schema *sqlir.Schema, table string) *sqlir.Table {
	if schema == nil {
		return nil
	}
	return schema.Tables[strings.ToLower(table)]
}

// whereClause matches a statement's WHERE and what follows it.
var whereClause = regexp.MustCompile(`(?is)\bwhere\b(.*)`)

// identifier matches a SQL identifier.
var identifier = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// whereColumns lists (lower case) the words in the WHERE clauses of the
// SQL statements r's path runs: the columns it selects rows by, and some
// other words (keywords, placeholders' neighbours), harmless since only
// a table's columns are looked up.
func whereColumns(r *report.Result) map[string]bool {
	out := map[string]bool{}
	add := func(text string) {
		m := whereClause.FindStringSubmatch(text)
		if m == nil {
			return
		}
		for _, w := range identifier.FindAllString(m[1], -1) {
			out[strings.ToLower(w)] = true
		}
	}
	for _, s := range r.Counterexample.Steps {
		if s.Kind == "sql" {
			add(s.Text)
		}
	}
	for _, s := range r.Schedule {
		add(s.SQL)
	}
	return out
}
