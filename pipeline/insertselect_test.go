package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestInsertSelectPinnedCount: the rows-affected count of an INSERT …
// SELECT whose WHERE pins its source's primary key is 0 or 1, decided by
// whether the source row exists (listed in the trace, so that a replay
// seeds it), not an approximation: the cart debited by it stays >= 0
// where a slot was checked free (SAFE, UNKNOWN before), and goes to -1
// by exactly the one line where the check lets a full cart through.
func TestInsertSelectPinnedCount(t *testing.T) {
	for _, tt := range []struct {
		dir  string
		want report.Verdict
	}{
		{"trust/pg_insert_select_count_safe", report.Safe},
		{"trust/pg_insert_select_count_unsafe", report.Unsafe},
	} {
		dir := corpusCase(tt.dir)
		rep, err := runShared(context.Background(), Config{
			Dir: dir, Patterns: []string{"./..."}, Schema: dir + "/schema.sql", Dialect: "postgres",
			Constraints: []string{"carts.slots >= 0"}, Workers: 1,
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Results) != 1 || rep.Results[0].Verdict != tt.want {
			t.Fatalf("%s: got %+v, want one %s", tt.dir, rep.Results, tt.want)
		}
		c := rep.Results[0].Counterexample
		if c == nil {
			continue
		}
		found := false
		for _, st := range c.Steps {
			if strings.HasPrefix(st.Text, "INSERT INTO order_lines") {
				found = true
				if st.Values["rowsAffected"] != "1" {
					t.Errorf("%s: INSERT … SELECT rowsAffected = %q, want 1", tt.dir, st.Values["rowsAffected"])
				}
			}
		}
		seeded := false
		for _, r := range c.Rows {
			seeded = seeded || r.Table == "products"
		}
		if !found || !seeded {
			t.Errorf("%s: the trace lacks the INSERT … SELECT step (%v) or the products row it copies (%v)", tt.dir, found, seeded)
		}
	}
}
