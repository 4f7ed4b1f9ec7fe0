package pipeline

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/dbverify/dbverify/report"
	"github.com/dbverify/dbverify/sqlir"
)

// UUIDs in counterexamples. The model compares strings by equality only,
// each a code; a trace printed a UUID column's value as the code,
// `user_id = "2"`, which PostgreSQL refuses for a uuid, and a Go string
// the program hands to uuid.Parse was printed as whatever another column
// made of the same code (`userID = "2024-01-01 00:00:00"`, a timestamp:
// an independent tester's adv19 ext), which uuid.Parse refuses. printUUIDs
// prints, before printDates, every value that stands in a UUID column of
// the schema, and every Go input the steps pass to uuid.Parse or
// uuid.MustParse, as a UUID literal that keeps equality: the code n as
// 00000000-0000-4000-8000-<n in 12 hex digits> (a negative one with
// 8 as first digit), a symbolic string strN after them
// (ffffffff-0000-4000-8000-<N>). The same value prints the same way
// wherever it appears as a string.

// uuidText is the UUID literal that stands for key (see dateKey); "" for
// none.
func uuidText(key string) string {
	if n, ok := strings.CutPrefix(key, "n:"); ok {
		x, err := strconv.ParseInt(n, 10, 64)
		if err != nil || x > 1<<47 || x < -(1<<47) {
			return ""
		}
		if x < 0 {
			return fmt.Sprintf("80000000-0000-4000-8000-%012x", -x)
		}
		return fmt.Sprintf("00000000-0000-4000-8000-%012x", x)
	}
	if s, ok := strings.CutPrefix(key, "s:str"); ok {
		x, err := strconv.ParseInt(s, 10, 64)
		if err != nil || x < 0 || x >= 1<<47 {
			return ""
		}
		return fmt.Sprintf("ffffffff-0000-4000-8000-%012x", x)
	}
	return ""
}

// isUUIDType reports whether a column type holds a UUID.
func isUUIDType(typ string) bool {
	t := strings.ToLower(strings.TrimSpace(typ))
	return t == "uuid" || strings.HasPrefix(t, "uuid ") || strings.HasPrefix(t, "uuid(")
}

// uuidParseArg finds the argument of a uuid.Parse or uuid.MustParse call
// on a Go line.
var uuidParseArg = regexp.MustCompile(`\buuid\.(?:Must)?Parse\(\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\)`)

// uuidRenamer collects the values that stand for UUIDs.
type uuidRenamer struct {
	schema *sqlir.Schema
	keys   map[string]bool // the dateKeys of the values printed as UUIDs
}

// isUUIDColumn reports whether column col of table holds UUIDs.
func (u *uuidRenamer) isUUIDColumn(table, col string) bool {
	t := u.schema.Tables[strings.ToLower(table)]
	if t == nil {
		return false
	}
	for _, c := range t.Columns {
		if strings.EqualFold(c.Name, col) {
			return isUUIDType(c.Type)
		}
	}
	return false
}

// note records value v when it stands for a UUID.
func (u *uuidRenamer) note(v string) {
	if k := dateKey(v); k != "" && uuidText(k) != "" {
		u.keys[k] = true
	}
}

// print is v as a UUID literal, quoted, when it stands for one.
func (u *uuidRenamer) print(v string) string {
	k := dateKey(v)
	if !u.keys[k] || (strings.HasPrefix(k, "n:") && !strings.HasPrefix(v, `"`)) {
		return v // (a number: not a string's code)
	}
	return strconv.Quote(uuidText(k))
}

// printUUIDs prints, in the counterexamples of results, the values that
// stand for UUIDs as UUID literals (see above).
func printUUIDs(results []*report.Result, schema *sqlir.Schema) {
	for _, r := range results {
		if r.Counterexample == nil && len(r.InitialRows) == 0 {
			continue
		}
		u := &uuidRenamer{schema: schema, keys: map[string]bool{}}
		rows := resultRows(r)
		tables := symbolTables(r)
		u.collect(r, rows, tables)
		if len(u.keys) == 0 {
			continue
		}
		u.rewrite(r, rows)
	}
}

// collect notes the values of UUID columns in rows and steps, and the
// inputs the steps pass to uuid.Parse.
func (u *uuidRenamer) collect(r *report.Result, rows []*report.Row, tables map[string]string) {
	if u.schema != nil {
		for _, row := range rows {
			for c, v := range row.Values {
				if u.isUUIDColumn(row.Table, c) {
					u.note(v)
				}
			}
		}
	}
	c := r.Counterexample
	if c == nil {
		return
	}
	parsed := map[string]bool{}
	for _, st := range c.Steps {
		for _, m := range uuidParseArg.FindAllStringSubmatch(st.Text, -1) {
			parsed[m[1]] = true
		}
		if u.schema == nil {
			continue
		}
		for name, v := range st.Values {
			if sym, col, ok := strings.Cut(name, "."); ok && tables[sym] != "" && u.isUUIDColumn(tables[sym], col) {
				u.note(v)
			}
		}
	}
	for _, b := range c.Inputs {
		if parsed[b.Name] && strings.HasPrefix(b.Value, `"`) {
			u.note(b.Value)
		}
	}
}

// rewrite prints r's values that stand for UUIDs as UUID literals.
func (u *uuidRenamer) rewrite(r *report.Result, rows []*report.Row) {
	for _, row := range rows {
		for col, v := range row.Values {
			row.Values[col] = u.print(v)
		}
	}
	rewriteValues(r, u.print, func(_, v string) string { return u.print(v) })
	if c := r.Counterexample; c != nil {
		c.Notes = append(c.Notes, "values of UUID columns, and Go strings passed to uuid.Parse, are printed as UUIDs: the model compares them as strings, equal or not, each distinct string a distinct UUID")
	}
}
