package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestRereadRows: two query sites iterating the same rows of charges in
// one sequential run are not tied by the model, so a counterexample whose
// second pass sees a row the first did not is UNKNOWN, naming the
// approximation (it was a false UNSAFE, independent tester adv16 fu3);
// one pass over the charges, debited unchecked, stays UNSAFE.
func TestRereadRows(t *testing.T) {
	for _, tt := range []struct {
		dir  string
		want report.Verdict
	}{
		{"trust/reread_rows_safe", report.Unknown},
		{"trust/reread_rows_unsafe", report.Unsafe},
	} {
		dir := corpusCase(tt.dir)
		rep, err := Run(context.Background(), Config{
			Dir: dir, Patterns: []string{"./..."}, Schema: dir + "/schema.sql", Dialect: "sqlite",
			Constraints: []string{"accounts.balance >= 0"}, Workers: 1,
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Results) != 1 || rep.Results[0].Verdict != tt.want {
			t.Fatalf("%s: got %+v, want one %s", tt.dir, rep.Results, tt.want)
		}
		if tt.want == report.Unknown && !strings.Contains(rep.Results[0].Reason, "rows.Next()") {
			t.Errorf("%s: reason %q does not name rows.Next()", tt.dir, rep.Results[0].Reason)
		}
	}
}
