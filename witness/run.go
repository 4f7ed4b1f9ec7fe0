package witness

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
)

// Run is one execution: the initial rows and the entry's inputs.
type Run struct {
	Rows   []Row
	Inputs map[string]string
	// Fail lists the statement runs that must fail (a replayed trace
	// where a database call returns an error).
	Fail []Failure
	// Prune deletes the initial rows that break the constraint or a table
	// fact (random states); a replayed counterexample is seeded as is.
	Prune []string
	// Unordered are the trace's reads whose row the seeding could not
	// make the one the engine returns first: another seeded row may
	// match the read's WHERE, and the trace fixes the keys that decide
	// which row comes first (see orderReads).
	Unordered []string
	// Facts are what the check assumed of every initial row besides the
	// constraint (the run's --assume facts, its other constraints): a
	// replay whose seeded rows break one is refused, not run (adv19
	// insert-select-assume said REPRODUCED from a products row priced -1
	// against --assume "products.price >= 0").
	Facts []*Constraint
}

// Outcome is what an execution did.
type Outcome struct {
	// Refused are the initial rows the database did not accept.
	Refused []string
	// Before and After are the constraint table's rows around the call.
	Before, After []map[string]string
	Call          *CallResult
	// Violations are the rows breaking the constraint after the call.
	Violations []map[string]string
}

// Broken reports whether the constraint broke: at a commit point during
// the call or after it.
func (o *Outcome) Broken() bool {
	return len(o.Violations) > 0 || (o.Call != nil && o.Call.Violation != "")
}

// Execute resets the database, seeds the run's rows, calls the entry and
// checks the constraint. The error is a failure of the harness (the
// database could not be reset, the driver died), not of the entry.
func Execute(ctx context.Context, ex Executor, d sqlparse.Dialect, s *Schema, c *Constraint, pkg, entry string, run *Run) (*Outcome, error) {
	if err := Reset(ctx, ex, d, s); err != nil {
		return nil, fmt.Errorf("resetting the database: %w", err)
	}
	out := &Outcome{Refused: Seed(ctx, ex, d, s, run.Rows)}
	for _, q := range run.Prune {
		if err := ex.Exec(ctx, q); err != nil {
			return nil, fmt.Errorf("pruning the initial rows (%s): %w", q, err)
		}
	}
	out.Before = Dump(ctx, ex, c.from())
	if v, err := Violations(ctx, ex, c); err != nil {
		return nil, err
	} else if len(v) > 0 {
		return nil, fmt.Errorf("the initial state already breaks %s: %s", c.Text, FormatRows(v))
	}
	if err := checkFacts(ctx, ex, run.Facts); err != nil {
		return nil, err
	}
	call, err := ex.Call(ctx, pkg, entry, run.Inputs, c.ViolationQuery(), run.Fail)
	if err != nil {
		return nil, fmt.Errorf("calling %s: %w", entry, err)
	}
	out.Call = call
	out.After = Dump(ctx, ex, c.from())
	v, err := Violations(ctx, ex, c)
	if err != nil {
		return nil, err
	}
	out.Violations = v
	return out, nil
}

// Describe prints a run and its outcome in a few lines.
func Describe(run *Run, out *Outcome) string {
	var b strings.Builder
	fmt.Fprintf(&b, "inputs %s", FormatRows([]map[string]string{run.Inputs}))
	for _, f := range run.Fail {
		fmt.Fprintf(&b, "; failing run %d of %s", f.N, f.Text)
	}
	if out == nil {
		return b.String()
	}
	fmt.Fprintf(&b, "; before %s", FormatRows(out.Before))
	if out.Call != nil {
		e := out.Call.Err
		if e == "" {
			e = "nil"
		}
		if i := strings.Index(e, "\n"); i >= 0 {
			e = e[:i]
		}
		fmt.Fprintf(&b, "; returned %s", e)
	}
	fmt.Fprintf(&b, "; after %s", FormatRows(out.After))
	if out.Call != nil && out.Call.Violation != "" {
		fmt.Fprintf(&b, "; VIOLATED %s", out.Call.Violation)
	}
	if len(out.Violations) > 0 {
		fmt.Fprintf(&b, "; VIOLATED at the end by %s", FormatRows(out.Violations))
	}
	if len(out.Refused) > 0 {
		fmt.Fprintf(&b, "; refused rows: %s", strings.Join(out.Refused, " | "))
	}
	return b.String()
}

// ReplayRun is the run of a counterexample: its initial rows (symbols
// merged by key, missing columns filled with their type's zero) and its
// inputs.
//
// dbverify models strings as integer codes (ir.StringCode); a value that is
// the code of one of strs (the program's strings) is replaced by that
// string. A value of a date/time column that is not a date (the model
// treats timestamps as numbers) becomes a fixed date.
func ReplayRun(cex *Counterexample, s *Schema, d sqlparse.Dialect, strs []string) (*Run, []string) {
	dec := stringDecoder(strs)
	rows, notes := cex.InitialRows(s)
	rows = append(rows, cex.stepRows(s, d, rows)...)
	rows, orderNotes, unordered := cex.orderReads(s, d, rows)
	notes = append(notes, orderNotes...)
	rows, skipNotes := cex.skippedRows(s, d, rows)
	notes = append(notes, skipNotes...)
	for i := range rows {
		fillZero(&rows[i], s)
		t := s.Table(rows[i].Table)
		if t != nil {
			for _, col := range t.Columns {
				if _, ok := rows[i].Values[strings.ToLower(col.Name)]; ok && col.Generated != "" {
					// The engine computes it; the model's value must agree.
					delete(rows[i].Values, strings.ToLower(col.Name))
					notes = append(notes, fmt.Sprintf("%s.%s is generated (%s): seeded by the engine", t.Name, col.Name, col.Generated))
				}
			}
		}
		for col, v := range rows[i].Values {
			if str, ok := dec[v]; ok {
				rows[i].Values[col] = str
			}
			if t != nil && ColumnClass(columnType(t, col)) == ClassTime && v != "NULL" && !looksLikeTime(v) {
				rows[i].Values[col] = zeroOf(ClassTime)
				notes = append(notes, fmt.Sprintf("%s.%s = %s is not a date: seeded as %s", t.Name, col, v, zeroOf(ClassTime)))
			}
		}
	}
	return &Run{Rows: rows, Inputs: DriverInputs(cex, strs), Fail: cex.Failures(), Unordered: unordered}, notes
}

// DriverInputs are the driver's inputs of a counterexample's call: its
// inputs by the driver's paths (a slice's length and elements), the text
// inputs whose parsed value the trace shows, and an HTTP handler's
// request (path, query and form values, the JSON body) read off the
// steps. A value that is the code of one of strs is that string (strs
// nil: strings stay their codes, as a concurrent replay seeds them),
// except a canonical integer's text, which is its own code: it stays a
// number, which a string input reads as its text and an integer input
// as its value (quoting it would make `orderID int64` the text "0").
func DriverInputs(cex *Counterexample, strs []string) map[string]string {
	dec := stringDecoder(strs)
	in := replayInputs(cex.Inputs)
	for k, v := range in {
		if str, ok := dec[v]; ok && str != v {
			in[k] = strconv.Quote(str)
		}
	}
	if len(cex.Clock) > 0 {
		in[ClockInput] = strings.Join(cex.Clock, ",")
	}
	for k, v := range ParsedInputs(in, cex.Steps) {
		in[k] = v
	}
	for k, v := range HTTPInputs(in, cex.Steps) {
		if str, ok := dec[v]; ok && str != v && strings.HasPrefix(k, JSONFieldPrefix) {
			v = strconv.Quote(str) // a body field's string, by its code
		}
		in[k] = v
	}
	return in
}

func stringDecoder(strs []string) map[string]string {
	m := map[string]string{}
	for _, s := range strs {
		m[ir.StringCode(s).V.String()] = s
	}
	return m
}

func columnType(t *sqlir.Table, col string) string {
	for _, c := range t.Columns {
		if strings.EqualFold(c.Name, col) {
			return c.Type
		}
	}
	return ""
}

func looksLikeTime(v string) bool { return strings.Count(v, "-") >= 2 || strings.Contains(v, ":") }

var (
	lenInput   = regexp.MustCompile(`^len\((.+)\)$`)
	identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// replayInputs maps a counterexample's input names to the driver's paths:
// "len(ids)" is ids.len and "ids[i]" (one arbitrary element) is every
// element.
func replayInputs(cex map[string]string) map[string]string {
	in := map[string]string{}
	lens := map[string]int{}
	for k, v := range cex {
		if m := lenInput.FindStringSubmatch(k); m != nil {
			n, _ := strconv.Atoi(v)
			lens[m[1]] = n
			in[m[1]+".len"] = v
			continue
		}
		in[k] = v
	}
	for k, v := range cex {
		i := strings.Index(k, "[")
		if i < 0 {
			continue
		}
		end := strings.Index(k[i:], "]")
		if end < 0 {
			continue
		}
		idx, rest := k[i+1:i+end], k[i+end+1:]
		if _, isSlice := lens[k[:i]]; !isSlice || !identifier.MatchString(idx) {
			// A concrete index, or a map's key (`Vars(_)["id"]`).
			continue
		}
		delete(in, k)
		for j := 0; j < lens[k[:i]]; j++ {
			in[k[:i]+"["+strconv.Itoa(j)+"]"+rest] = v
		}
	}
	return in
}

func fillZero(r *Row, s *Schema) {
	t := s.Table(r.Table)
	if t == nil {
		return
	}
	for _, col := range t.Columns {
		n := strings.ToLower(col.Name)
		if _, ok := r.Values[n]; ok || col.AutoIncrement || col.Generated != "" {
			continue
		}
		r.Values[n] = zeroOf(ColumnClass(col.Type))
	}
}

func zeroOf(class string) string {
	switch class {
	case ClassText:
		return ""
	case ClassTime:
		return "2026-01-01 00:00:00"
	}
	return "0"
}

// Variants are other runs close to a counterexample's that execution may
// need when the exact one does not break the constraint: its rows seeded
// in the reverse order (without a key, which row a SELECT returns first is
// the engine's choice), and its rows copied under every integer input value
// as key (a row the trace relies on but does not list).
func Variants(run *Run, s *Schema) []*Run {
	var out []*Run
	if len(run.Rows) > 1 {
		rev := make([]Row, len(run.Rows))
		for i, r := range run.Rows {
			rev[len(run.Rows)-1-i] = r
		}
		out = append(out, &Run{Rows: rev, Inputs: run.Inputs, Fail: run.Fail})
	}
	var keyVals []string
	for _, k := range sortedKeys(run.Inputs) {
		if _, err := strconv.ParseInt(run.Inputs[k], 10, 64); err == nil {
			keyVals = append(keyVals, run.Inputs[k])
		}
	}
	// The key values of a table's rows rotated: which row an index scan
	// returns first follows the key.
	if rot := rotateKeys(run.Rows, s); rot != nil {
		out = append(out, &Run{Rows: rot, Inputs: run.Inputs, Fail: run.Fail})
	}
	rows := append([]Row(nil), run.Rows...)
	for _, r := range run.Rows {
		key := s.Key(r.Table)
		if len(key) != 1 {
			continue
		}
		for _, v := range keyVals {
			c := Row{Table: r.Table, Values: map[string]string{}}
			for col, x := range r.Values {
				c.Values[col] = x
			}
			c.Values[strings.ToLower(key[0])] = v
			if !hasKey(rows, s, c) {
				rows = append(rows, c)
			}
		}
	}
	if len(rows) > len(run.Rows) {
		out = append(out, &Run{Rows: rows, Inputs: run.Inputs, Fail: run.Fail})
	}
	return out
}

// hasKey reports whether rows has a row of r's table with r's key.
func hasKey(rows []Row, s *Schema, r Row) bool {
	for _, h := range rows {
		if strings.EqualFold(h.Table, r.Table) && sameKey(s.Key(r.Table), h.Values, r.Values) {
			return true
		}
	}
	return false
}

func rotateKeys(rows []Row, s *Schema) []Row {
	out := make([]Row, len(rows))
	changed := false
	byTable := map[string][]int{}
	for i, r := range rows {
		out[i] = Row{Table: r.Table, Values: map[string]string{}}
		for k, v := range r.Values {
			out[i].Values[k] = v
		}
		byTable[strings.ToLower(r.Table)] = append(byTable[strings.ToLower(r.Table)], i)
	}
	for t, idx := range byTable {
		tb := s.Table(t)
		if tb == nil || len(idx) < 2 {
			continue
		}
		var key string
		if k := s.Key(t); len(k) == 1 {
			key = strings.ToLower(k[0])
		} else {
			for _, c := range tb.Columns {
				if c.AutoIncrement {
					key = strings.ToLower(c.Name)
				}
			}
		}
		if key == "" {
			continue
		}
		for j, i := range idx {
			from := idx[(j+1)%len(idx)]
			if v, ok := rows[from].Values[key]; ok {
				out[i].Values[key] = v
				changed = true
			}
		}
	}
	if !changed {
		return nil
	}
	return out
}

// checkFacts returns an error naming the first fact the seeded rows
// break: the run is not one the check allowed.
func checkFacts(ctx context.Context, ex Executor, facts []*Constraint) error {
	for _, f := range facts {
		v, err := Violations(ctx, ex, f)
		if err != nil {
			return fmt.Errorf("checking the seeded rows against %s: %w", f.Text, err)
		}
		if len(v) > 0 {
			return fmt.Errorf("the seeded rows break %s, which the check assumed of every initial row: %s (the counterexample starts from a state the check excludes)", f.Text, FormatRows(v))
		}
	}
	return nil
}

// pruneQueries are the queries deleting the rows that break facts.
func pruneQueries(facts []*Constraint) []string {
	var out []string
	for _, f := range facts {
		out = append(out, f.PruneQuery())
	}
	return out
}
