package witness

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
)

// The clock. A program that binds time.Now() (or a time it computes from
// it) runs in the model with an arbitrary "now", printed as a timestamp
// after 2024-01-01, and a replay seeded the counterexample's times as the
// trace printed them while the entry, called by the driver, read the
// real clock: a hold "still valid" in the model (expires_at > now) was
// already past at replay, the SELECT found no row, and the replay said
// NOT REPRODUCED with no word on why (independent tester adv17,
// replay_time_now; progs/seats GrowHold). clockRun maps the model's now
// to the replay's: the statements the first execution ran bind the real
// times where the trace binds its own, and every time seeded, and every
// time input, is moved by the difference, which keeps each order
// relation of the counterexample; a time column the trace does not give
// (the model did not track it: filled with a fixed date) is set so that
// the trace's SELECT comparing it with the clock finds its row.

// timeLayout is how traces print a time, and how the driver records a
// bound time.Time (UTC).
const timeLayout = "2006-01-02 15:04:05"

// clockShift is the replay's now minus the model's: the first bound time
// whose value the execution changed, at the step that binds it.
type clockShift struct {
	model, real time.Time
	at          string // the step's position
	// others are the differences of the other clock times bound, when
	// they differ from this one (several readings of the clock the
	// model set apart, which one real clock cannot all match).
	others []string
}

// parseTime reads a time as a trace or the driver prints it (quoted or
// not).
func parseTime(v string) (time.Time, bool) {
	if u, err := strconv.Unquote(v); err == nil {
		v = u
	}
	t, err := time.Parse(timeLayout, v)
	return t, err == nil
}

// shift moves time value v by the clock's difference ("" if v is no
// time).
func (k *clockShift) shift(v string) string {
	t, ok := parseTime(v)
	if !ok {
		return ""
	}
	s := t.Add(k.real.Sub(k.model)).Format(timeLayout)
	if strings.HasPrefix(v, `"`) {
		return strconv.Quote(s)
	}
	return s
}

// clockOf compares the times the trace's sql steps bind with those the
// execution bound (ran, the same statement's same occurrence): nil when
// none differs.
func (c *Counterexample) clockOf(ran []Statement) *clockShift {
	executed := newRanArgs(ran)
	var k *clockShift
	for _, st := range c.Steps {
		if st.Kind != "sql" {
			continue
		}
		args, done := executed.next(st.Text)
		if !done {
			continue
		}
		for i, a := range st.Args {
			model, okM := parseTime(a)
			if i >= len(args) || !okM {
				continue
			}
			real, okR := parseTime(args[i])
			switch {
			case !okR || real.Equal(model):
			case k == nil:
				k = &clockShift{model: model, real: real, at: st.Position}
			case real.Sub(model) != k.real.Sub(k.model):
				k.others = append(k.others, fmt.Sprintf("%s at %s", model.Format(timeLayout), st.Position))
			}
		}
	}
	return k
}

// clockRun is run with the model's clock mapped to the one the execution
// read (ran: its statements), and what it changed; nil when the trace
// binds no time the execution bound otherwise.
func (c *Counterexample) clockRun(d sqlparse.Dialect, s *Schema, run *Run, ran []Statement) (*Run, []string) {
	k := c.clockOf(ran)
	if k == nil {
		return nil, nil
	}
	notes := []string{fmt.Sprintf("the program reads the clock: the trace's now %s (bound at %s) is the replay's %s; every time seeded or passed is moved by as much, which keeps the counterexample's order of times",
		k.model.Format(timeLayout), k.at, k.real.Format(timeLayout))}
	if len(k.others) > 0 {
		notes = append(notes, "the trace binds other clock times at another distance from its now ("+strings.Join(k.others, ", ")+
			"): the replay's clock cannot match them all, so the run may take another path than the trace")
	}
	next := &Run{Inputs: map[string]string{}, Fail: run.Fail, Unordered: run.Unordered, Prune: run.Prune, Facts: run.Facts}
	for name, v := range run.Inputs {
		next.Inputs[name] = v
		if m := k.shift(v); m != "" {
			next.Inputs[name] = m
		}
	}
	given := c.givenColumns()
	for _, r := range run.Rows {
		cp := Row{Table: r.Table, Values: map[string]string{}}
		for col, v := range r.Values {
			cp.Values[col] = v
			if m := k.shift(v); m != "" && given[strings.ToLower(r.Table)+"."+col] {
				cp.Values[col] = m
			}
		}
		next.Rows = append(next.Rows, cp)
	}
	notes = append(notes, c.clockBounds(d, s, k, next.Rows, given)...)
	return next, notes
}

// givenColumns are the columns ("table.col", lower case) the trace gives
// a value in some row of their table.
func (c *Counterexample) givenColumns() map[string]bool {
	out := map[string]bool{}
	for _, r := range c.Rows {
		for col := range r.Values {
			out[strings.ToLower(r.Table)+"."+strings.ToLower(col)] = true
		}
	}
	return out
}

// clockBounds sets the time columns the trace does not give (seeded with
// a fixed date) that a successful SELECT of the trace compares with a
// clock time (expires_at > $2, $2 the model's now) to a time that makes
// the comparison true by a day at the replay's clock, in every seeded row
// of its table (rows changed in place).
func (c *Counterexample) clockBounds(d sqlparse.Dialect, s *Schema, k *clockShift, rows []Row, given map[string]bool) []string {
	var notes []string
	for _, st := range c.Steps {
		if st.Kind != "sql" || st.failed() || st.NoRows {
			continue
		}
		stmt, err := parseTraceSQL(d, st.Text)
		sel, ok := stmt.(*sqlir.Select)
		if err != nil || !ok || sel.Where == nil {
			continue
		}
		table := tableName(s, sel.Table)
		for _, cj := range conjuncts(sel.Where) {
			b, ok := cj.(*sqlir.Binary)
			if !ok {
				continue
			}
			col, op, v, ok := columnBound(b, st.Args)
			model, isTime := parseTime(v)
			if !ok || !isTime || given[strings.ToLower(table)+"."+col] {
				continue
			}
			want := timeSatisfying(op, model.Add(k.real.Sub(k.model)))
			for i := range rows {
				if strings.EqualFold(rows[i].Table, table) {
					rows[i].Values[col] = want
				}
			}
			notes = append(notes, fmt.Sprintf("%s.%s, which the trace does not give, seeded as %s: the SELECT at %s needs %s %s the replay's clock",
				table, col, want, st.Position, col, op))
		}
	}
	return notes
}

// timeSatisfying is a time that makes `col op now` true: now for =, a
// day after or before it for a bound.
func timeSatisfying(op string, now time.Time) string {
	switch op {
	case ">", ">=":
		now = now.Add(24 * time.Hour)
	case "<", "<=":
		now = now.Add(-24 * time.Hour)
	}
	return now.Format(timeLayout)
}

// clocked executes r's run again with the model's clock mapped to the
// replay's (clockRun) when the constraint held and the trace binds a
// time the execution bound otherwise; it returns that run (nil if not
// run) and what it changed.
func (r *Replayed) clocked(ctx context.Context, ex Executor, d sqlparse.Dialect, s *Schema, c *Constraint, pkg, entry string, cex *Counterexample) (*Run, []string) {
	if r.Outcome.Broken() || r.Outcome.Call == nil {
		return nil, nil
	}
	next, why := cex.clockRun(d, s, r.Run, r.Outcome.Call.Statements)
	if next == nil {
		return nil, nil
	}
	o, err := Execute(ctx, ex, d, s, c, pkg, entry, next)
	r.Executions++
	if err != nil {
		return nil, nil
	}
	r.Run, r.Outcome = next, o
	return next, why
}
