package pipeline

import (
	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// traceStepsResult runs the check of package pkg of
// testdata/tracesteps against constraint and returns its one result,
// which must be UNSAFE with a counterexample.
func traceStepsResult(t *testing.T, pkg, constraint string) *report.Result {
	t.Helper()
	dir := testdataDir(t, "tracesteps")
	return oneUnsafeResult(t, pkg, Config{Dir: dir, Patterns: []string{"./" + pkg}, Dialect: "postgres",
		Schema: dir + "/schema.sql", Constraints: []string{constraint}, Workers: 1})
}

// oneUnsafeResult runs the check cfg of package pkg and returns its one
// result, which must be UNSAFE with a counterexample.
func oneUnsafeResult(t *testing.T, pkg string, cfg Config) *report.Result {
	t.Helper()
	rep, err := runShared(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 {
		t.Fatalf("%s: %d results, want 1", pkg, len(rep.Results))
	}
	r := rep.Results[0]
	if r.Verdict != report.Unsafe || r.Counterexample == nil {
		t.Fatalf("%s: %s (%s), want UNSAFE with a counterexample", pkg, r.Verdict, r.Reason)
	}
	return r
}

// stepsAt returns the steps of c whose statement starts with prefix.
func stepsAt(c *report.Counterexample, prefix string) []report.Step {
	var out []report.Step
	for _, s := range c.Steps {
		if strings.HasPrefix(s.Text, prefix) {
			out = append(out, s)
		}
	}
	return out
}

// TestTraceCapturedParameter (independent tester adv17
// captured_param_zero): Charge's amount is captured by the closure it
// passes to a transaction helper, so Go moves it to a heap cell (an SSA
// Alloc, then a Store of the argument). The entry's step showed the
// cell's zero value (⇒ amount = 0) while the inputs said amount = 1 and
// the next branch (amount <= 0 → false) contradicted 0: the copy of the
// argument into its cell was taken for memory a call outside the
// analysed code had changed, and left out.
func TestTraceCapturedParameter(t *testing.T) {
	c := traceStepsResult(t, "captured", "wallets.balance >= 0").Counterexample
	in := c.Inputs.Map()
	entry := stepsAt(c, "func Charge(")
	if len(entry) != 1 {
		t.Fatalf("%d steps at func Charge(, want 1: %+v", len(entry), c.Steps)
	}
	for _, name := range []string{"amount", "id"} {
		if got, ok := entry[0].Values[name]; ok && got != in[name] {
			t.Errorf("entry step: %s = %s, inputs say %s", name, got, in[name])
		}
	}
	if _, ok := entry[0].Values["amount"]; !ok {
		t.Errorf("entry step: values %v, want amount (the argument stored in its cell)", entry[0].Values)
	}
}

// TestTraceWriteOfAnotherRow (independent tester adv17, sqlconn
// MoveBooking): the first UPDATE decrements the show seats move from,
// not the watched row r (the show they move to, whose capacity the
// second UPDATE breaks). Its step printed r.booked with r's unchanged
// value, as if the statement had set it, and left out the row it did
// change, read before as s1. It now shows s1's new booked count and
// nothing of r.
func TestTraceWriteOfAnotherRow(t *testing.T) {
	c := traceStepsResult(t, "shows", "shows.booked <= shows.seats").Counterexample
	in := c.Inputs.Map()
	if in["fromShow"] == in["toShow"] {
		t.Fatalf("inputs %v: fromShow = toShow, which the entry rejects", in)
	}
	var s1 *report.Row
	for k := range c.Rows {
		if c.Rows[k].Symbol == "s1" {
			s1 = &c.Rows[k]
		}
	}
	if s1 == nil || s1.Values["id"] != in["fromShow"] {
		t.Fatalf("rows %+v: want s1, the row read with id = fromShow %s", c.Rows, in["fromShow"])
	}
	dec := stepsAt(c, "UPDATE shows SET booked = booked - $1")
	if len(dec) != 1 {
		t.Fatalf("%d steps of the first UPDATE, want 1", len(dec))
	}
	for k := range dec[0].Values {
		if strings.HasPrefix(k, "r.") {
			t.Errorf("first UPDATE (WHERE id = fromShow): shows %s = %s of row r, which it does not change (values %v)", k, dec[0].Values[k], dec[0].Values)
		}
	}
	want := bigSub(t, s1.Values["booked"], in["n"])
	if got := dec[0].Values["s1.booked"]; got != want {
		t.Errorf("first UPDATE: s1.booked = %q, want %s (the row it changed: %s - n): values %v", got, want, s1.Values["booked"], dec[0].Values)
	}
	inc := stepsAt(c, "UPDATE shows SET booked = booked + $1")
	if len(inc) != 1 || inc[0].Values["r.booked"] != c.Violation.Values["booked"] {
		t.Errorf("second UPDATE: steps %+v, want one showing r.booked = %s", inc, c.Violation.Values["booked"])
	}
}

// bigSub is x - y of two decimal integers.
func bigSub(t *testing.T, x, y string) string {
	t.Helper()
	a, okA := new(big.Int).SetString(x, 10)
	b, okB := new(big.Int).SetString(y, 10)
	if !okA || !okB {
		t.Fatalf("not integers: %q, %q", x, y)
	}
	return new(big.Int).Sub(a, b).String()
}

// TestTraceInsertCount (independent tester adv17, ledger and advisory):
// every INSERT step said rowsAffected = 0, though a successful INSERT …
// VALUES of one row inserts one: on a table the constraint does not
// watch, the row model left the count only non-negative.
func TestTraceInsertCount(t *testing.T) {
	c := traceStepsResult(t, "journal", "wallets.balance >= 0").Counterexample
	ins := stepsAt(c, "INSERT INTO entries")
	if len(ins) != 1 {
		t.Fatalf("%d INSERT steps, want 1: %+v", len(ins), c.Steps)
	}
	if n, ok := ins[0].Values["rowsAffected"]; ok && n != "1" {
		t.Errorf("INSERT … VALUES of one row: rowsAffected = %s, want 1 (values %v)", n, ins[0].Values)
	}
}

// TestTraceFoldsGeneratedCode (independent tester adv17, sqlcpgx and
// sqlcstd): the sqlc layers added about ten lines per query call to a
// trace (`return &Queries{db: tx}`, the Scan into the row struct,
// `return i, err` with ret0.Balance …). The text keeps the statements
// the generated code runs and leaves its other steps out; -v shows them;
// the JSON keeps every step, marked generated. The captured amount is
// shown at the entry as the argument (TestTraceCapturedParameter's
// shape in the execTx service).
func TestTraceFoldsGeneratedCode(t *testing.T) {
	r := traceStepsResult(t, "sqlcsvc", "wallets.balance >= 0")
	c := r.Counterexample
	var generated, statements int
	for _, s := range c.Steps {
		if strings.HasPrefix(s.Position, "sqlcsvc/db/") {
			if !s.Generated {
				t.Errorf("step %s %q: not marked generated", s.Position, s.Text)
			}
			generated++
		}
	}
	if generated == 0 {
		t.Fatalf("no step in the generated queries: %+v", c.Steps)
	}
	text := func(verbose bool) string {
		var b strings.Builder
		if err := report.WriteText(&b, &report.Report{Results: []*report.Result{r}}, report.Options{Verbose: verbose}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	folded, all := text(false), text(true)
	for _, line := range strings.Split(folded, "\n") {
		if !strings.Contains(line, "sqlcsvc/db/query.sql.go:") {
			continue
		}
		if !strings.Contains(line, " sql ") || strings.Contains(line, "Scan(") {
			t.Errorf("text shows a step of generated code that is not a statement: %s", line)
		}
		statements++
	}
	if statements != 2 {
		t.Errorf("text shows %d statements of the generated queries, want 2 (the SELECT and the UPDATE):\n%s", statements, folded)
	}
	for _, want := range []string{"return &Queries{", "return i, err"} {
		if strings.Contains(folded, want) || !strings.Contains(all, want) {
			t.Errorf("%q: in the text %v, in the -v text %v; want only with -v", want, strings.Contains(folded, want), strings.Contains(all, want))
		}
	}
	in := c.Inputs.Map()
	if entry := stepsAt(c, "func (s *Store) WithdrawWithFee("); len(entry) != 1 || entry[0].Values["amount"] != in["amount"] {
		t.Errorf("entry steps %+v: want one showing amount = %s (the inputs')", entry, in["amount"])
	}
}
