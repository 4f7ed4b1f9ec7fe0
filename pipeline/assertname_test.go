package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestTypeAssertionReasonNamesField: an UNKNOWN that rests on the dynamic
// type of an interface the model does not track names it as the source
// does — s.Querier at its line — not as the SSA register t2 (independent
// tester adv17, mini/querier_type_assert: every entry of a sqlc service
// UNKNOWN "reads the dynamic type of t2").
func TestTypeAssertionReasonNamesField(t *testing.T) {
	rep, err := runShared(context.Background(), Config{Dir: testdataDir(t, "src"), Patterns: []string{"./assertname"}, Constraints: []string{"stocks.quantity >= 0"}, Dialect: "sqlite", Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if !strings.HasSuffix(r.Entry, "(*Service).AddStock") {
			continue
		}
		if r.Verdict != report.Unknown || !strings.Contains(r.Reason, "the dynamic type of s.Querier (") || !strings.Contains(r.Reason, "store.go:36)") {
			t.Errorf("%s: %s %q, want UNKNOWN naming the dynamic type of s.Querier (store.go:36)", r.Entry, r.Verdict, r.Reason)
		}
		return
	}
	t.Fatalf("no result for (*Service).AddStock: %+v", rep.Results)
}
