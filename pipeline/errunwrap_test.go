package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestErrorsIsNil: errors.Is(err, nil) is err == nil. It was an
// approximation false for a nil err: DebitIsNil, whose errors.Is(err,
// nil) holds for every positive amount, never debited (a wrong SAFE), and
// WithdrawIsNil was UNKNOWN.
func TestErrorsIsNil(t *testing.T) {
	checkErrUnwrap(t, "WithdrawIsNil|DebitIsNil", map[string]report.Verdict{
		"WithdrawIsNil": report.Safe,
		"DebitIsNil":    report.Unsafe,
	})
}

// checkErrUnwrap checks the verdicts of testdata/src/errunwrap's entries
// matching entry.
func checkErrUnwrap(t *testing.T, entry string, want map[string]report.Verdict) {
	t.Helper()
	rep, err := runShared(context.Background(), Config{Dir: testdataDir(t, "src"), Patterns: []string{"./errunwrap"}, Entry: entry,
		Constraints: []string{"accounts.balance >= 0"}, Dialect: "sqlite", Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, r := range rep.Results {
		name := r.Entry[strings.LastIndex(r.Entry, ".")+1:]
		got[name] = true
		if w, ok := want[name]; ok && r.Verdict != w {
			t.Errorf("%s: %s (%s), want %s", name, r.Verdict, r.Reason, w)
		}
	}
	for name := range want {
		if !got[name] {
			t.Errorf("no result for %s", name)
		}
	}
}

// TestErrorsIsOwnErrorType: errors.Is through the program's own error
// types is decided where the value is known: a *fieldError made by a
// composite literal unwraps (its Unwrap() error returns a field) to the
// sentinel stored in that field, and a *plainError, without Unwrap, wraps
// nothing. They were approximations: FeeOverLimit's true UNSAFE (the fee
// on an over-limit withdrawal) was UNKNOWN, and so were WithdrawTyped and
// WithdrawPlain, both SAFE.
func TestErrorsIsOwnErrorType(t *testing.T) {
	checkErrUnwrap(t, "FeeOverLimit|WithdrawTyped|WithdrawPlain", map[string]report.Verdict{
		"FeeOverLimit":  report.Unsafe,
		"WithdrawTyped": report.Safe,
		"WithdrawPlain": report.Safe,
	})
}

// TestErrorsIsOwnErrorTypeWrittenLater: a field that Unwrap returns and
// that the program writes after the literal (through a type assertion of
// the boxed error) is not taken from the literal: Escalate, which charges
// the fee after changing the reason to ErrOverLimit, is not SAFE.
func TestErrorsIsOwnErrorTypeWrittenLater(t *testing.T) {
	rep, err := runShared(context.Background(), Config{Dir: testdataDir(t, "src"), Patterns: []string{"./errunwrap"}, Entry: "Escalate",
		Constraints: []string{"accounts.balance >= 0"}, Dialect: "sqlite", Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 {
		t.Fatalf("%d results, want Escalate's", len(rep.Results))
	}
	if r := rep.Results[0]; r.Verdict == report.Safe {
		t.Errorf("%s: SAFE, want UNSAFE or UNKNOWN: errors.Is(err, ErrOverLimit) holds after re.err = ErrOverLimit", r.Entry)
	}
}
