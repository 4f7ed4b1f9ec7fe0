package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestImplementationNotAnalysed: `check ./svc` of a module whose only
// unguarded Ledger (store.Loose) sits in a package svc does not import.
// A call through the interface, and a type assertion or switch on it,
// must not assume the analysed *Guarded (or nil) is the only dynamic
// type: each was SAFE, a wrong SAFE (the server runs store.Loose). Now
// the call is UNKNOWN naming the type and its package, and the
// assertion's outcome is not pruned. Checking ./... (store.Loose
// analysed) finds the UNSAFE debit.
func TestImplementationNotAnalysed(t *testing.T) {
	dir := testdataDir(t, "otherimpl")
	run := func(pattern string) map[string]*report.Result {
		rep, err := Run(context.Background(), Config{Dir: dir, Patterns: []string{pattern}, Dialect: "sqlite",
			Schema: dir + "/schema.sql", Workers: 1, Constraints: []string{"accounts.balance >= 0"}})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]*report.Result{}
		for _, r := range rep.Results {
			out[r.Entry[strings.LastIndex(r.Entry, ".")+1:]] = r
		}
		return out
	}
	svcOnly := run("./svc")
	for name, want := range map[string]report.Verdict{"Debit": report.Unknown, "DebitOther": report.Unknown, "DebitSwitch": report.Unsafe} {
		r, ok := svcOnly[name]
		if !ok {
			t.Errorf("./svc: no result for %s", name)
			continue
		}
		if r.Verdict != want {
			t.Errorf("./svc: %s: %s (%s), want %s", name, r.Verdict, r.Reason, want)
		}
		if want == report.Unknown && !strings.Contains(r.Reason, "Loose") {
			t.Errorf("./svc: %s: reason %q does not name store.Loose", name, r.Reason)
		}
	}
	all := run("./...")
	for _, name := range []string{"Debit", "DebitOther", "DebitSwitch"} {
		if r := all[name]; r == nil {
			t.Errorf("./...: no result for %s", name)
		} else if r.Verdict != report.Unsafe {
			t.Errorf("./...: %s: %s (%s), want UNSAFE", name, r.Verdict, r.Reason)
		}
	}
}
