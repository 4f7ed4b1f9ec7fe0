package pipeline

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestCallerSQL: an exported generic helper that runs the SQL text its
// callers pass is checked at its call sites when each passes a constant
// (coverage: "SQL text comes from the caller"), not as an entry of its
// own, UNKNOWN "SQL text is not a compile-time constant" (an independent
// tester's generic_get_unknown: --fail-on-unknown failed a SAFE module);
// with a caller that builds the text, it stays an entry, UNKNOWN, and a
// warning names that caller.
func TestCallerSQL(t *testing.T) {
	dir := testdataDir(t, "callertext")
	run := func(pkg string) *report.Report {
		t.Helper()
		rep, err := runShared(context.Background(), Config{Dir: dir, Patterns: []string{"./" + pkg}, Dialect: "postgres",
			Schema: filepath.Join(dir, "schema.sql"), Constraints: []string{"products.min_qty <= products.qty"}, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	coverage := func(rep *report.Report, writer string) *report.Coverage {
		for i, c := range rep.Coverage {
			if strings.HasSuffix(c.Writer, writer) {
				return &rep.Coverage[i]
			}
		}
		return nil
	}
	rep := run("constonly")
	if len(rep.Results) != 3 {
		t.Errorf("constonly: %d results, want Sell and Get's callers Stock and Minimum", len(rep.Results))
	}
	for _, r := range rep.Results {
		if strings.HasSuffix(r.Entry, ".Get") || r.Verdict != report.Safe {
			t.Errorf("constonly: %s %s (%s), want SAFE, and Get no entry", r.Entry, r.Verdict, r.Reason)
		}
	}
	if c := coverage(rep, ".Get"); c == nil || c.CallerSites != 2 {
		t.Errorf("constonly: coverage of Get %+v, want checked at its 2 call sites", c)
	}
	rep = run("dynamic")
	var get *report.Result
	for _, r := range rep.Results {
		if strings.HasSuffix(r.Entry, ".Get") {
			get = r
		}
	}
	if get == nil || get.Verdict != report.Unknown {
		t.Errorf("dynamic: Get %+v, want an entry, UNKNOWN", get)
	}
	if !strings.Contains(strings.Join(rep.Warnings, "\n"), "the call at dynamic/shop.go:28 passes text that is not constant") {
		t.Errorf("dynamic: warnings %q do not name the caller at dynamic/shop.go:28", rep.Warnings)
	}
}
