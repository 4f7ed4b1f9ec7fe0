package benchmarks_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReplaySQLiteDriverElsewhere replays, with the built binary, SQLite
// counterexamples of packages that open the database by name but do not
// import a SQLite driver themselves: in inmain only the program's main
// package imports modernc.org/sqlite (and main is an UNSAFE entry of its
// own, which the driver cannot import: it is reported not run, the rest
// replays); in nodriver the module requires no SQLite driver at all (the
// package opens "sqlite3", mattn's name, and the program importing a
// driver lives in another module). The witness driver registers
// modernc.org/sqlite itself, under both names, and each counterexample
// reproduces.
func TestReplaySQLiteDriverElsewhere(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a witness driver")
	}
	recordInputs(t)
	for _, tc := range []struct {
		mod     string
		results int // UNSAFE results check reports
	}{
		{"inmain", 2},
		{"nodriver", 1},
	} {
		t.Run(tc.mod, func(t *testing.T) {
			dir, err := filepath.Abs(filepath.Join("testdata", "sqlitedrv", tc.mod))
			if err != nil {
				t.Fatal(err)
			}
			check := dbverify(t, dir, "check", "--no-cache", "--format", "json", "--dialect", "sqlite", "--schema", "schema.sql", "-c", "wallets.balance >= 0", "./...")
			if check.ExitCode != 1 {
				t.Fatalf("check: exit %d, want 1 (UNSAFE)\nstderr:\n%s", check.ExitCode, check.Stderr)
			}
			if n := strings.Count(string(check.Stdout), `"verdict": "UNSAFE"`); n != tc.results {
				t.Fatalf("%d UNSAFE results, want %d:\n%s", n, tc.results, check.Stdout)
			}
			report := filepath.Join(t.TempDir(), "report.json")
			if err := os.WriteFile(report, check.Stdout, 0o644); err != nil {
				t.Fatal(err)
			}
			inv := replay(t, dir, "--dialect", "sqlite", "--schema", "schema.sql", report)
			out := string(inv.Stdout)
			if strings.Contains(string(inv.Stderr), "unknown driver") || !strings.Contains(out, "REPRODUCED: violated after the call") {
				t.Fatalf("replay: exit %d\nstdout:\n%s\nstderr:\n%s", inv.ExitCode, out, inv.Stderr)
			}
			if !strings.Contains(out, "example.com/"+tc.mod+"/store.Withdraw") {
				t.Errorf("store.Withdraw not replayed:\n%s", out)
			}
			if tc.mod == "inmain" && !strings.Contains(out, "package main cannot be imported") {
				t.Errorf("the main entry is not reported as not run:\n%s", out)
			}
		})
	}
}
