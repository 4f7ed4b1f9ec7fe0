package frontend_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/dbverify/dbverify/pipeline"
	"github.com/dbverify/dbverify/refine"
)

// TestJSONPointerNull: the counterexample of a debit whose guard and SQL
// read a missing *int64 fee of a JSON body differently sends the fee as
// null — the nil-ness of a decoded pointer field is one value, which the
// branch on it and the NULL the driver binds both read (adv12 m4, m6:
// the target was not tied to the argument, an arbitrary value).
func TestJSONPointerNull(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "src"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := pipeline.Run(context.Background(), pipeline.Config{
		Dir: dir, Patterns: []string{"./rules"}, Entry: `rules\.JSONPointerNullUnsafe$`,
		Constraints: []string{"accounts.balance >= 0"}, Workers: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 || rep.Results[0].Verdict != refine.Unsafe {
		t.Fatalf("want one UNSAFE result, got %+v", rep.Results)
	}
	cex := rep.Results[0].Counterexample
	sent := map[string]string{}
	for _, h := range cex.HTTP {
		sent[h.Name] = h.Raw
	}
	if sent["fee"] != "null" {
		t.Errorf("the body's fee is %q, want null (the guard adds 0 for it, the debit 5): %+v", sent["fee"], cex.HTTP)
	}
	if a := sent["amount"]; a == "" || a == "null" {
		t.Errorf("the body's amount is %q, want a number (the handler refuses a missing one)", a)
	}
}
