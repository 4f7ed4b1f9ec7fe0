package pipeline

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestSkipLockedSequential: without concurrent requests, FOR UPDATE SKIP
// LOCKED skips no row where no other transaction of the entry may hold a
// lock, and the first row of its ORDER BY is stated as for the plain
// locking read (adv16 jobq.Claim, the canonical queue claim, was
// UNKNOWN); where another transaction of the entry may hold a row lock
// the entry is UNKNOWN, the rows skipped not modelled (Retry, whose
// "no row" path the model never took: a wrong SAFE); under --concurrent
// it stays UNKNOWN.
func TestSkipLockedSequential(t *testing.T) {
	type want struct {
		verdict report.Verdict
		reason  string
	}
	dir := testdataDir(t, "skiplocked")
	for _, concurrent := range []bool{false, true} {
		wants := map[string]want{
			"Claim":       {report.Safe, ""},
			"ClaimAny":    {report.Unsafe, ""},
			"ClaimSecond": {report.Unknown, "SKIP LOCKED, which leaves out rows another transaction of the entry may lock"},
			"Retry":       {report.Unknown, "SKIP LOCKED, which leaves out rows another transaction of the entry may lock"},
		}
		entry := ""
		if concurrent {
			// (ClaimAny's one request breaks it: UNSAFE with or without
			// others.)
			entry = "^Claim$"
			wants = map[string]want{"Claim": {report.Unknown, "SKIP LOCKED, which leaves out rows other requests lock"}}
		}
		cfg := Config{Dir: dir, Patterns: []string{"./..."}, Dialect: "postgres", Schema: filepath.Join(dir, "schema.sql"),
			Constraints: []string{"jobs.attempts <= jobs.max_attempts"}, Workers: 1, Concurrent: concurrent, Entry: entry}
		rep, err := runShared(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Results) != len(wants) {
			t.Errorf("concurrent=%v: %d results, want %d", concurrent, len(rep.Results), len(wants))
		}
		for _, r := range rep.Results {
			name := r.Entry[strings.LastIndex(r.Entry, ".")+1:]
			w, ok := wants[name]
			if !ok {
				t.Errorf("unexpected entry %s", r.Entry)
				continue
			}
			if r.Verdict != w.verdict || !strings.Contains(r.Reason, w.reason) {
				t.Errorf("concurrent=%v: %s: %s (%s), want %s with %q", concurrent, name, r.Verdict, r.Reason, w.verdict, w.reason)
			}
		}
	}
}
