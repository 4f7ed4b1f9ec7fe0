package witness

import (
	"fmt"
	"strings"
)

// A replay that does not break the constraint refutes the counterexample
// only if the run followed it to the database. An entry that panics or
// returns an error before its first SQL statement, while the
// counterexample runs one, was not driven along the counterexample: a
// dependency the driver left at its zero value (a fiber.Ctx, a nil
// *slog.Logger field: "panic: nil Handler"), or a call outside the
// analysed code that the model let succeed and that failed on the value
// the trace printed (uuid.Parse). The independent tester adv19 read the
// NOT REPRODUCED printed for these as "the finding is spurious", for
// real bugs. notDriven tells them apart.

// notDriven says why the run out, which did not break the constraint,
// did not drive the entry along cex: it panicked or returned an error
// before sending any statement other than transaction control, while
// cex runs at least one SQL statement. "" when the run reached the
// database or ended without a failure (a run that returns nil before
// any statement is an outcome of the entry's own code: NOT REPRODUCED).
func notDriven(cex *Counterexample, out *Outcome) string {
	if cex == nil || out == nil || out.Call == nil || out.Call.Err == "" {
		return ""
	}
	want := sqlSteps(cex)
	if want == 0 || reachedDatabase(out.Call) {
		return ""
	}
	what := "returned an error"
	if out.Call.Panic {
		what = "panicked"
	}
	return fmt.Sprintf("the entry %s before its first SQL statement (%s; the counterexample runs %d)", what, out.CallError(), want)
}

// sqlSteps counts the SQL statements cex's steps run.
func sqlSteps(cex *Counterexample) int {
	n := 0
	for _, s := range cex.Steps {
		if s.Kind == "sql" {
			n++
		}
	}
	return n
}

// reachedDatabase reports whether the call sent a statement other than
// transaction control: run, refused by the database, or failed by the
// driver.
func reachedDatabase(c *CallResult) bool {
	if c.Injected > 0 {
		return true
	}
	for _, s := range append(append([]Statement{}, c.Statements...), c.Failed...) {
		if !txControl(s.SQL) {
			return true
		}
	}
	return false
}

// txControl reports whether q begins, ends or marks a transaction.
func txControl(q string) bool {
	f := strings.Fields(strings.ToUpper(q))
	if len(f) == 0 {
		return true
	}
	switch f[0] {
	case "BEGIN", "START", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE", "END":
		return true
	}
	return false
}
