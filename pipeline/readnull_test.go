package pipeline

import (
	"context"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestReadRowNullShown: the row a SELECT … AND deleted_at IS NULL reads
// has deleted_at NULL, and the counterexample says so, in its rows (which
// a replay seeds) and in the SELECT's step. The read row's NULL-ness was
// not shown: deleted_at was printed as the arbitrary date the model's
// column variable held, and the replay, seeding that date, found no row
// (NOT REPRODUCED; independent tester adv16 cx_tenant_isnull).
func TestReadRowNullShown(t *testing.T) {
	dir := corpusCase("trust/tenant_isnull_unsafe")
	rep, err := Run(context.Background(), Config{
		Dir: dir, Patterns: []string{"./..."}, Schema: dir + "/schema.sql", Dialect: "postgres",
		Constraints: []string{"accounts.balance >= 0"}, Workers: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 || rep.Results[0].Verdict != report.Unsafe {
		t.Fatalf("results %+v, want one UNSAFE", rep.Results)
	}
	cex := rep.Results[0].Counterexample
	read := 0
	for _, row := range cex.Rows {
		if row.Symbol == "r" {
			continue
		}
		read++
		if got := row.Values["deleted_at"]; got != "NULL" {
			t.Errorf("row %s read by deleted_at IS NULL has deleted_at = %s, want NULL", row.Symbol, got)
		}
	}
	if read == 0 {
		t.Fatalf("no read row in %+v", cex.Rows)
	}
	for _, s := range cex.Steps {
		for name, v := range s.Values {
			if name == "s1.deleted_at" && v != "NULL" {
				t.Errorf("step %q: s1.deleted_at = %s, want NULL", s.Text, v)
			}
		}
	}
}
