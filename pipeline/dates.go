package pipeline

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/report"
	"github.com/dbverify/dbverify/sqlir"
)

// Dates in counterexamples. The model does not know calendars: a DATE,
// TIMESTAMP or TIME column holds a number (ordered, as the engines order
// dates) or a string code (compared by equality), and a trace printed
// such a value as it is, `day = "3"`, which the engine refuses ("invalid
// input syntax for type date"), so a replay could neither seed the row
// nor call the entry (adv8 R3). printDates prints every value that
// stands in a date column of the schema as a date: the number n as
// 2024-01-01 plus n days (a TIME column: 12:00:00 plus n seconds), which
// keeps both the values' order and their equality; a symbolic string
// (str1), which is only compared for equality, as a date after every
// such number. The same value is printed the same way everywhere it
// appears as a string — the Go inputs that flow into the column, the
// rows of other tables, the steps — so the run stays the one the model
// found. A number outside the engines' date range is left as it is.

// dateBase is the date the number 0 stands for.
func dateBase() time.Time { return report.DateBase() }

// maxDateOffset bounds the numbers printed as dates: ±300,000 days
// (years 1203 to 2845) are dates on every engine (MySQL's DATE starts at
// year 1000).
const maxDateOffset = 300_000

// dateKey is what a printed value stands for: "n:<n>" for a number (bare
// or quoted: the model's string code of a decimal text is that number),
// "s:<name>" for a symbolic string; "" for anything else (a literal of
// the program, NULL, a fraction).
func dateKey(v string) string {
	if u, err := strconv.Unquote(v); err == nil && strings.HasPrefix(v, `"`) {
		if n, err := strconv.ParseInt(u, 10, 64); err == nil && strconv.FormatInt(n, 10) == u {
			return "n:" + u
		}
		return ""
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil && strconv.FormatInt(n, 10) == v {
		return "n:" + v
	}
	if strings.HasPrefix(v, "str") && ir.IsDigits(v[len("str"):]) {
		return "s:" + v
	}
	return ""
}

// dateClass is "date" for a column type holding a date (DATE),
// "timestamp" for a date and a time of day (TIMESTAMP, DATETIME), "time"
// for a time of day (TIME), "" otherwise.
func dateClass(typ string) string {
	t := strings.ToLower(typ)
	switch {
	case strings.Contains(t, "timestamp"), strings.Contains(t, "datetime"):
		return "timestamp"
	case strings.Contains(t, "date"):
		return "date"
	case strings.HasPrefix(t, "time"):
		return "time"
	}
	return ""
}

// dateRenamer collects the values that stand in date columns and prints
// them.
type dateRenamer struct {
	schema *sqlir.Schema
	class  map[string]string // key → date class of the first column it stands in
	text   map[string]string // key → its printed date, quoted
}

// columnClass is the date class of column col of table (lower-case names).
func (d *dateRenamer) columnClass(table, col string) string {
	t := d.schema.Tables[strings.ToLower(table)]
	if t == nil {
		return ""
	}
	for _, c := range t.Columns {
		if strings.EqualFold(c.Name, col) {
			return dateClass(c.Type)
		}
	}
	return ""
}

// note records value v of column col of table.
func (d *dateRenamer) note(table, col, v string) {
	cl := d.columnClass(table, col)
	if cl == "" {
		return
	}
	if k := dateKey(v); k != "" && d.class[k] == "" {
		d.class[k] = cl
	}
}

// assign prints the collected values: numbers by their offsets, then
// symbolic strings after the largest number, in name order.
func (d *dateRenamer) assign() {
	var most int64
	var syms []string
	for k, cl := range d.class {
		if n, ok := strings.CutPrefix(k, "n:"); ok {
			x, _ := strconv.ParseInt(n, 10, 64)
			if limit := offsetLimit(cl); x < -limit || x > limit {
				continue
			}
			most = max(most, x)
			d.text[k] = strconv.Quote(dateText(cl, x))
			continue
		}
		syms = append(syms, k)
	}
	slices.SortFunc(syms, func(a, b string) int {
		x, _ := strconv.Atoi(strings.TrimPrefix(a, "s:str"))
		y, _ := strconv.Atoi(strings.TrimPrefix(b, "s:str"))
		return x - y
	})
	for i, k := range syms {
		if x := most + int64(i) + 1; x <= offsetLimit(d.class[k]) {
			d.text[k] = strconv.Quote(dateText(d.class[k], x))
		}
	}
}

// offsetLimit is the largest offset printed in date class cl (a TIME:
// within the day around noon).
func offsetLimit(cl string) int64 {
	if cl == "time" {
		return 43199
	}
	return maxDateOffset
}

// dateText prints offset n (within offsetLimit) in date class cl: a
// TIMESTAMP's value as a time.Time bound to a statement prints
// (report.timestampOf), '2024-01-04 00:00:00', so that a row and the SQL
// that wrote it print one value alike (the row printed "2024-01-04"
// beside renews_at = '2024-01-04 00:00:00').
func dateText(cl string, n int64) string {
	switch cl {
	case "time":
		s := 43200 + n
		return fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60)
	case "timestamp":
		return dateBase().AddDate(0, 0, int(n)).Format("2006-01-02 15:04:05")
	}
	return dateBase().AddDate(0, 0, int(n)).Format("2006-01-02")
}

// inColumn prints value v of a date column (nil-safe on unknown values).
func (d *dateRenamer) inColumn(table, col, v string) string {
	if d.columnClass(table, col) == "" {
		return d.elsewhere(v)
	}
	if t, ok := d.text[dateKey(v)]; ok {
		return t
	}
	return v
}

// elsewhere prints value v outside a date column: a string that stands
// in one as that date, anything else (a number) as it is.
func (d *dateRenamer) elsewhere(v string) string {
	k := dateKey(v)
	if k == "" || (strings.HasPrefix(k, "n:") && !strings.HasPrefix(v, `"`)) {
		return v
	}
	if t, ok := d.text[k]; ok {
		return t
	}
	return v
}

// printDates prints, in the counterexamples of results, the values of
// the schema's date columns as dates (see above).
func printDates(results []*report.Result, schema *sqlir.Schema) {
	if schema == nil {
		return
	}
	for _, r := range results {
		if r.Counterexample == nil && len(r.InitialRows) == 0 {
			continue
		}
		d := &dateRenamer{schema: schema, class: map[string]string{}, text: map[string]string{}}
		rows := resultRows(r)
		tables := symbolTables(r)
		for _, row := range rows {
			for c, v := range row.Values {
				d.note(row.Table, c, v)
			}
		}
		if c := r.Counterexample; c != nil {
			for _, st := range c.Steps {
				for name, v := range st.Values {
					if sym, col, ok := strings.Cut(name, "."); ok && tables[sym] != "" {
						d.note(tables[sym], col, v)
					}
				}
			}
		}
		if len(d.class) == 0 {
			continue
		}
		d.assign()
		if d.collides(r, rows) {
			// A printed date would equal a string of the program: two
			// distinct values of the model would print alike.
			continue
		}
		d.rewrite(r, rows, tables)
	}
}

// collides reports whether a date d prints equals a string value that r
// already shows (a literal of the program).
func (d *dateRenamer) collides(r *report.Result, rows []*report.Row) bool {
	shown := map[string]bool{}
	add := func(v string) {
		// (A time.Time input's timestamp is a number printed as d
		// prints it: the same number, the same instant.)
		if strings.HasPrefix(v, `"`) && dateKey(v) == "" && !report.IsBoundTime(v) {
			shown[v] = true
		}
	}
	for _, row := range rows {
		for _, v := range row.Values {
			add(v)
		}
	}
	if c := r.Counterexample; c != nil {
		for _, b := range append(slices.Clone(c.Inputs), c.Outside...) {
			add(b.Value)
		}
		for _, st := range c.Steps {
			for _, v := range st.Values {
				add(v)
			}
		}
	}
	for _, t := range d.text {
		if shown[t] {
			return true
		}
	}
	return false
}

// resultRows are the rows of r's counterexample: its rows and violation,
// or a concurrent counterexample's initial rows.
func resultRows(r *report.Result) []*report.Row {
	var out []*report.Row
	if c := r.Counterexample; c != nil {
		for i := range c.Rows {
			out = append(out, &c.Rows[i])
		}
		if c.Violation != nil {
			out = append(out, c.Violation)
		}
	}
	for i := range r.InitialRows {
		out = append(out, &r.InitialRows[i])
	}
	return out
}

// symbolTables maps the row symbols of r's counterexample to their
// tables (the watched row "r" to the violation's when it is not listed).
func symbolTables(r *report.Result) map[string]string {
	out := map[string]string{}
	c := r.Counterexample
	if c == nil {
		return out
	}
	for _, row := range c.Rows {
		if row.Symbol != "" {
			out[row.Symbol] = row.Table
		}
	}
	if _, ok := out["r"]; !ok && c.Violation != nil {
		out["r"] = c.Violation.Table
	}
	return out
}

// rewrite prints r's values with d.
func (d *dateRenamer) rewrite(r *report.Result, rows []*report.Row, tables map[string]string) {
	for _, row := range rows {
		for _, c := range slices.Sorted(maps.Keys(row.Values)) {
			row.Values[c] = d.inColumn(row.Table, c, row.Values[c])
		}
	}
	rewriteValues(r, d.elsewhere, func(name, v string) string {
		if sym, col, ok := strings.Cut(name, "."); ok && tables[sym] != "" {
			return d.inColumn(tables[sym], col, v)
		}
		return d.elsewhere(v)
	})
	if len(d.text) == 0 {
		return
	}
	if c := r.Counterexample; c != nil {
		c.Notes = append(c.Notes, "values of DATE, TIMESTAMP and TIME columns are printed as dates: the model compares them as numbers, n standing for 2024-01-01 plus n days (a TIME: 12:00:00 plus n seconds), or as strings equal or not, each one a distinct date")
	}
	for i := range r.Schedule {
		r.Schedule[i].Bound = "" // (bound with the numbers the model compares: the args say the dates)
	}
}
