package benchmarks_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/benchmarks/harness"
)

// TestReplaySeedsJoinedRow replays, with the built binary, UNSAFE
// counterexamples whose violating UPDATE joins a row of another table
// that the program writes later (UPDATE … FROM charges on PostgreSQL,
// UPDATE accounts a JOIN charges c on MySQL, then UPDATE charges SET
// settled = true). The trace listed no row of charges (a row read from
// a table the program writes had no row symbol), so replay seeded none,
// the UPDATE matched nothing and the run was NOT REPRODUCED (an
// independent tester's mini/updatefromrow). The joined row is listed
// and seeded, and the run reproduces.
func TestReplaySeedsJoinedRow(t *testing.T) {
	if testing.Short() {
		t.Skip("starts database servers")
	}
	needEngines(t)
	for _, name := range []string{"trust/pg_settle_from_mark_unsafe", "trust/mysql_settle_join_mark_unsafe"} {
		t.Run(name, func(t *testing.T) {
			recordInputs(t)
			c, err := harness.ReadCase(filepath.Join(corpusDir(t), name), name)
			if err != nil {
				t.Fatal(err)
			}
			out := replayCase(t, c)
			if !strings.Contains(out, "seeded charges {account_id=") {
				t.Errorf("the joined charges row was not seeded:\n%s", out)
			}
		})
	}
}
