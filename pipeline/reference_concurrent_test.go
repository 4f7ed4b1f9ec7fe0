package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestConcurrentReference runs --concurrent on the orphan-pet race of a
// reference the schema does not declare (pets.owner_id IN (SELECT id
// FROM owners)): AddPet checks the owner and inserts a pet while
// DeleteOwner deletes the owner and its pets. The owner row has its own
// lock and committed state: a plain check is UNSAFE at READ COMMITTED, a
// FOR SHARE read of the owner is SAFE when DeleteOwner deletes the owner
// first and UNSAFE when it deletes the pets first; what the model does
// not cover (REPEATABLE READ, InnoDB's gap locks, a locking read of the
// pets) is UNKNOWN with the construct. (Before, every result was
// UNKNOWN: "checked for sequential runs only".)
func TestConcurrentReference(t *testing.T) {
	src := testdataDir(t, "concurrent")
	type want struct {
		verdict report.Verdict
		reason  string // UNKNOWN: part of the reason
	}
	unsafe := want{verdict: report.Unsafe}
	tests := []struct {
		pkg, dialect, isolation string
		want                    want // both entries
	}{
		{"./reference/plain", "postgres", "", unsafe},
		{"./reference/share", "postgres", "", want{verdict: report.Safe}},
		{"./reference/petsfirst", "postgres", "", unsafe},
		// DeleteOwner's count of the owner's pets pins no key of pets:
		// exact where no other pet matches (UNKNOWN before: "it reads
		// the COUNT … may be spurious").
		{"./reference/checked", "postgres", "", unsafe},
		{"./reference/plain", "postgres", "rr", want{verdict: report.Unknown, reason: "only read committed is modelled"}},
		{"./reference/lockpet", "postgres", "", want{verdict: report.Unknown, reason: "a locking read of pets"}},
		// FOR KEY SHARE blocks DeleteOwner's DELETE of the owner, which
		// the model's locks do not say (an UNSAFE before).
		{"./reference/keyshare", "postgres", "", want{verdict: report.Unknown, reason: "for key share of owners"}},
		// InnoDB's default REPEATABLE READ takes gap locks, which the
		// model does not have (an UNSAFE before, whose schedule InnoDB
		// may not run).
		{"./reference/mysqlplain", "mysql", "", want{verdict: report.Unknown, reason: "gap"}},
		// MySQL's READ COMMITTED: its locks are not checked for a
		// reference (an UNSAFE before, not replayed on MariaDB).
		{"./reference/mysqlplain", "mysql", "rc", want{verdict: report.Unknown, reason: "only postgresql's locks"}},
	}
	for _, tt := range tests {
		t.Run(tt.pkg+"/"+tt.dialect+"/"+tt.isolation, func(t *testing.T) {
			cfg := Config{Dir: src, Patterns: []string{tt.pkg}, Dialect: Dialect(tt.dialect), Isolation: tt.isolation,
				Schema: testdataDir(t, "concurrent/reference/schema.sql"), Workers: 1, Concurrent: true,
				Constraints: []string{"pets.owner_id IN (SELECT id FROM owners)"}}
			rep, err := runShared(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Results) != 2 {
				t.Fatalf("%d results, want 2 (AddPet, DeleteOwner)", len(rep.Results))
			}
			for _, r := range rep.Results {
				checkReferenceResult(t, r, tt.want.verdict, tt.want.reason)
			}
		})
	}
}

func checkReferenceResult(t *testing.T, r *report.Result, verdict report.Verdict, reason string) {
	t.Helper()
	if r.Verdict != verdict || r.Concurrency == nil {
		t.Fatalf("%s: %s (%s), want %s with the concurrency", r.Entry, r.Verdict, r.Reason, verdict)
	}
	if reason != "" && !strings.Contains(strings.ToLower(r.Reason), reason) {
		t.Errorf("%s: reason %q lacks %q", r.Entry, r.Reason, reason)
	}
	if verdict != report.Unsafe {
		return
	}
	// The race needs both entries: the other request is the other one.
	other := ".AddPet"
	if strings.HasSuffix(r.Entry, ".AddPet") {
		other = ".DeleteOwner"
	}
	if !strings.HasSuffix(r.ConcurrentWith, other) || len(r.Requests) != 2 || r.Concurrency.Scope != report.ScopeSearch {
		t.Errorf("%s: concurrent with %q, %d requests, scope %q; want %s, 2 requests, search", r.Entry, r.ConcurrentWith, len(r.Requests), r.Concurrency.Scope, other)
	}
	if r.Counterexample == nil || r.Counterexample.Violation == nil || r.Counterexample.Violation.Values["owner_id"] == "" {
		t.Errorf("%s: no violation with the pet's owner_id", r.Entry)
	}
}
