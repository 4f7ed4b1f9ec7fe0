package witness

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/dbverify/dbverify/frontend/sqlparse"
)

// Run is one execution: the initial rows and the entry's inputs.
type Run struct {
	Rows   []Row
	Inputs map[string]string
	// Prune deletes the initial rows that break the constraint or a table
	// fact (random states); a replayed counterexample is seeded as is.
	Prune []string
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
	out := &Outcome{Refused: Seed(ctx, ex, run.Rows)}
	for _, q := range run.Prune {
		if err := ex.Exec(ctx, q); err != nil {
			return nil, fmt.Errorf("pruning the initial rows (%s): %w", q, err)
		}
	}
	out.Before = Dump(ctx, ex, c.Table)
	if v, err := Violations(ctx, ex, c); err != nil {
		return nil, err
	} else if len(v) > 0 {
		return nil, fmt.Errorf("the initial state already breaks %s: %s", c.Text, FormatRows(v))
	}
	call, err := ex.Call(ctx, pkg, entry, run.Inputs, c.ViolationQuery())
	if err != nil {
		return nil, fmt.Errorf("calling %s: %w", entry, err)
	}
	out.Call = call
	out.After = Dump(ctx, ex, c.Table)
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
func ReplayRun(cex *Counterexample, s *Schema) (*Run, []string) {
	rows, notes := cex.InitialRows(s)
	for i := range rows {
		fillZero(&rows[i], s)
	}
	return &Run{Rows: rows, Inputs: replayInputs(cex.Inputs)}, notes
}

var lenInput = regexp.MustCompile(`^len\((.+)\)$`)

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
		if i < 0 || !strings.HasSuffix(k, "]") {
			continue
		}
		idx := k[i+1 : len(k)-1]
		if _, err := strconv.Atoi(idx); err == nil {
			continue
		}
		delete(in, k)
		for j := 0; j < lens[k[:i]]; j++ {
			in[k[:i]+"["+strconv.Itoa(j)+"]"] = v
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
		if _, ok := r.Values[n]; ok || col.AutoIncrement {
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
