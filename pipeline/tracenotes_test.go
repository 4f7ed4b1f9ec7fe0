package pipeline

import (
	"context"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// traceNotesResult runs the check of package pkg of testdata/tracenotes
// in dialect against constraint (with the module's schema.sql when
// schema is set) and returns its one result, which must be UNSAFE with a
// counterexample.
func traceNotesResult(t *testing.T, pkg, dialect, constraint string, schema bool) *report.Result {
	t.Helper()
	dir := testdataDir(t, "tracenotes")
	cfg := Config{Dir: dir, Patterns: []string{"./" + pkg}, Dialect: Dialect(dialect), Constraints: []string{constraint}, Workers: 1}
	if schema {
		cfg.Schema = dir + "/schema.sql"
	}
	return oneUnsafeResult(t, pkg, cfg)
}

// TestTraceWrapAroundNote (independent tester adv18, grpcsvc
// ConvertToEUR): eur := amt * eurPerUsdBps / 10000 is negative for a
// positive amt because the product wraps around; the step printed
// eur = -922337203685477 and nothing else. Its note now says which
// product wrapped, from what to what, and that it is an int64 overflow,
// with the numbers of the path.
func TestTraceWrapAroundNote(t *testing.T) {
	c := traceNotesResult(t, "convert", "postgres", "accounts.eur >= 0", true).Counterexample
	steps := stepsAt(c, "eur := amt * eurPerUsdBps / 10000")
	if len(steps) != 1 {
		t.Fatalf("%d steps at eur := …, want 1: %+v", len(steps), c.Steps)
	}
	st := steps[0]
	amt, ok := new(big.Int).SetString(c.Inputs.Map()["amt"], 10)
	if !ok || amt.Sign() <= 0 {
		t.Fatalf("inputs %v: want a positive amt", c.Inputs)
	}
	exact := new(big.Int).Mul(amt, big.NewInt(9200))
	want := amt.String() + " * 9200 = " + exact.String() + " wraps around to "
	if !strings.Contains(st.Note, want) || !strings.Contains(st.Note, "(int64 overflow)") {
		t.Errorf("note of %q: %q, want it to contain %q and (int64 overflow)", st.Text, st.Note, want)
	}
	for _, s := range c.Steps {
		if s.Text != st.Text && strings.Contains(s.Note, "wraps around") {
			t.Errorf("step %s %q: note %q, want the wrap-around noted once, where it is computed", s.Position, s.Text, s.Note)
		}
	}
}

// TestTraceSQLiteOverflowReal (independent tester adv18, booking on
// SQLite): booked+n > capacity is false for booked near MaxInt64 because
// Go's sum wraps around, and SQLite stores booked + n, out of int64's
// range, as a REAL. The branch now notes the wrap-around, and the
// UPDATE's new booked and the violating row show the REAL the engine
// stores (9.223372036854776e+18), not the integer 9223372036854775808
// that no int64 (and no SQLite INTEGER) holds.
func TestTraceSQLiteOverflowReal(t *testing.T) {
	c := traceNotesResult(t, "booking", "sqlite", "shows.booked <= shows.capacity", true).Counterexample
	branch := stepsAt(c, "if booked+n > capacity {")
	if len(branch) != 1 || !strings.Contains(branch[0].Note, "wraps around") || !strings.Contains(branch[0].Note, "(int64 overflow)") {
		t.Errorf("branch steps %+v: want one, noting the int64 wrap-around", branch)
	}
	update := stepsAt(c, "UPDATE shows SET booked = booked + ?")
	if len(update) != 1 {
		t.Fatalf("%d UPDATE steps, want 1: %+v", len(update), c.Steps)
	}
	if got := update[0].Values["r.booked"]; !strings.HasPrefix(got, "9.22337203685477") || !strings.Contains(got, "REAL") {
		t.Errorf("UPDATE: r.booked = %q, want the REAL SQLite stores (9.22337203685477…e+18, said a REAL)", got)
	}
	if got := c.Violation.Values["booked"]; !strings.Contains(got, "REAL") {
		t.Errorf("violation: booked = %q, want the REAL SQLite stores", got)
	}
	for _, r := range c.Rows {
		for col, v := range r.Values {
			if strings.Contains(v, "REAL") {
				t.Errorf("row %s: %s = %q: the rows a replay seeds must stay as the model gives them", r.Symbol, col, v)
			}
		}
	}
}

// TestTraceSameColumnRows (independent tester adv18, quota without
// --schema; issue 12): tenant_id is no key the model knows (only a
// column named id is, without a schema), and the counterexample reads a
// row s1 with the watched row's tenant_id but other values: two rows.
// The trace said nothing, and read as one row seen twice. A note now
// says that they are two different rows with the same tenant_id, and how
// to declare the key. (A single row with used < lim keeps used + 1 <=
// lim: the violation needs the two rows.)
func TestTraceSameColumnRows(t *testing.T) {
	c := traceNotesResult(t, "quota", "postgres", "quotas.used <= quotas.lim", false).Counterexample
	var r, s1 *report.Row
	for i := range c.Rows {
		switch c.Rows[i].Symbol {
		case "r":
			r = &c.Rows[i]
		case "s1":
			s1 = &c.Rows[i]
		}
	}
	if r == nil || s1 == nil {
		t.Fatalf("rows %+v: want r and s1", c.Rows)
	}
	note := ""
	for _, n := range c.Notes {
		if strings.Contains(n, "two different rows") {
			note = n
		}
	}
	// (A single row with used < lim keeps used + 1 <= lim: the violation
	// needs two rows with one tenant_id, which differ.)
	if r.Values["tenant_id"] != s1.Values["tenant_id"] {
		t.Fatalf("rows r %v and s1 %v: want one tenant_id", r.Values, s1.Values)
	}
	for _, want := range []string{"rows r and s1", "tenant_id = " + r.Values["tenant_id"], "--schema"} {
		if !strings.Contains(note, want) {
			t.Errorf("notes %q: want one saying %q", c.Notes, want)
		}
	}
}

// undecidedBranches lists the branch steps of c that say no way.
func undecidedBranches(c *report.Counterexample) []report.Step {
	var out []report.Step
	for _, s := range c.Steps {
		if s.Kind == "branch" && s.Outcome == "" {
			out = append(out, s)
		}
	}
	return out
}

// TestTraceBranchIntoCall (independent tester adv18, loyalty Spend): the
// decorator's `if err := a.inner.Debit(…); err != nil {` calls the store,
// whose UPDATE breaks the constraint: the path ends in the callee and
// never decides the if. The line printed as a branch with no way; it is
// the call (and so is the entry's `err := a.Debit(…)`).
func TestTraceBranchIntoCall(t *testing.T) {
	c := traceNotesResult(t, "decorated", "postgres", "wallets.balance >= 0", true).Counterexample
	if u := undecidedBranches(c); len(u) > 0 {
		t.Errorf("branch steps without an outcome: %+v", u)
	}
	for _, prefix := range []string{"if err := a.inner.Debit(", "err := a.Debit("} {
		steps := stepsAt(c, prefix)
		if len(steps) != 1 || steps[0].Kind != "call" {
			t.Errorf("steps at %q: %+v, want one call", prefix, steps)
		}
	}
}

// TestTraceConcurrentNoStrayBranch (independent tester adv18, orderdep
// SetLimit ∥ Spend): request B ends (w.WriteHeader) before A's violating
// write, and the jump to the end of B's `if n, _ := res.RowsAffected();
// n == 0 {` printed a second branch line at that if, with no way, after
// the WriteHeader. Every branch step now says its way.
func TestTraceConcurrentNoStrayBranch(t *testing.T) {
	dir := testdataDir(t, "tracenotes")
	rep, err := runShared(context.Background(), Config{Dir: dir, Patterns: []string{"./limits"}, Dialect: "postgres", Schema: dir + "/schema.sql",
		Constraints: []string{"credit_lines.used <= credit_lines.credit_limit"}, Workers: 1, Concurrent: true})
	if err != nil {
		t.Fatal(err)
	}
	var c *report.Counterexample
	for _, r := range rep.Results {
		if r.Verdict == report.Unsafe && r.Counterexample != nil && r.ConcurrentWith != "" {
			c = r.Counterexample
		}
	}
	if c == nil {
		t.Fatalf("no concurrent UNSAFE result: %+v", rep.Results)
	}
	if u := undecidedBranches(c); len(u) > 0 {
		t.Errorf("branch steps without an outcome: %+v", u)
	}
	if len(stepsAt(c, "w.WriteHeader(")) == 0 {
		t.Errorf("steps %+v: want a request that ends with w.WriteHeader before the violation (the case under test)", c.Steps)
	}
}

// TestOrderDepNoCallResultLength (independent tester adv18, orderdep
// SetLimit ∥ SetLimit): the order-dependence finding listed each
// request's inputs with the model's free length of r.URL.Query()'s map,
// `len(Query(_)) = 0`, beside its query parameter "value" = "1". A
// request sends parameters, not that length: it is left out. (Two
// SetLimits, blind writes of the limit, are no finding any more: the
// handler here scales the limit, a read-modify-write of it.)
func TestOrderDepNoCallResultLength(t *testing.T) {
	dir := testdataDir(t, "tracenotes")
	rep, err := runShared(context.Background(), Config{Dir: dir, Patterns: []string{"./limitscale"}, Dialect: "postgres", Schema: dir + "/schema.sql",
		Constraints: []string{"credit_lines.used <= credit_lines.credit_limit"}, Workers: 1, Concurrent: true})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range rep.Findings {
		if f.Class != report.FindingOrderDependence || !strings.Contains(f.Message, "ScaleLimit") {
			continue
		}
		n++
		if !strings.Contains(f.Message, `query parameter "value" = "`) {
			t.Errorf("message lacks the query parameter value: %s", f.Message)
		}
		if strings.Contains(f.Message, "len(") || strings.Contains(f.Message, "(_)") {
			t.Errorf("message shows the model's length of a call's result: %s", f.Message)
		}
	}
	if n == 0 {
		t.Errorf("no order-dependence finding on ScaleLimit: %+v", rep.Findings)
	}
}

// readValue matches the value both requests of a lost-update finding
// read.
var readValue = regexp.MustCompile(`both read n (-?\d+) `)

// TestLostUpdateExampleKeepsConstraints (independent tester adv18,
// counter TakeRMW): the lost-update warning's example started from
// n = -2 on a run whose constraint is downloads.n >= 0, a row the
// database never holds by that constraint. The example's row now keeps
// the run's constraints where one does.
func TestLostUpdateExampleKeepsConstraints(t *testing.T) {
	dir := testdataDir(t, "tracenotes")
	rep, err := runShared(context.Background(), Config{Dir: dir, Patterns: []string{"./counter"}, Dialect: "postgres", Schema: dir + "/schema.sql",
		Constraints: []string{"downloads.n >= 0", "downloads.n <= downloads.max_n"}, Workers: 1, Concurrent: true})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range rep.Findings {
		if f.Class != report.FindingLostUpdate {
			continue
		}
		n++
		m := readValue.FindStringSubmatch(f.Message)
		if m == nil {
			t.Errorf("message does not say the value read: %s", f.Message)
			continue
		}
		if v, _ := strconv.ParseInt(m[1], 10, 64); v < 0 {
			t.Errorf("example reads n = %d, which breaks downloads.n >= 0: %s", v, f.Message)
		}
	}
	if n != 1 {
		t.Errorf("%d lost-update findings, want 1: %+v", n, rep.Findings)
	}
}
