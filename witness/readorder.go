package witness

import (
	"fmt"
	"math/big"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
)

// A read's order. When a SELECT's WHERE matches two seeded rows (a QueryRow
// by a column that is no key, a VARCHAR compared with a number on MySQL),
// the engine returns the one it finds first — InnoDB in primary-key order
// (of a secondary index: its value, then the primary key), SQLite in rowid
// order (the INTEGER PRIMARY KEY, else insertion order), PostgreSQL in
// heap order (insertion order) — which need not be the row the model
// read. orderReads seeds the row each read step shows first among the
// rows of its table and, when the trace leaves the table's key values
// free (no statement of the trace names the key column, no foreign key
// references the table), gives it the smallest of the table's key values.

// readSymbol is a row symbol a step's values show (s1.used, r.balance).
var readSymbol = regexp.MustCompile(`^(r|s[0-9]+)\.`)

// tableRead is one row a SELECT step of the trace read.
type tableRead struct {
	step   CexStep
	where  sqlir.Expr
	table  string
	symbol string
	row    int // index in the seeded rows
	// sorted: the SELECT has an ORDER BY, which decides the order.
	sorted bool
}

// orderReads reorders rows (the counterexample's initial rows, before
// string codes are decoded) so that each row the trace's SELECTs read is
// the first of its table that the engine returns; unordered are the reads
// whose order the trace's fixed keys leave to the engine.
func (c *Counterexample) orderReads(s *Schema, d sqlparse.Dialect, rows []Row) (out []Row, notes, unordered []string) {
	reads := c.tableReads(s, d, rows)
	out = rows
	for _, table := range readTables(reads) {
		var first []int // the read rows, in the order the trace reads them
		var contested []tableRead
		for _, rd := range reads {
			if !strings.EqualFold(rd.table, table) {
				continue
			}
			if !containsInt(first, rd.row) {
				first = append(first, rd.row)
			}
			if !rd.sorted && len(competitors(s, out, rd)) > 0 {
				contested = append(contested, rd)
			}
		}
		if len(contested) == 0 {
			continue
		}
		fixed := c.fixedKey(s, d, table)
		var note string
		out, note = arrange(s, out, table, first, fixed == "")
		if note != "" {
			notes = append(notes, note)
		}
		if fixed == "" {
			continue
		}
		// The keys kept, the reads find their rows in their new places.
		for _, rd := range c.tableReads(s, d, out) {
			if !strings.EqualFold(rd.table, table) || rd.sorted || len(competitors(s, out, rd)) == 0 {
				continue
			}
			if other := earlierByKey(s, out, rd); other >= 0 {
				unordered = append(unordered, fmt.Sprintf("the SELECT at %s may match seeded rows %s and %s of %s, and the trace fixes their keys (%s: %s): an engine that returns rows in key order returns the second, not the row the trace read (%s)",
					rd.step.Position, FormatRows([]map[string]string{out[rd.row].Values}), FormatRows([]map[string]string{out[other].Values}), out[rd.row].Table, strings.Join(s.Key(table), ", "), fixed, rd.symbol))
			}
		}
	}
	return out, notes, unordered
}

// tableReads are the rows the trace's single-table SELECT steps read, in
// trace order (a step's symbols by number, the watched row r last).
func (c *Counterexample) tableReads(s *Schema, d sqlparse.Dialect, rows []Row) []tableRead {
	var out []tableRead
	for _, st := range c.Steps {
		if st.Kind != "sql" {
			continue
		}
		stmt, err := parseTraceSQL(d, st.Text)
		sel, ok := stmt.(*sqlir.Select)
		if err != nil || !ok || sel.Complex || sel.Table == "" {
			continue
		}
		for _, sym := range stepSymbols(st) {
			vals := c.symbolValues(sym, st)
			if i := findRow(s, rows, sel.Table, vals); i >= 0 {
				out = append(out, tableRead{step: st, where: sel.Where, table: sel.Table, symbol: sym, row: i, sorted: len(sel.OrderBy) > 0})
			}
		}
	}
	return out
}

// stepSymbols are the row symbols whose values a step shows, s1, s2, …
// by number and r last.
func stepSymbols(st CexStep) []string {
	seen := map[string]bool{}
	for k := range st.Values {
		if m := readSymbol.FindStringSubmatch(k); m != nil {
			seen[m[1]] = true
		}
	}
	syms := sortedKeys(seen)
	sort.SliceStable(syms, func(i, j int) bool { return symbolRank(syms[i]) < symbolRank(syms[j]) })
	return syms
}

func symbolRank(sym string) int {
	if n, err := strconv.Atoi(strings.TrimPrefix(sym, "s")); err == nil && sym != "r" {
		return n
	}
	return int(^uint(0) >> 1)
}

// symbolValues are a symbol's values as InitialRows seeds them: the
// counterexample's row of that symbol, or else the values the step shows.
func (c *Counterexample) symbolValues(sym string, st CexStep) map[string]string {
	for _, cr := range c.Rows {
		if cr.Symbol == sym {
			return seedValues(cr.Values)
		}
	}
	vals := map[string]string{}
	for k, v := range st.Values {
		if col, ok := strings.CutPrefix(k, sym+"."); ok {
			vals[col] = v
		}
	}
	return seedValues(vals)
}

// seedValues are a row symbol's values as seeded: model columns ($exists,
// …) dropped, strings the trace shows quoted unquoted, column names in
// lower case.
func seedValues(values map[string]string) map[string]string {
	vals := map[string]string{}
	for k, v := range values {
		if strings.HasPrefix(k, "$") {
			continue
		}
		if u, err := strconv.Unquote(v); err == nil && strings.HasPrefix(v, `"`) {
			v = u
		}
		vals[strings.ToLower(k)] = v
	}
	return vals
}

// findRow is the index of the seeded row of table that holds vals: the
// same key or, without one, the same values; -1 if none.
func findRow(s *Schema, rows []Row, table string, vals map[string]string) int {
	key := s.Key(table)
	for i, r := range rows {
		if !strings.EqualFold(r.Table, tableName(s, table)) {
			continue
		}
		if len(key) > 0 && sameKey(key, r.Values, vals) || len(key) == 0 && holds(r.Values, vals) {
			return i
		}
	}
	return -1
}

// holds reports whether row has every value of vals.
func holds(row, vals map[string]string) bool {
	for k, v := range vals {
		if row[k] != v {
			return false
		}
	}
	return len(vals) > 0
}

// competitors are the other seeded rows of a read's table that its WHERE
// may match too: each equality of a column with an argument or a literal
// holds on them if it does on the read row (equal values, equal as
// numbers, or equal but for case and trailing blanks, as a collation or
// a numeric comparison may make them).
func competitors(s *Schema, rows []Row, rd tableRead) []int {
	var out []int
	read := rows[rd.row].Values
	for i, r := range rows {
		if i == rd.row || !strings.EqualFold(r.Table, rows[rd.row].Table) {
			continue
		}
		if mayMatchAlike(rd.where, read, r.Values) {
			out = append(out, i)
		}
	}
	return out
}

func mayMatchAlike(where sqlir.Expr, read, other map[string]string) bool {
	if where == nil {
		return true
	}
	for _, cj := range conjuncts(where) {
		b, ok := cj.(*sqlir.Binary)
		if !ok || b.Op != sqlir.OpEq {
			continue
		}
		col := equalityColumn(b)
		a, okA := read[col]
		o, okO := other[col]
		if col != "" && okA && okO && !looselyEqual(a, o) {
			return false
		}
	}
	return true
}

// equalityColumn is the column a comparison with a placeholder or a
// literal names ("" if it is not one).
func equalityColumn(b *sqlir.Binary) string {
	for _, pair := range [][2]sqlir.Expr{{b.X, b.Y}, {b.Y, b.X}} {
		c, isCol := pair[0].(*sqlir.ColRef)
		switch pair[1].(type) {
		case *sqlir.Param, *sqlir.Num, *sqlir.Str:
			if isCol {
				return strings.ToLower(c.Name)
			}
		}
	}
	return ""
}

func looselyEqual(a, b string) bool {
	if strings.EqualFold(strings.TrimRight(a, " "), strings.TrimRight(b, " ")) {
		return true
	}
	x, okX := new(big.Rat).SetString(strings.TrimSpace(a))
	y, okY := new(big.Rat).SetString(strings.TrimSpace(b))
	return okX && okY && x.Cmp(y) == 0
}

// readTables are the tables of the reads, in order of first read.
func readTables(reads []tableRead) []string {
	var out []string
	seen := map[string]bool{}
	for _, rd := range reads {
		if t := strings.ToLower(rd.table); !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
