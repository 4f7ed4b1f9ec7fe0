package benchmarks_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dbverify/dbverify/benchmarks/harness"
	"github.com/dbverify/dbverify/groundtruth"
)

// replayArgs are the flags of a case's check arguments that replay needs
// too (the schema, the default table, the key inference, the dialect).
func replayArgs(c *harness.Case) []string {
	var out []string
	for i := 0; i < len(c.Args); i++ {
		switch c.Args[i] {
		case "--schema", "--table", "--dialect":
			out = append(out, c.Args[i], c.Args[i+1])
			i++
		case "--no-infer-key":
			out = append(out, c.Args[i])
		}
	}
	return out
}

// checkReport runs check on the case and writes its JSON report into a
// temporary file, whose path it returns.
func checkReport(t *testing.T, c *harness.Case) string {
	t.Helper()
	return unsafeReport(t, c.Dir, harness.CheckArgs(c, harness.Options{})...)
}

// unsafeReport runs dbverify with args (a check with --format json) in
// dir, wants exit 1 (UNSAFE), and writes the JSON report into a
// temporary file, whose path it returns.
func unsafeReport(t *testing.T, dir string, args ...string) string {
	t.Helper()
	inv := dbverify(t, dir, args...)
	if inv.ExitCode != 1 {
		t.Fatalf("check: exit %d, want 1 (UNSAFE)\nstderr:\n%s", inv.ExitCode, inv.Stderr)
	}
	path := filepath.Join(t.TempDir(), "report.json")
	if err := os.WriteFile(path, inv.Stdout, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// needEngines skips the test when PostgreSQL or MariaDB is not installed.
func needEngines(t *testing.T) {
	t.Helper()
	for _, bin := range []string{"mariadbd", "postgres"} {
		if _, err := exec.LookPath(bin); err == nil {
			continue
		}
		found := false
		for _, dir := range []string{"/usr/sbin", "/usr/lib/postgresql/15/bin", "/usr/local/bin"} {
			if _, err := os.Stat(filepath.Join(dir, bin)); err == nil {
				found = true
			}
		}
		if !found {
			t.Skipf("%s is not installed (make deps)", bin)
		}
	}
}

// replayAllEnv set to 1 makes TestReplayAllUnsafe replay every fast
// corpus UNSAFE (make bench); make test replays the representative set of
// TestReplayReproduces.
const replayAllEnv = "DBVERIFY_REPLAY_ALL"

// TestReplayReproduces replays the UNSAFE counterexamples of a
// representative set of fast corpus cases — each engine, each kind of
// entry the driver calls and each way a counterexample is completed — on
// throwaway SQLite, MariaDB and PostgreSQL databases and asserts that each
// breaks the constraint on the real engine. The cases marked benchOnly
// (regressions of the witness harness, which the cross-check's replay of
// every fast UNSAFE runs in make test too) run in make bench only, as
// does TestReplayAllUnsafe, dbverify replay on every fast UNSAFE.
func TestReplayReproduces(t *testing.T) {
	if testing.Short() {
		t.Skip("starts database servers")
	}
	needEngines(t)
	t.Parallel()
	cases := []struct {
		name, engine string
		benchOnly    bool // replayed by make bench (and by the cross-check's harness in make test)
	}{
		{"core/atm_unsafe", "mysql", false},                      // schema.sql
		{"dialect/pg_reserve_unsafe", "postgres", false},         // dialect from the report
		{"dialect/mixed_driver_imports_unsafe", "sqlite", false}, // the entry's dialect (its package's driver), not the report's (mysql)
		{"inventory/capacity_unsafe", "mysql", true},             // two UNSAFE entries
		{"interproc/iface_repo_unsafe", "postgres", true},        // an interface filled with the package's type
		{"trust/sqlite_tip_jar_unsafe", "sqlite", false},         // SQLite, the driver registered by the main package
		{"trust/tx_done_unsafe", "sqlite", true},                 // a second row the trace's UPDATE matched
		{"pg/transfer_tx_unsafe", "postgres", true},              // the rows sqlc's UPDATE … RETURNING matched
		{"trust/entry_chi_factory_unsafe", "mysql", false},       // a closure a factory returns, chi path, form
		{"trust/entry_gin_method_unsafe", "mysql", false},        // a gin handler
		{"interproc/handler_unsafe", "mysql", false},             // net/http PathValue and a JSON body
		{"trust/entry_optable_unsafe", "mysql", false},           // an entry taking an open *sql.Tx
		// A foreign key's parent row the trace does not list, seeded
		// after the INSERT was refused; a table named "transferLog"
		// (PostgreSQL) or `order` (MySQL) quoted by the reset.
		{"trust/replay_fk_quoted_pg_unsafe", "postgres", true},
		{"trust/replay_reserved_mysql_unsafe", "mysql", true},
		{"goroutine/pg_settle_errgroup_unsafe", "postgres", false}, // the debit in an errgroup goroutine
		{"trust/sqlite_dispute_fee_unsafe", "sqlite", true},        // a string column the WHERE matches by a literal
		{"trust/sqlite_wallet_int32_unsafe", "sqlite", true},       // a string key, a composite literal passed on
		// Two Go-distinct handles that the key's collation makes one row:
		// printed as the texts the engine equates ("str1", "STR1 ").
		{"dialect/mysql_escrow_ci_unsafe", "mysql", false},
		{"dialect/sqlite_escrow_nocase_unsafe", "sqlite", true},
		{"dialect/pg_escrow_char_unsafe", "postgres", true},
		// A text input checked as text, then parsed: passed exactly as
		// printed ("00", not "0"), an int64 input as a number. (These
		// fast cases' counterexamples are also replayed by make test's
		// cross-check.)
		{"trust/pg_qty_text_zero_unsafe", "postgres", true},
		// A Go string bound to a BIGINT key: an integer's text, which
		// the engine reads as the seeded key.
		{"trust/pg_text_bigint_key_unsafe", "postgres", true},
		{"trust/mysql_text_bigint_key_unsafe", "mysql", true},
		// A closure behind a function adapter in an unexported interface
		// field: the receiver is built by the package's constructor.
		{"trust/adapter_field_unsafe", "mysql", true},
		// Go-side conversions: an INTEGER flag scanned into a bool (0 or
		// 1), a uint64 wrapped below 2^63 (database/sql refuses 2^63 and
		// above); MySQL's INSERT IGNORE storing 0 for a NULL; a float
		// argument that is a number, not a NaN.
		{"trust/scan_bool_unsafe", "sqlite", true},
		{"trust/sqlite_uint64_unsafe", "sqlite", true},
		{"trust/mysql_insert_ignore_null_unsafe", "mysql", true},
		{"decimal/sqlite_nan_refund_unsafe", "sqlite", true},
		// A row pgx.CollectOneRow collects into a struct by name: the
		// negative pending amount an int32 field holds.
		{"trust/pgx_collect_domain_unsafe", "postgres", false},
		// Float arguments bound by name (sql.Named, sqlx from a struct
		// and a map): a negative number, not a NaN.
		{"trust/sqlite_named_nan_unsafe", "sqlite", false},
		// UPDATE … ORDER BY qty ASC LIMIT 1 changes the emptier of two
		// seeded bins.
		{"trust/mysql_update_order_limit_unsafe", "mysql", false},
		// ORDER BY … DESC LIMIT 1 read the largest of two seeded rows.
		{"trust/pg_order_limit_min_unsafe", "postgres", true},
		// The row an UPDATE … FROM (UPDATE a JOIN b) joins, seeded.
		{"trust/pg_update_from_price_unsafe", "postgres", true},
		{"trust/mysql_update_join_price_unsafe", "mysql", true},
		// A multi-row INSERT whose rows get distinct keys.
		{"trust/mysql_open_pair_unsafe", "mysql", true},
		// A multi-row upsert's rows, each with its own excluded values;
		// an UPDATE … FROM joining the target table itself; a COUNT(*)
		// and an EXISTS guard a purge skips.
		{"trust/sqlite_upsert_pair_unsafe", "sqlite", true},
		{"trust/pg_upsert_pair_unsafe", "postgres", true},
		{"trust/pg_update_self_join_unsafe", "postgres", true},
		{"trust/sqlite_count_guard_unsafe", "sqlite", true},
		{"trust/pg_exists_guard_unsafe", "postgres", true},
		// A row DELETE … RETURNING hands to the Scan (not the watched
		// one), seeded with the values the trace read, not zeros.
		{"pg/delete_returning_unsafe", "postgres", true},
		// Two seeded rows share the api_key a QueryRow reads by: the
		// row the trace read is seeded first, with the smaller id.
		{"quota/api_quota_nokey_unsafe", "mysql", true},
		// A time.Time parameter bound as it came in: listed among the
		// inputs with the timestamp the UPDATE binds, and passed (it
		// was left out, and the run passed now).
		{"trust/pg_time_input_end_unsafe", "postgres", false},
	}
	all, left := os.Getenv(replayAllEnv) == "1", 0
	for _, tc := range cases {
		if tc.benchOnly && !all {
			left++
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			recordInputs(t)
			c, err := harness.ReadCase(filepath.Join(corpusDir(t), tc.name), tc.name)
			if err != nil {
				t.Fatal(err)
			}
			out := replayCase(t, c)
			if !strings.Contains(out, "on "+tc.engine+" (a throwaway") {
				t.Errorf("replay did not run on %s:\n%s", tc.engine, out)
			}
		})
	}
	if left > 0 {
		t.Logf("%d of %d cases left to make bench (%s=1)", left, len(cases), replayAllEnv)
	}
}

// replayTimeout bounds one replay: it builds the witness driver, whose
// first build of a library as large as modernc.org/sqlite takes minutes
// on a loaded machine.
const replayTimeout = 5 * time.Minute

// replay runs dbverify replay in dir.
func replay(t *testing.T, dir string, args ...string) *harness.Invocation {
	t.Helper()
	args = append([]string{"replay"}, args...)
	inv := harness.Exec(context.Background(), binary(t), dir, args, replayTimeout)
	if inv.TimedOut {
		t.Fatalf("dbverify %s timed out after %s", strings.Join(args, " "), replayTimeout)
	}
	if inv.Err != nil {
		t.Fatalf("dbverify %s: %v\nstderr:\n%s", strings.Join(args, " "), inv.Err, inv.Stderr)
	}
	return inv
}

// replayCase runs check and replay on a case and asserts that every
// UNSAFE result's counterexample reproduced; it returns replay's output.
func replayCase(t *testing.T, c *harness.Case) string {
	t.Helper()
	report := checkReport(t, c)
	inv := replay(t, c.Dir, append(replayArgs(c), report)...)
	out := string(inv.Stdout)
	if inv.ExitCode != 0 {
		t.Fatalf("replay: exit %d, want 0\nstdout:\n%s\nstderr:\n%s", inv.ExitCode, out, inv.Stderr)
	}
	unsafe := 0
	for _, e := range c.Expect {
		if e.Verdict == harness.Unsafe {
			unsafe++
		}
	}
	if n := strings.Count(out, "\n["); n != unsafe {
		t.Errorf("replayed %d counterexamples, want %d (the case's UNSAFE results):\n%s", n, unsafe, out)
	}
	if !regexp.MustCompile(`REPRODUCED: violated (after the call|at a commit point during the call): \{`).MatchString(out) || strings.Contains(out, "NOT REPRODUCED") {
		t.Errorf("a counterexample did not reproduce:\n%s", out)
	}
	return out
}

// replayLimits are the fast corpus UNSAFE cases whose counterexample does
// not reproduce on its engine, each with the reason; TestReplayAllUnsafe
// fails on any other, and on one of these that reproduces.
var replayLimits = map[string]string{
	// The counterexample needs the sequence's next value to be a seeded
	// row's id; replay seeds rows with explicit ids, which leave the
	// sequence at 1 (TestGeneratedKeyTruth shows the collision).
	"dialect/pg_upsert_serial_unsafe": "a sequence replay does not advance",
	// MySQL 8's `INSERT … VALUES (…) AS new` alias: MariaDB, the MySQL
	// engine here, refuses its syntax.
	"trust/mysql8_upsert_alias_unsafe": "MySQL 8 syntax MariaDB lacks",
	// The trace's inputs say debits[i] = {0, 0, 0} while its path passes
	// the check Amount > 0: the counterexample reports the slice element
	// read at the loop's index with another element's values.
	"trust/slice_same_index_unsafe": "inputs of the loop's element not in the counterexample",
	// The model does not enforce the table's other CHECK (reserved <=
	// stock), which MariaDB does: the counterexample's write fails.
	"schema/goose_checks_unsafe": "breaks another enforced CHECK",
	// WithdrawOffline debits the SQLite replica of a program whose other
	// database is PostgreSQL: replay runs one engine, the report's.
	"trust/two_drivers_unsafe": "two databases of two dialects",
	// math/rand decides the amount: the counterexample's draw is one the
	// run may not make.
	"trust/external_result_unsafe": "the program draws random numbers",
	// The trace's SELECT fails with a server error and err ==
	// ErrNoMember then holds (a path-insensitive error identity through
	// the repository's returns); the real run needs "no row", which the
	// replay no longer substitutes for the trace's failure.
	"trust/err_wrapped_sentinel_unsafe": "err == sentinel on a server-error path",
}

// TestReplayAllUnsafe replays every fast corpus UNSAFE on its engine
// (DBVERIFY_REPLAY_ALL=1, as make bench sets; too slow for make test,
// which replays TestReplayReproduces's set).
func TestReplayAllUnsafe(t *testing.T) {
	if os.Getenv(replayAllEnv) != "1" {
		t.Skip("set " + replayAllEnv + "=1 to replay every fast corpus UNSAFE (make bench)")
	}
	needEngines(t)
	cases, err := harness.LoadCases(corpusDir(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		unsafe := false
		for _, e := range c.Expect {
			unsafe = unsafe || e.Verdict == harness.Unsafe
		}
		if !c.Fast || !unsafe {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			recordInputs(t)
			if why, ok := replayLimits[c.Name]; ok {
				report := checkReport(t, c)
				inv := replay(t, c.Dir, append(replayArgs(c), report)...)
				if inv.ExitCode == 0 {
					t.Errorf("replay reproduces every counterexample although listed in replayLimits (%s): remove it", why)
				}
				t.Logf("known limit: %s", why)
				return
			}
			replayCase(t, c)
		})
	}
}

// TestReplayUsage checks replay's usage errors (exit 2 with a message)
// and a report without UNSAFE results (exit 0).
func TestReplayUsage(t *testing.T) {
	recordInputs(t)
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	safe := write("safe.json", `{"results":[{"entry":"example.com/m.F","constraint":"t.a >= 0","verdict":"SAFE"}],"dialect":{"name":"mysql"}}`)
	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"no report", []string{"replay"}, 2, "want one report"},
		{"two reports", []string{"replay", safe, safe}, 2, "want one report"},
		{"missing file", []string{"replay", filepath.Join(dir, "none.json")}, 2, "no such file"},
		{"not JSON", []string{"replay", write("bad.json", "UNSAFE")}, 2, "not a JSON report"},
		{"result out of range", []string{"replay", "--result", "5", safe}, 2, "the report has 1 results"},
		{"result not UNSAFE", []string{"replay", "--result", "1", safe}, 2, "is SAFE, not UNSAFE"},
		{"bad entry regexp", []string{"replay", "--entry", "(", safe}, 2, "--entry"},
		{"no dialect", []string{"replay", write("nodialect.json", `{"results":[]}`)}, 2, "give --dialect"},
		{"nothing to replay", []string{"replay", safe}, 0, "no UNSAFE result to replay"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			inv := dbverify(t, dir, tc.args...)
			if inv.ExitCode != tc.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", inv.ExitCode, tc.code, inv.Stdout, inv.Stderr)
			}
			if got := string(inv.Stdout) + string(inv.Stderr); !strings.Contains(got, tc.msg) {
				t.Errorf("output does not say %q:\n%s", tc.msg, got)
			}
		})
	}
}

// TestReplayEmitTest emits the regression test of two UNSAFE cases, runs
// it on a real engine against the unfixed program (it must fail on the
// violation) and against the program fixed with the SAFE twin's code (it
// must pass). Each case is copied with the corpus module's go.mod into a
// temporary module first.
func TestReplayEmitTest(t *testing.T) {
	if testing.Short() {
		t.Skip("starts database servers and runs go test")
	}
	needEngines(t)
	t.Parallel()
	cases := []struct {
		unsafe, safe string
		engine       groundtruth.Dialect
		// seeds: what the emitted test seeds and passes, as written there
		// (regular expressions: a string value as the string, not a code).
		seeds []string
		// benchOnly: emitted and run by make bench (DBVERIFY_REPLAY_ALL=1);
		// make test runs one case per engine.
		benchOnly bool
	}{
		{"core/atm_unsafe", "core/atm_safe", groundtruth.MySQL, nil, false},
		{"dialect/pg_reserve_unsafe", "dialect/pg_reserve_safe", groundtruth.Postgres, nil, false},
		{"trust/sqlite_dispute_fee_unsafe", "trust/sqlite_dispute_fee_safe", groundtruth.SQLite, []string{`'dispute'\)`}, true},
		{"trust/sqlite_wallet_int32_unsafe", "trust/sqlite_wallet_int32_safe", groundtruth.SQLite, []string{`"owner":\s+"\\"\w*\\""`, `VALUES \(-?\d+, '\w*'\)`}, false},
		// The time.Time input passed as the counterexample's timestamp.
		{"trust/pg_time_input_end_unsafe", "trust/pg_time_input_end_safe", groundtruth.Postgres, []string{`"newEnd":\s+"\\"20\d\d-\d\d-\d\d 00:00:00\\""`}, true},
	}
	for _, tc := range cases {
		if tc.benchOnly && os.Getenv(replayAllEnv) != "1" {
			t.Logf("%s: emitted by make bench (%s=1)", tc.unsafe, replayAllEnv)
			continue
		}
		t.Run(tc.unsafe, func(t *testing.T) {
			recordInputs(t)
			corpus, mod := corpusModule(t)
			caseDir := filepath.Join(mod, filepath.FromSlash(tc.unsafe))
			copyDir(t, filepath.Join(corpus, filepath.FromSlash(tc.unsafe)), caseDir, "")
			c, err := harness.ReadCase(caseDir, tc.unsafe)
			if err != nil {
				t.Fatal(err)
			}
			report := checkReport(t, c)
			args := append(append([]string{"--emit-test", "replay_regression_test.go"}, replayArgs(c)...), report)
			inv := replay(t, caseDir, args...)
			if inv.ExitCode != 0 {
				t.Fatalf("replay --emit-test: exit %d\nstdout:\n%s\nstderr:\n%s", inv.ExitCode, inv.Stdout, inv.Stderr)
			}
			testFile := filepath.Join(caseDir, "replay_regression_test.go")
			emitted, err := os.ReadFile(testFile)
			if err != nil {
				t.Fatalf("no test written: %v\n%s", err, inv.Stdout)
			}
			for _, w := range tc.seeds {
				if !regexp.MustCompile(w).Match(emitted) {
					t.Errorf("the emitted test has no %s:\n%s", w, emitted)
				}
			}

			ctx := context.Background()
			eng, err := groundtruth.Start(ctx, tc.engine, t.TempDir())
			if errors.Is(err, groundtruth.ErrMissingBinary) {
				t.Skip(err)
			}
			if err != nil {
				t.Fatal(err)
			}
			defer eng.Close()
			dsnFor := func() string {
				db, name, err := eng.NewDatabase(ctx)
				if err != nil {
					t.Fatal(err)
				}
				db.Close()
				return eng.DSN(name)
			}

			// The unfixed program: the test fails on the violation.
			out, err := goTest(caseDir, dsnFor())
			if err == nil || !strings.Contains(out, "--- FAIL: TestDBVerifyReplay") || !strings.Contains(out, "broken by the") {
				t.Fatalf("the emitted test does not fail on the unfixed program (err %v):\n%s", err, out)
			}

			// The fix: the SAFE twin's code under the unsafe package's name.
			entries, err := os.ReadDir(caseDir)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if strings.HasSuffix(e.Name(), ".go") && !strings.HasSuffix(e.Name(), "_test.go") {
					if err := os.Remove(filepath.Join(caseDir, e.Name())); err != nil {
						t.Fatal(err)
					}
				}
			}
			copyDir(t, filepath.Join(corpus, filepath.FromSlash(tc.safe)), caseDir, filepath.Base(tc.unsafe))
			out, err = goTest(caseDir, dsnFor())
			if err != nil || !strings.Contains(out, "--- PASS: TestDBVerifyReplay") {
				t.Fatalf("the emitted test does not pass on the fixed program (err %v):\n%s", err, out)
			}
		})
	}
}

// goTest runs the emitted test in dir against the database dsn.
func goTest(dir, dsn string) (string, error) {
	cmd := exec.Command("go", "test", "-count=1", "-v", "-run", "^TestDBVerifyReplay", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "DBVERIFY_TEST_DSN="+dsn, "GOWORK=off")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// copyDir copies the files of a case directory (not its subdirectories);
// with pkg set, the Go files' package clause is renamed to pkg and
// expect.json is left out.
func copyDir(t *testing.T, from, to, pkg string) {
	t.Helper()
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	clause := regexp.MustCompile(`(?m)^package \w+`)
	for _, e := range entries {
		if e.IsDir() || (pkg != "" && e.Name() == "expect.json") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if pkg != "" && strings.HasSuffix(e.Name(), ".go") {
			data = clause.ReplaceAll(data, []byte("package "+pkg))
		}
		if err := os.MkdirAll(to, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestReplayNotReproduced replays a counterexample whose input was edited
// so that it no longer breaks the constraint (withdrawing 0 from a balance
// at the minimum): replay must say so and exit 1.
func TestReplayNotReproduced(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a database server")
	}
	needEngines(t)
	recordInputs(t)
	c, err := harness.ReadCase(filepath.Join(corpusDir(t), "core/atm_unsafe"), "core/atm_unsafe")
	if err != nil {
		t.Fatal(err)
	}
	report := checkReport(t, c)
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	amt := regexp.MustCompile(`"amt": "-?\d+"`)
	if !amt.Match(data) {
		t.Fatalf("the counterexample has no amt input:\n%s", data)
	}
	if err := os.WriteFile(report, amt.ReplaceAll(data, []byte(`"amt": "0"`)), 0o644); err != nil {
		t.Fatal(err)
	}
	inv := replay(t, c.Dir, append(replayArgs(c), report)...)
	out := string(inv.Stdout)
	if inv.ExitCode != 1 {
		t.Fatalf("replay: exit %d, want 1\nstdout:\n%s\nstderr:\n%s", inv.ExitCode, out, inv.Stderr)
	}
	if !strings.Contains(out, "NOT REPRODUCED: Account.balance >= 1000 holds after the call") || !strings.Contains(out, "0 of 1 counterexample(s) reproduced") {
		t.Errorf("replay does not say the counterexample did not reproduce:\n%s", out)
	}
}

// TestReplayDSN replays on a database the caller runs (--dsn) instead of
// a throwaway server, for both dialects: the tables are created in it and
// the counterexample reproduces.
func TestReplayDSN(t *testing.T) {
	if testing.Short() {
		t.Skip("starts database servers")
	}
	needEngines(t)
	cases := []struct {
		name   string
		engine groundtruth.Dialect
	}{
		{"bank/withdraw_unsafe", groundtruth.MySQL},
		{"dialect/pg_reserve_unsafe", groundtruth.Postgres},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			recordInputs(t)
			c, err := harness.ReadCase(filepath.Join(corpusDir(t), tc.name), tc.name)
			if err != nil {
				t.Fatal(err)
			}
			report := checkReport(t, c)
			ctx := context.Background()
			eng, err := groundtruth.Start(ctx, tc.engine, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			defer eng.Close()
			db, name, err := eng.NewDatabase(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			args := append(append([]string{"--dsn", eng.DSN(name)}, replayArgs(c)...), report)
			inv := replay(t, c.Dir, args...)
			out := string(inv.Stdout)
			if inv.ExitCode != 0 || !strings.Contains(out, "(--dsn)") || !strings.Contains(out, "1 of 1 counterexample(s) reproduced") {
				t.Fatalf("replay --dsn: exit %d\nstdout:\n%s\nstderr:\n%s", inv.ExitCode, out, inv.Stderr)
			}
			// The run's rows stay in the caller's database.
			var n int
			if err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+map[bool]string{true: "products", false: "accounts"}[tc.engine == groundtruth.Postgres]).Scan(&n); err != nil || n == 0 {
				t.Errorf("the constraint's table in the --dsn database: %d rows, %v", n, err)
			}
		})
	}
}
