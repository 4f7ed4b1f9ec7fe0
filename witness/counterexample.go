package witness

import (
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
)

// Counterexample is the part of dbverify's JSON counterexample a replay
// uses.
type Counterexample struct {
	Inputs map[string]string `json:"inputs"`
	// Clock are the instants the path's time.Now() calls read
	// (nanoseconds since 1970, in call order), which the driver sets.
	Clock     []string  `json:"clock"`
	Rows      []CexRow  `json:"rows"`
	Steps     []CexStep `json:"steps"`
	Violation *CexRow   `json:"violation"`
}

// CexRow is one row symbol's initial values.
type CexRow struct {
	Symbol string            `json:"symbol"`
	Table  string            `json:"table"`
	Values map[string]string `json:"values"`
}

// CexStep is one step of the path.
type CexStep struct {
	Position string            `json:"position"`
	Kind     string            `json:"kind"`
	Text     string            `json:"text"`
	Values   map[string]string `json:"values"`
	// SQL is the statement with its arguments bound, as the trace shows
	// it (a SELECT's OFFSET 4).
	SQL string `json:"sql,omitempty"`
	// Args are the values the statement binds, as the trace prints them
	// (a time.Time as a quoted timestamp).
	Args []string `json:"args,omitempty"`
	// NoRows: the step's query failed because no row matched.
	NoRows bool `json:"no_rows,omitempty"`
	// Request names the request a step of a concurrent counterexample
	// belongs to ("A"; its values are named "A.amount").
	Request string `json:"request,omitempty"`
	// Fails: the step's database operation failed (its error result,
	// which the frontend marks whatever the program names it).
	Fails bool `json:"fails,omitempty"`
}

// failed reports whether the step's database operation failed: Fails,
// or, in a report that predates it, a value named err that is true.
func (st CexStep) failed() bool {
	return st.Fails || st.Values["err"] == "true"
}

// OfRequest is the part of a concurrent counterexample that is request
// name's: its inputs and its steps, their names without the request's
// prefix ("A.amount" → "amount"); the values a step shows of other
// symbols (rows) stay as they are. A replay reads a request's HTTP body,
// parsed text inputs and slices from it as from a sequential
// counterexample.
func (c *Counterexample) OfRequest(name string) *Counterexample {
	prefix := name + "."
	out := &Counterexample{Inputs: map[string]string{}}
	for k, v := range c.Inputs {
		if rest, ok := strings.CutPrefix(k, prefix); ok {
			out.Inputs[rest] = v
		}
	}
	for _, st := range c.Steps {
		if st.Request != name {
			continue
		}
		vals := map[string]string{}
		for k, v := range st.Values {
			vals[strings.TrimPrefix(k, prefix)] = v
		}
		st.Values = vals
		out.Steps = append(out.Steps, st)
	}
	return out
}

// InitialRows merges the counterexample's row symbols into database rows:
// symbols of one table with equal key values are one row (the key from the
// schema; without one, symbols with identical values are one row). Model
// columns ($exists, …) are dropped. notes says what was merged or
// conflicted.
func (c *Counterexample) InitialRows(s *Schema) (rows []Row, notes []string) {
	type group struct {
		row     Row
		symbols []string
	}
	var groups []*group
	// r's values win a merge: a read symbol's values may be those it had
	// when read (after an earlier write of the run).
	for _, cr := range c.Rows {
		vals := map[string]string{}
		for k, v := range cr.Values {
			if strings.HasPrefix(k, "$") {
				continue
			}
			if u, err := strconv.Unquote(v); err == nil && strings.HasPrefix(v, `"`) {
				v = u // a string the trace shows quoted ("pending")
			}
			vals[strings.ToLower(k)] = v
		}
		if ex, ok := cr.Values["$exists"]; ok && (ex == "false" || ex == "0") {
			continue
		}
		key := s.Key(cr.Table)
		if c.readAfterInsert(key, cr, vals) {
			notes = append(notes, "symbol "+cr.Symbol+" is the row the run inserted before reading it, not an initial row")
			continue
		}
		var into *group
		for _, g := range groups {
			if !strings.EqualFold(g.row.Table, cr.Table) {
				continue
			}
			if sameKey(key, g.row.Values, vals) {
				into = g
				break
			}
		}
		if into == nil {
			groups = append(groups, &group{row: Row{Table: tableName(s, cr.Table), Values: vals}, symbols: []string{cr.Symbol}})
			continue
		}
		into.symbols = append(into.symbols, cr.Symbol)
		for k, v := range vals {
			if old, ok := into.row.Values[k]; ok && old != v {
				notes = append(notes, "symbols "+strings.Join(into.symbols, ",")+" share a key but differ in "+k+" ("+old+" vs "+v+"); kept "+old)
				continue
			}
			into.row.Values[k] = v
		}
	}
	// The rows the program reads (s1, s2, …) before the watched row r:
	// without a key, an engine's scan returns rows in insertion order, and
	// the trace's SELECT read its own symbol.
	var last []Row
	for _, g := range groups {
		if len(g.symbols) > 1 {
			notes = append(notes, "row symbols "+strings.Join(g.symbols, ", ")+" are one row of "+g.row.Table)
		}
		if g.symbols[0] == "r" {
			last = append(last, g.row)
			continue
		}
		rows = append(rows, g.row)
	}
	return append(rows, last...), notes
}

// insertInto matches an INSERT statement and its table.
var insertInto = regexp.MustCompile(`(?i)^\s*INSERT\s+(?:OR\s+\w+\s+|IGNORE\s+)?INTO\s+["` + "`" + `]?(\w+)`)

// readAfterInsert reports whether read symbol cr (values vals) holds a row
// the run itself inserted before reading it: an INSERT step into its table
// earlier in the trace gave the watched row r the same key. Seeding it as
// an initial row would make that INSERT fail (a generated program read
// back its own inserted row, and the replay started from a state that
// already broke the constraint).
func (c *Counterexample) readAfterInsert(key []string, cr CexRow, vals map[string]string) bool {
	if len(key) == 0 || cr.Symbol == "r" {
		return false
	}
	var inserted []map[string]string
	prefix := cr.Symbol + "."
	for _, st := range c.Steps {
		for k := range st.Values {
			if strings.HasPrefix(k, prefix) {
				for _, ins := range inserted {
					if sameKey(key, ins, vals) {
						return true
					}
				}
				return false
			}
		}
		m := insertInto.FindStringSubmatch(st.Text)
		if st.Kind != "sql" || m == nil || !strings.EqualFold(m[1], cr.Table) {
			continue
		}
		ins := map[string]string{}
		for k, v := range st.Values {
			if col, ok := strings.CutPrefix(k, "r."); ok && !strings.HasPrefix(col, "$") {
				ins[strings.ToLower(col)] = v
			}
		}
		if len(ins) > 0 {
			inserted = append(inserted, ins)
		}
	}
	return false
}

func tableName(s *Schema, t string) string {
	if tb := s.Table(t); tb != nil {
		return tb.Name
	}
	return t
}

func sameKey(key []string, a, b map[string]string) bool {
	if len(key) == 0 {
		if len(a) != len(b) {
			return false
		}
		for k, v := range a {
			if b[k] != v {
				return false
			}
		}
		return true
	}
	for _, k := range key {
		va, oka := a[strings.ToLower(k)]
		vb, okb := b[strings.ToLower(k)]
		if !oka || !okb || va != vb {
			return false
		}
	}
	return true
}

// FailingCalls lists the steps where the trace makes a database call fail
// (err = true on a sql step): execution cannot force those.
func (c *Counterexample) FailingCalls() []string {
	var out []string
	for _, st := range c.Steps {
		if st.Kind == "sql" && st.failed() {
			out = append(out, st.Position+": "+st.Text)
		}
	}
	return out
}

// InputNames lists the counterexample's inputs in order.
func (c *Counterexample) InputNames() []string {
	names := make([]string, 0, len(c.Inputs))
	for k := range c.Inputs {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// stepRows are rows for the symbols the trace reads (s1.cost in a SELECT
// step's values) that the counterexample's rows do not list: the values
// the step shows, in the table of the step's SELECT. have are the rows
// already known; a symbol whose key matches one of them adds nothing.
func (c *Counterexample) stepRows(s *Schema, d sqlparse.Dialect, have []Row) []Row {
	listed := map[string]bool{}
	listedTable := map[string]bool{}
	for _, r := range c.Rows {
		listed[r.Symbol] = true
		listedTable[strings.ToLower(r.Table)] = true
	}
	var out []Row
	done := map[string]bool{}
	for i, st := range c.Steps {
		if st.Kind != "sql" {
			continue
		}
		stmt, err := sqlparse.Parse(d, namedParam.ReplaceAllString(st.Text, "?"))
		sel, ok := stmt.(*sqlir.Select)
		if err != nil || !ok || sel.Complex || sel.Table == "" {
			continue
		}
		vals := map[string]map[string]string{}
		hasSym := false
		for k, v := range st.Values {
			sym, col, ok := strings.Cut(k, ".")
			if ok && symbolName.MatchString(sym) {
				hasSym = true
			}
			if !ok || listed[sym] || done[sym] || strings.HasPrefix(col, "$") || !symbolName.MatchString(sym) {
				continue
			}
			if vals[sym] == nil {
				vals[sym] = map[string]string{}
			}
			vals[sym][strings.ToLower(col)] = v
		}
		if !hasSym && !listedTable[strings.ToLower(sel.Table)] {
			out = append(out, c.unlistedRead(s, sel, st, c.scanTargets(i))...)
			continue
		}
		for _, sym := range sortedKeys(vals) {
			done[sym] = true
			r := Row{Table: tableName(s, sel.Table), Values: vals[sym]}
			dup := false
			for _, h := range append(have, out...) {
				if strings.EqualFold(h.Table, r.Table) && sameKey(s.Key(r.Table), h.Values, r.Values) {
					dup = true
				}
			}
			if !dup {
				out = append(out, r)
			}
		}
	}
	return out
}

var symbolName = regexp.MustCompile(`^s[0-9]+$`)

// scanArgs are the arguments of a Scan call: `.Scan(&bal, &n)`.
var scanArgs = regexp.MustCompile(`\.Scan\(([^()]*)\)`)

// scanTargets are the variables the Scan on the line of sql step i reads
// the row into, in order ("bal" of `….Scan(&bal)`; a field `&acct.Balance`
// is acct.Balance), nil when no step of that line scans.
func (c *Counterexample) scanTargets(i int) []string {
	for _, st := range c.Steps[i:] {
		if st.Position != c.Steps[i].Position {
			break
		}
		m := scanArgs.FindStringSubmatch(st.Text)
		if m == nil {
			continue
		}
		var out []string
		for _, a := range strings.Split(m[1], ",") {
			out = append(out, strings.TrimPrefix(strings.TrimSpace(a), "&"))
		}
		return out
	}
	return nil
}

// Failures are the database calls the trace makes fail (err = true on a
// sql step), as statement runs for the driver to fail. A SELECT whose
// failure the trace says is "no row" (NoRows) returns no row instead, so
// the program's Scan gets sql.ErrNoRows; any other fails with an error,
// as the trace says (a replay follows the counterexample).
func (c *Counterexample) Failures() []Failure {
	var out []Failure
	seen := map[string]int{}
	for _, st := range c.Steps {
		if st.Kind != "sql" {
			continue
		}
		k := strings.Join(strings.Fields(st.Text), " ")
		seen[k]++
		if st.failed() {
			out = append(out, Failure{Text: st.Text, N: seen[k], NoRows: st.NoRows && isSelect(st.Text)})
		}
	}
	return out
}

// unlistedRead builds rows for a SELECT whose row the trace does not list
// as a symbol (a table the constraint does not name): the selected columns
// take the values of the step's variables of the same name, and the key
// each integer input value (the trace does not say which one the WHERE
// binds). A column is read into the Go variable of the same name or, by
// position, into the Scan target the statement's line names (scan).
func (c *Counterexample) unlistedRead(s *Schema, sel *sqlir.Select, st CexStep, scan []string) []Row {
	vals := map[string]string{}
	for i, it := range sel.Columns {
		col, ok := it.Expr.(*sqlir.ColRef)
		if it.Star || !ok {
			continue
		}
		for k, v := range st.Values {
			if strings.EqualFold(k, col.Name) || strings.EqualFold(k, it.Alias) {
				vals[strings.ToLower(col.Name)] = v
			}
		}
		if _, done := vals[strings.ToLower(col.Name)]; !done && len(scan) == len(sel.Columns) {
			if v, ok := st.Values[scan[i]]; ok {
				vals[strings.ToLower(col.Name)] = v
			}
		}
	}
	if len(vals) == 0 {
		return nil
	}
	key := s.Key(sel.Table)
	if len(key) != 1 {
		return []Row{{Table: tableName(s, sel.Table), Values: vals}}
	}
	var out []Row
	for _, name := range c.InputNames() {
		v := c.Inputs[name]
		if !isInt(v) {
			continue
		}
		r := Row{Table: tableName(s, sel.Table), Values: map[string]string{strings.ToLower(key[0]): v}}
		for k, x := range vals {
			r.Values[k] = x
		}
		out = append(out, r)
	}
	return out
}

func isInt(v string) bool {
	if v == "" {
		return false
	}
	for i, ch := range v {
		if !(ch >= '0' && ch <= '9' || (i == 0 && ch == '-')) {
			return false
		}
	}
	return true
}
