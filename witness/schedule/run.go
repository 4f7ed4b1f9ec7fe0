package schedule

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dbverify/dbverify/sqlparse"
	"github.com/dbverify/dbverify/witness"
	"github.com/dbverify/dbverify/witness/schedule/gate"
)

// Timing bounds a run's waits.
type Timing struct {
	// Short: a granted operation that takes longer is asked about (does
	// its session wait for a lock?).
	Short time.Duration
	// Long: how long a step waits for its request to reach the operation,
	// or for a slow operation to be confirmed waiting.
	Long time.Duration
	// Limit: how long the requests may take to finish after the steps.
	Limit time.Duration
	// Settle: how long no operation must arrive before a step of a given
	// schedule is granted (the goroutines of a request then number their
	// operations in a stable order).
	Settle time.Duration
}

// DefaultTiming suits a local throwaway server.
var DefaultTiming = Timing{Short: 60 * time.Millisecond, Long: 4 * time.Second, Limit: 20 * time.Second, Settle: 30 * time.Millisecond}

// Outcome is what a concurrent run did.
type Outcome struct {
	// Refused are initial rows the database did not accept.
	Refused  []string         `json:"refused,omitempty"`
	Requests []RequestOutcome `json:"requests"`
	// Steps is what each step of a given schedule did (empty for a random
	// run).
	Steps []gate.StepRecord `json:"steps,omitempty"`
	// Violations are the constraint's violations found after commit points
	// ("B4 commit": after B's 4th operation, a COMMIT).
	Violations []Violation `json:"violations,omitempty"`
	// FinalViolations are the rows breaking the constraint at the end.
	FinalViolations []map[string]string `json:"final_violations,omitempty"`
	// Final are the tables' rows at the end, by table.
	Final map[string][]map[string]string `json:"final_rows"`
	// Problems: where the run did not follow the schedule or did not end.
	Problems []string `json:"problems,omitempty"`
}

// RequestOutcome is how one request ended and the operations it ran.
type RequestOutcome struct {
	Request string `json:"request"`
	Entry   string `json:"entry"`
	// Returned: the entry returned (Err is its error, "" for nil).
	Returned bool            `json:"returned"`
	Err      string          `json:"err,omitempty"`
	Panic    bool            `json:"panic,omitempty"`
	Ops      []gate.OpRecord `json:"ops"`
}

// Violation is a violation of the constraint found on the committed state
// after a commit point.
type Violation struct {
	After string `json:"after"`
	Rows  string `json:"rows"`
}

// Broken reports whether the constraint was violated at a commit point or
// at the end.
func (o *Outcome) Broken() bool { return len(o.Violations) > 0 || len(o.FinalViolations) > 0 }

// Followed reports whether every step was granted as written and the run
// ended without a problem.
func (o *Outcome) Followed() bool {
	if len(o.Problems) > 0 {
		return false
	}
	for _, s := range o.Steps {
		if s.Problem != "" {
			return false
		}
	}
	return true
}

// Prepare creates the schema's tables in the session's database.
func (s *Session) Prepare(ctx context.Context, schema *witness.Schema) error {
	if err := witness.Create(ctx, s, s.dialect(), schema); err != nil {
		return fmt.Errorf("schedule: %w", err)
	}
	return nil
}

func (s *Session) dialect() sqlparse.Dialect {
	switch s.driver {
	case "pgx":
		return sqlparse.Postgres
	case "sqlite", "sqlite3":
		return sqlparse.SQLite
	}
	return sqlparse.MySQL
}

// Run runs the schedule sch on the session's database (whose tables
// Prepare created from schema): it empties the tables, inserts the
// initial rows, checks that they satisfy c, runs the steps in order and
// lets the requests finish, checking c after every commit point and at
// the end.
func (s *Session) Run(ctx context.Context, schema *witness.Schema, c *witness.Constraint, sch *Schedule, t Timing) (*Outcome, error) {
	if err := sch.Validate(); err != nil {
		return nil, err
	}
	steps, err := sch.Steps()
	if err != nil {
		return nil, err
	}
	return s.run(ctx, schema, c, sch.Requests, sch.InitialRows, t, map[string]any{"steps": gateSteps(steps)})
}

// RunRandom runs the requests from rows under a random schedule drawn
// from seed: at each step the scheduler grants one of the waiting
// requests' operations.
func (s *Session) RunRandom(ctx context.Context, schema *witness.Schema, c *witness.Constraint, reqs []Request, rows []Row, seed int64, t Timing) (*Outcome, error) {
	return s.run(ctx, schema, c, reqs, rows, t, map[string]any{"random": true, "seed": seed})
}

func (s *Session) run(ctx context.Context, schema *witness.Schema, c *witness.Constraint, reqs []Request, rows []Row, t Timing, mode map[string]any) (*Outcome, error) {
	if err := witness.Reset(ctx, s, s.dialect(), schema); err != nil {
		return nil, fmt.Errorf("schedule: resetting the database: %w", err)
	}
	seeded := seedRows(rows, schema)
	// A reference constraint's counterexample lists the referenced row it
	// watches, not the parents of the other rows it shows (a pet of owner
	// -1 beside owner 0): the initial state keeps the constraint, so they
	// exist — seeded as the sequential replay seeds them.
	if refs, _ := c.ReferencedRows(schema, seeded); len(refs) > 0 {
		seeded = append(refs, seeded...)
	}
	out := &Outcome{Refused: witness.Seed(ctx, s, s.dialect(), schema, seeded)}
	if v, err := witness.Violations(ctx, s, c); err != nil {
		return nil, fmt.Errorf("schedule: %w", err)
	} else if len(v) > 0 {
		return nil, fmt.Errorf("schedule: the initial rows break %s: %s", c.Text, witness.FormatRows(v))
	}
	var calls []map[string]any
	for _, r := range reqs {
		spec := s.prog.Entries[r.Entry]
		if spec == nil || spec.NotExecutable != "" {
			why := "not in the driver"
			if spec != nil {
				why = spec.NotExecutable
			}
			return nil, fmt.Errorf("schedule: entry %s: %s", r.Entry, why)
		}
		calls = append(calls, map[string]any{"request": r.Request, "pkg": spec.Pkg, "entry": spec.Key, "inputs": inputMap(r.Inputs)})
	}
	req := map[string]any{
		"op": "schedule", "requests": calls, "check": c.ViolationQuery(),
		"short_ms": t.Short.Milliseconds(), "long_ms": t.Long.Milliseconds(), "limit_ms": t.Limit.Milliseconds(), "settle_ms": t.Settle.Milliseconds(),
	}
	for k, v := range mode {
		req[k] = v
	}
	r, err := s.proc.do(req, 2*t.Limit+time.Duration(len(calls)*20)*t.Long)
	if err != nil {
		if rerr := s.restart(); rerr != nil {
			return nil, fmt.Errorf("schedule: %w (restarting the driver: %v)", err, rerr)
		}
		return nil, fmt.Errorf("schedule: %w", err)
	}
	if r.Err != "" {
		return nil, fmt.Errorf("schedule: %s", r.Err)
	}
	out.Steps, out.Problems = r.Steps, r.Problems
	for _, v := range r.Violations {
		out.Violations = append(out.Violations, Violation(v))
	}
	for i, l := range r.Lanes {
		out.Requests = append(out.Requests, RequestOutcome{Request: l.Request, Entry: reqs[i].Entry, Returned: l.Done, Err: l.Err, Panic: l.Panic, Ops: l.Ops})
	}
	if len(out.Problems) > 0 {
		// A request may still hold a connection: start afresh.
		if err := s.restart(); err != nil {
			return nil, err
		}
	}
	if out.FinalViolations, err = witness.Violations(ctx, s, c); err != nil {
		return nil, fmt.Errorf("schedule: %w", err)
	}
	out.Final = map[string][]map[string]string{}
	for _, k := range sortedTables(schema) {
		out.Final[k] = witness.Dump(ctx, s, schema.TableSQL(s.dialect(), schema.Tables[k].Name))
	}
	return out, nil
}

// seedRows are the rows to insert: a NOT NULL column without a default
// that a row leaves out (a counterexample lists only the columns the model
// knows) gets its type's zero. A string the trace shows quoted ("5") is
// seeded as its text (5), as the sequential replay does (an independent
// tester's concurrent replays seeded `"5"`, three characters, and the
// requests' WHERE code = '5' found no row).
func seedRows(rows []Row, s *witness.Schema) []witness.Row {
	out := make([]witness.Row, len(rows))
	for i, r := range rows {
		vals := map[string]string{}
		for k, v := range r.Values {
			if u, err := strconv.Unquote(v); err == nil && strings.HasPrefix(v, `"`) {
				v = u
			}
			vals[strings.ToLower(k)] = v
		}
		if t := s.Table(r.Table); t != nil {
			for _, c := range t.Columns {
				n := strings.ToLower(c.Name)
				if _, ok := vals[n]; !ok && c.NotNull && !c.HasDefault {
					vals[n] = zeroOf(witness.ColumnClass(c.Type))
				}
			}
		}
		out[i] = witness.Row{Table: r.Table, Values: vals}
	}
	return append(parentRows(out, s), out...)
}

// parentRows returns the rows the seeded rows' foreign keys reference and
// rows does not have: a parent row with the referenced key and the
// zero value of its other NOT NULL columns. A counterexample lists the rows
// of the constrained table; a program that first reads or locks the
// parent (SELECT id FROM customers WHERE id = $1 FOR SHARE) needs it
// there, and a state where a child's parent is missing is not one the
// database allows.
func parentRows(rows []witness.Row, s *witness.Schema) []witness.Row {
	var out []witness.Row
	has := func(table string, key []string, vals []string) bool {
		for _, r := range append(append([]witness.Row(nil), rows...), out...) {
			if !strings.EqualFold(r.Table, table) {
				continue
			}
			same := true
			for i, k := range key {
				if r.Values[strings.ToLower(k)] != vals[i] {
					same = false
				}
			}
			if same {
				return true
			}
		}
		return false
	}
	for _, r := range rows {
		t := s.Table(r.Table)
		if t == nil {
			continue
		}
		for _, fk := range t.ForeignKeys {
			parent := s.Table(fk.RefTable)
			if parent == nil {
				continue
			}
			ref := fk.RefColumns
			if ref == nil && len(parent.Keys) > 0 {
				ref = parent.Keys[0]
			}
			if len(ref) != len(fk.Columns) {
				continue
			}
			vals := make([]string, len(fk.Columns))
			known := true
			for i, c := range fk.Columns {
				v, ok := r.Values[strings.ToLower(c)]
				if !ok || v == "" || strings.EqualFold(v, "null") {
					known = false
				}
				vals[i] = v
			}
			if !known || has(parent.Name, ref, vals) {
				continue
			}
			row := Row{Table: parent.Name, Values: map[string]string{}}
			for i, c := range ref {
				row.Values[c] = vals[i]
			}
			out = append(out, seedRows([]Row{row}, s)...)
		}
	}
	return out
}

// zeroOf is the zero value of a column class, as seeding text.
func zeroOf(class string) string {
	switch class {
	case witness.ClassText:
		return ""
	case witness.ClassTime:
		return "2026-01-01 00:00:00"
	case witness.ClassBool:
		return "false"
	}
	return "0"
}

func sortedTables(s *witness.Schema) []string {
	var out []string
	for k := range s.Tables {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Timeline prints the run: the operations of every request in the order
// they were granted, the violations and how each request ended.
func (o *Outcome) Timeline() string {
	type line struct {
		at   int
		text string
	}
	var lines []line
	for _, r := range o.Requests {
		for _, op := range r.Ops {
			txt := fmt.Sprintf("%s%d %-8s %s", r.Request, op.Index, op.Kind, oneLine(op.SQL))
			if len(op.Args) > 0 {
				txt += " " + fmt.Sprint(op.Args)
			}
			if op.Blocked {
				txt += "  (waited for a lock)"
			}
			if op.Err != "" {
				txt += "  → " + oneLine(op.Err)
			}
			at := op.Granted
			if at == 0 {
				at = 1 << 30
				txt += "  (never granted)"
			}
			lines = append(lines, line{at, txt})
		}
	}
	sort.SliceStable(lines, func(i, j int) bool { return lines[i].at < lines[j].at })
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.text + "\n")
	}
	for _, r := range o.Requests {
		e := r.Err
		if e == "" {
			e = "nil"
		}
		fmt.Fprintf(&b, "%s returned %s\n", r.Request, oneLine(e))
	}
	for _, v := range o.Violations {
		fmt.Fprintf(&b, "VIOLATED after %s: %s\n", v.After, v.Rows)
	}
	if len(o.FinalViolations) > 0 {
		fmt.Fprintf(&b, "VIOLATED at the end: %s\n", witness.FormatRows(o.FinalViolations))
	}
	for _, s := range o.Steps {
		if s.Problem != "" {
			fmt.Fprintf(&b, "step %s%d: %s\n", s.Request, s.Step, s.Problem)
		}
	}
	for _, p := range o.Problems {
		fmt.Fprintf(&b, "problem: %s\n", p)
	}
	return b.String()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
