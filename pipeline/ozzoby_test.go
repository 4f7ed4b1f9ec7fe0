package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestOzzoByRule: ozzo-validation's By(fn), fn a function of the module,
// is fn's code where ValidateStruct returns nil (independent tester adv19,
// ozzo-by: By(positive) was dropped and Reserve UNSAFE with Amount = -1);
// a By fn that lets -1 through stays UNSAFE; a By of a closure over a
// variable, not analysed, is UNKNOWN naming the rule, though Validate has
// a value receiver (the rule's mark on the receiver's copy left the
// caller's amount exact: UNSAFE).
func TestOzzoByRule(t *testing.T) {
	want := map[string]report.Verdict{
		"ozzo_by_safe.Reserve":        report.Safe,
		"ozzo_by_safe.ReserveAtLeast": report.Unknown,
		"ozzo_by_unsafe.Reserve":      report.Unsafe,
	}
	got := 0
	for _, name := range []string{"trust/ozzo_by_safe", "trust/ozzo_by_unsafe"} {
		dir := corpusCase(name)
		rep, err := Run(context.Background(), Config{
			Dir: dir, Patterns: []string{"./..."}, Schema: dir + "/schema.sql",
			Constraints: []string{"balance.reserved >= 0"}, Workers: 1,
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rep.Results {
			short := r.Entry[strings.LastIndex(r.Entry, "/")+1:]
			v, ok := want[short]
			if !ok {
				t.Errorf("unexpected result %s", r.Entry)
				continue
			}
			got++
			if r.Verdict != v {
				t.Errorf("%s is %s (%s), want %s", short, r.Verdict, r.Reason, v)
			}
			if v == report.Unknown && !strings.Contains(r.Reason, "By(") {
				t.Errorf("%s: reason %q does not name the By rule", short, r.Reason)
			}
		}
	}
	if got != len(want) {
		t.Errorf("%d results, want %d", got, len(want))
	}
}
