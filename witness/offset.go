package witness

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
)

// Rows an OFFSET skips. The model reads a row of `SELECT … ORDER BY id
// LIMIT 3 OFFSET 4` as any row the WHERE matches: the four rows the
// engine skips before it are no row symbols, and a replay that seeded
// only the read row found OFFSET skipping it (an independent tester's
// batchfee.ChargePage: NOT REPRODUCED). skippedRows seeds them: copies of
// the read row (which the WHERE matched) placed before it in the read's
// order.

var (
	// offsetClause is the OFFSET of a bound SELECT (`OFFSET 4`, `OFFSET 4 ROWS`).
	offsetClause = regexp.MustCompile(`(?i)\bOFFSET\s+(\d+)`)
	// limitOffset is MySQL's `LIMIT 4, 3` (offset first).
	limitOffset = regexp.MustCompile(`(?i)\bLIMIT\s+(\d+)\s*,\s*\d+`)
)

// maxSkipped bounds the rows seeded for one OFFSET.
const maxSkipped = 100

// boundOffset is the OFFSET of a step's bound SQL (0 for none).
func boundOffset(sql string) int {
	m := offsetClause.FindStringSubmatch(sql)
	if m == nil {
		m = limitOffset.FindStringSubmatch(sql)
	}
	if m == nil {
		return 0
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		return 0
	}
	return n
}

// readOrder is the column whose values order a read's rows and its
// direction: the first ORDER BY term when it is a column, else the
// table's one-column key (InnoDB and SQLite return rows in key order).
func readOrder(s *Schema, sel *sqlir.Select) (col string, desc bool, ok bool) {
	if len(sel.OrderBy) > 0 {
		c, isCol := sel.OrderBy[0].Expr.(*sqlir.ColRef)
		if !isCol {
			return "", false, false
		}
		return strings.ToLower(c.Name), sel.OrderBy[0].Desc, true
	}
	if key := s.Key(sel.Table); len(key) == 1 {
		return strings.ToLower(key[0]), false, true
	}
	return "", false, false
}

// skippedRows adds to rows, before the row each SELECT step with an
// OFFSET k reads first, k copies of that row that come before it in the
// read's order (the ORDER BY column, or the key, shifted by 1, 2, …; the
// key, when another column orders the rows, below every seeded key) and
// seeded before it (insertion order, where the engine keeps it). A
// copy's values are the read row's, which the WHERE matched; notes say
// what was added, or why not.
func (c *Counterexample) skippedRows(s *Schema, d sqlparse.Dialect, rows []Row) ([]Row, []string) {
	var notes []string
	for _, st := range c.Steps {
		k := boundOffset(st.SQL)
		if st.Kind != "sql" || k <= 0 {
			continue
		}
		stmt, err := parseTraceSQL(d, st.Text)
		sel, ok := stmt.(*sqlir.Select)
		if err != nil || !ok || sel.Complex || sel.Table == "" {
			continue
		}
		syms := stepSymbols(st)
		if len(syms) == 0 {
			continue
		}
		at := findRow(s, rows, sel.Table, c.symbolValues(syms[0], st))
		if at < 0 {
			continue
		}
		copies, why := offsetCopies(s, sel, rows, at, min(k, maxSkipped))
		if why != "" {
			notes = append(notes, fmt.Sprintf("the SELECT at %s skips %d row(s) (OFFSET %d) before the row %s it read; none seeded: %s", st.Position, k, k, syms[0], why))
			continue
		}
		rows = append(rows[:at], append(copies, rows[at:]...)...)
		notes = append(notes, fmt.Sprintf("the SELECT at %s skips %d row(s) (OFFSET %d) before the row %s it read: seeded %d copies of it before it in the read's order", st.Position, k, k, syms[0], len(copies)))
	}
	return rows, notes
}

// offsetCopies are n copies of rows[at] ordered before it, or why there
// are none.
func offsetCopies(s *Schema, sel *sqlir.Select, rows []Row, at, n int) ([]Row, string) {
	col, desc, ok := readOrder(s, sel)
	if !ok {
		return nil, "the read's order is no column of the row"
	}
	read := rows[at].Values
	v, err := strconv.ParseInt(read[col], 10, 64)
	if err != nil {
		return nil, "its " + col + " (" + read[col] + ") is no integer"
	}
	key := s.Key(sel.Table)
	keyCol := ""
	if len(key) == 1 {
		keyCol = strings.ToLower(key[0])
	}
	used, low := seededKeys(rows, rows[at].Table, keyCol)
	var out []Row
	for j := int64(1); len(out) < n; j++ {
		w := v - j
		if desc {
			w = v + j
		}
		if col == keyCol && used[strconv.FormatInt(w, 10)] {
			continue
		}
		cp := Row{Table: rows[at].Table, Values: map[string]string{}}
		for c, x := range read {
			cp.Values[c] = x
		}
		cp.Values[col] = strconv.FormatInt(w, 10)
		if keyCol != "" && col != keyCol {
			low--
			cp.Values[keyCol] = strconv.FormatInt(low, 10)
		}
		out = append(out, cp)
	}
	// In the read's order, the farthest first (an engine that returns
	// rows as inserted).
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, ""
}

// seededKeys are the key values of the seeded rows of table and the
// smallest integer among them (0 when none is below 0).
func seededKeys(rows []Row, table, keyCol string) (map[string]bool, int64) {
	used := map[string]bool{}
	var low int64
	if keyCol == "" {
		return used, low
	}
	for _, r := range rows {
		if !strings.EqualFold(r.Table, table) {
			continue
		}
		used[r.Values[keyCol]] = true
		if n, err := strconv.ParseInt(r.Values[keyCol], 10, 64); err == nil && n < low {
			low = n
		}
	}
	return used, low
}
