package witness

import (
	"fmt"
	"math/big"
	"regexp"
	"sort"
	"strings"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
)

// fixedKey says why the trace fixes the key values of table's rows ("" when
// it leaves them free, and a permutation of them changes nothing the
// program sees but the order an engine returns rows in): a composite key,
// a foreign key that references the table, a statement of the trace that
// names the table and a key column (or its rowid), or reads every column
// of it (SELECT *).
func (c *Counterexample) fixedKey(s *Schema, d sqlparse.Dialect, table string) string {
	key := s.Key(table)
	switch {
	case len(key) == 0:
		return "" // no key: insertion order decides
	case len(key) > 1:
		return "a composite key"
	}
	for _, t := range s.Tables {
		for _, fk := range t.ForeignKeys {
			if strings.EqualFold(fk.RefTable, table) {
				return "the foreign key of " + t.Name + " references it"
			}
		}
	}
	names := []string{key[0]}
	if t := s.Table(table); t != nil && t.RowidAlias != "" {
		names = append(names, "rowid", "oid", "_rowid_")
	}
	tableWord := wholeWord(tableName(s, table))
	for _, st := range c.Steps {
		if st.Kind != "sql" || !tableWord.MatchString(st.Text) {
			continue
		}
		stmt, err := parseTraceSQL(d, st.Text)
		if err != nil {
			continue // the Go line of a call, not a statement
		}
		if sel, ok := stmt.(*sqlir.Select); ok && selectsStar(sel) {
			return "SELECT * at " + st.Position
		}
		for _, n := range names {
			if wholeWord(n).MatchString(st.Text) {
				return fmt.Sprintf("%s names %s at %s", firstWord(st.Text), n, st.Position)
			}
		}
	}
	return ""
}

// wholeWord matches name as a whole word, in any case.
func wholeWord(name string) *regexp.Regexp {
	return regexp.MustCompile(`(?i)(^|[^A-Za-z0-9_])` + regexp.QuoteMeta(name) + `($|[^A-Za-z0-9_])`)
}

func selectsStar(sel *sqlir.Select) bool {
	for _, it := range sel.Columns {
		if it.Star {
			return true
		}
	}
	return false
}

// arrange seeds the rows of table in the order first (the rows the trace
// reads, in the order it reads them), then the others as they were, in
// the places the table's rows had among rows; with reassign, the table's
// key values, sorted, follow that order too (the first read row gets the
// smallest). note says what changed ("" if nothing did).
func arrange(s *Schema, rows []Row, table string, first []int, reassign bool) ([]Row, string) {
	var places []int
	for i, r := range rows {
		if strings.EqualFold(r.Table, tableName(s, table)) {
			places = append(places, i)
		}
	}
	order := append([]int(nil), first...)
	for _, i := range places {
		if !containsInt(order, i) {
			order = append(order, i)
		}
	}
	out := append([]Row(nil), rows...)
	for k, i := range places {
		out[i] = copyRow(rows[order[k]])
	}
	var changes []string
	if key := s.Key(table); reassign && len(key) == 1 {
		changes = reassignKeys(out, places, strings.ToLower(key[0]))
	}
	moved := false
	for k, i := range places {
		moved = moved || order[k] != i
	}
	if !moved && len(changes) == 0 {
		return rows, ""
	}
	note := fmt.Sprintf("the rows of %s the trace's SELECTs read are seeded first", rows[places[0]].Table)
	if len(changes) > 0 {
		note += fmt.Sprintf(", with the smallest of the keys the trace leaves free (%s)", strings.Join(changes, ", "))
	}
	return out, note + ": an engine returns the first row a WHERE matches"
}

// reassignKeys gives the rows at places (in that order) the sorted values
// of their key column col; it returns the changes ("id 1 → 0"), none
// when a row has no key value.
func reassignKeys(rows []Row, places []int, col string) []string {
	var keys []string
	for _, i := range places {
		v, ok := rows[i].Values[col]
		if !ok || v == "NULL" {
			return nil
		}
		keys = append(keys, v)
	}
	sort.SliceStable(keys, func(a, b int) bool { return compareValues(keys[a], keys[b]) < 0 })
	var changes []string
	for k, i := range places {
		if old := rows[i].Values[col]; old != keys[k] {
			changes = append(changes, fmt.Sprintf("%s %s → %s", col, old, keys[k]))
			rows[i].Values[col] = keys[k]
		}
	}
	return changes
}

// earlierByKey is a competitor of read rd whose key orders before the
// read row's (-1 if none).
func earlierByKey(s *Schema, rows []Row, rd tableRead) int {
	key := s.Key(rd.table)
	if len(key) == 0 {
		return -1
	}
	for _, i := range competitors(s, rows, rd) {
		for _, k := range key {
			k = strings.ToLower(k)
			if c := compareValues(rows[i].Values[k], rows[rd.row].Values[k]); c != 0 {
				if c < 0 {
					return i
				}
				break
			}
		}
	}
	return -1
}

// compareValues orders two values as numbers when both are, else as
// text.
func compareValues(a, b string) int {
	x, okX := new(big.Rat).SetString(a)
	y, okY := new(big.Rat).SetString(b)
	if okX && okY {
		return x.Cmp(y)
	}
	return strings.Compare(a, b)
}

func copyRow(r Row) Row {
	c := Row{Table: r.Table, Values: make(map[string]string, len(r.Values))}
	for k, v := range r.Values {
		c.Values[k] = v
	}
	return c
}
