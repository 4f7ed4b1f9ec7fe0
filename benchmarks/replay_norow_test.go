package benchmarks_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/benchmarks/harness"
)

// TestReplayFollowsNoRow checks that a replay fails a query the way the
// counterexample says (issue 8): "no row" (sql.ErrNoRows) where the
// trace's failed SELECT found no row, a server error otherwise. It used to
// inject an error and, when that did not break the constraint, "no row"
// regardless of the trace, confirming runs the counterexample was not.
func TestReplayFollowsNoRow(t *testing.T) {
	if testing.Short() {
		t.Skip("starts database servers")
	}
	needEngines(t)
	for _, tc := range []struct {
		name, want, not string
	}{
		// The tenant's row is missing (no row), the upsert then hits
		// another tenant's row by its api_key.
		{"dialect/mysql_upsert_two_keys_unsafe", "no row from run 1 of SELECT used, quota FROM apikeys", "failing run"},
		// The read fails with a server error and the debit runs
		// unchecked.
		{"trust/read_error_fallback_unsafe", "failing run 1 of SELECT balance FROM accounts", "no row from"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			recordInputs(t)
			c, err := harness.ReadCase(filepath.Join(corpusDir(t), tc.name), tc.name)
			if err != nil {
				t.Fatal(err)
			}
			out := replayCase(t, c)
			if !strings.Contains(out, tc.want) || strings.Contains(out, tc.not) {
				t.Errorf("want %q and no %q in the replay:\n%s", tc.want, tc.not, out)
			}
		})
	}
	t.Run("told no row", func(t *testing.T) {
		// The same counterexample said to fail its SELECT for want of a
		// row: the program refuses the missing account and the replay
		// must not reproduce (the old replay, which ignored the flag,
		// did).
		recordInputs(t)
		c, err := harness.ReadCase(filepath.Join(corpusDir(t), "trust/read_error_fallback_unsafe"), "trust/read_error_fallback_unsafe")
		if err != nil {
			t.Fatal(err)
		}
		report := checkReport(t, c)
		data, err := os.ReadFile(report)
		if err != nil {
			t.Fatal(err)
		}
		const step = `"text": "SELECT balance FROM accounts WHERE id = $1",`
		if !strings.Contains(string(data), step) || strings.Contains(string(data), `"no_rows"`) {
			t.Fatalf("the report's SELECT step is not a plain failure:\n%s", data)
		}
		edited := strings.Replace(string(data), step, step+` "no_rows": true,`, 1)
		if err := os.WriteFile(report, []byte(edited), 0o644); err != nil {
			t.Fatal(err)
		}
		inv := replay(t, c.Dir, append(replayArgs(c), report)...)
		out := string(inv.Stdout)
		if inv.ExitCode == 0 || !strings.Contains(out, "no row from run 1 of SELECT balance") || !strings.Contains(out, "NOT REPRODUCED") {
			t.Errorf("replay of the edited counterexample: exit %d, want a 'no row' run that does not reproduce:\n%s", inv.ExitCode, out)
		}
	})
}
