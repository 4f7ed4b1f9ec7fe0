package benchmarks_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// replayModule is a module of small UNSAFE programs, one per part of the
// replay harness they exercise; it requires the SQLite driver, gin and echo
// (none of the runtime's database libraries).
func replayModule(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "witness", "testdata", "replaymod"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestReplayHarness runs check and replay once on the programs of
// witness/testdata/replaymod (embedded SQLite: one driver build, one
// database) and asserts that every counterexample reproduces, with the
// harness note that says how.
func TestReplayHarness(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a witness driver")
	}
	recordInputs(t)
	tests := []struct {
		name, entry, constraint string
		// notes are lines the replay prints for the part it exercises.
		notes []string
		// notSet, when set, is the input the run cannot set: the replay
		// must name it and not reproduce, saying so.
		notSet string
	}{
		{
			// The module requires neither the runtime's MySQL, pgx and
			// sqlx packages nor shopspring/decimal: the driver builds with
			// a copy of go.mod that adds the former, and without the latter.
			name: "module without the runtime's libraries", entry: "wallet.Pay", constraint: "wallets.balance >= 0",
		},
		{
			// The INSERT fails on the seeded key with SQLite's own
			// error, which the program's errors.As test recognises.
			name: "duplicate key raised by the engine", entry: "claims.(*Store).Claim", constraint: "credits.credits >= 0",
			notes: []string{"failed on the engine by itself (the seeded rows hold its key)"},
		},
		{
			// Tickets{st *store.Store}: the nested store of another
			// package is built by store.New, not left nil.
			name: "receiver field built by its package's constructor", entry: "tickets/service.(*Tickets).Cancel", constraint: "events.sold >= 0",
			notes: []string{"t.st (*example.com/replaymod/tickets/store.Store) is built by its package's constructor store.New"},
		},
		{
			// Service{Repo *repo.Repo}, no New… in package repo: the
			// repository's unexported *sql.DB is filled by reflection.
			name: "receiver field filled by reflection", entry: "points/rewards.(*Service).Redeem", constraint: "members.points >= 0",
			notes: []string{"s.Repo (*example.com/replaymod/points/repo.Repo) has no constructor", "its database handles filled"},
		},
		{
			// The SELECT of accounts (no row symbol: the constraint is on
			// debts) scans balance into bal: the accounts row is seeded
			// from bal's value, or Scan returns sql.ErrNoRows.
			name: "row of another table read into a differently named variable", entry: "billing.(*Billing).Charge", constraint: "debts.amount > 0",
			notes: []string{"seeded accounts {balance="},
		},
		{
			// The trace's SELECT "fails" and the program tests
			// errors.Is(err, sql.ErrNoRows): replayed as a query with no
			// row, not an injected error (which takes the other branch).
			name: "failing SELECT replayed as no row", entry: "opening.Deposit", constraint: "wallets.balance >= 0",
		},
		{
			// (*Repo[T]).Debit: the driver instantiates Repo with
			// struct{} for T.
			name: "method of a generic type", entry: "generic.(*Repo).Debit", constraint: "wallets.balance >= 0",
			notes: []string{"the generic Repo is instantiated as T = struct{}"},
		},
		{
			// SELECT … ORDER BY id LIMIT ? OFFSET ?: the trace reads one
			// row after the rows OFFSET skips, which it does not list;
			// they are seeded before it (copies with smaller ids), or
			// OFFSET skipped the only seeded row.
			name: "rows an OFFSET skips", entry: "page.ChargePage", constraint: "accounts.balance >= 0",
			notes: []string{"(OFFSET ", "before the row s1 it read: seeded"},
		},
		{
			// SELECT … WHERE expires_at > ? binds time.Now(): the driver
			// gives the call the counterexample's instant (the clock is an
			// input of the run), so the hold seeded with its expiry is
			// still valid (it was past the real clock: no row, NOT
			// REPRODUCED with no word on why: adv17 replay_time_now).
			// When a program binds times the trace does not tie to the
			// clock, replay maps the trace's now to the real one
			// (witness/clockmap.go, TestClockRun).
			name: "clock read by the entry", entry: "holds.Grow", constraint: "events.sold <= events.capacity",
			notes: []string{"clock: time.Now() reads "},
		},
		{
			// A closure's captured minKeep, which its factory reads from
			// the environment: an input only under --config-inputs (else
			// an approximation, and the result UNKNOWN); the run cannot
			// set it, and says so.
			name: "captured variable the run cannot set", entry: "keepmin.Handler$1", constraint: "wallets.balance >= 0",
			notSet: "minKeep",
		},
	}
	mod := replayModule(t)
	args := []string{"check", "--no-cache", "--format", "json", "--schema", "schema.sql", "--config-inputs"}
	var pkgs, entries []string
	for _, tc := range tests {
		args = append(args, "-c", tc.constraint)
		pkg, _, _ := strings.Cut(tc.entry, ".")
		pkgs = append(pkgs, "./"+pkg)
		entries = append(entries, regexp.QuoteMeta("example.com/replaymod/"+tc.entry)+"$")
	}
	check := dbverify(t, mod, append(args, pkgs...)...)
	if check.ExitCode != 1 {
		t.Fatalf("check: exit %d, want 1 (UNSAFE)\nstderr:\n%s", check.ExitCode, check.Stderr)
	}
	report := filepath.Join(t.TempDir(), "report.json")
	if err := os.WriteFile(report, check.Stdout, 0o644); err != nil {
		t.Fatal(err)
	}
	inv := replay(t, mod, "--schema", "schema.sql", "--entry", strings.Join(entries, "|"), report)
	out := string(inv.Stdout)
	// One block per counterexample: "[n] entry\n    constraint: …".
	blocks := map[string]string{}
	for _, b := range strings.Split(out, "\n[")[1:] {
		head, _, _ := strings.Cut(b, "\n")
		_, entry, _ := strings.Cut(head, "] ")
		_, constraint, _ := strings.Cut(b, "constraint: ")
		constraint, _, _ = strings.Cut(constraint, "\n")
		blocks[entry+" | "+constraint] = b
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, ok := blocks["example.com/replaymod/"+tc.entry+" | "+tc.constraint]
			if !ok {
				t.Fatalf("no replay of %s [%s]:\n%s\nstderr:\n%s", tc.entry, tc.constraint, out, inv.Stderr)
			}
			switch {
			case tc.notSet != "":
				if !strings.Contains(b, "could not set "+tc.notSet+" (captured by Handler$1): ran with the value Handler gives it") || !strings.Contains(b, "NOT REPRODUCED (inputs not set: "+tc.notSet+")") {
					t.Errorf("the replay does not say it could not set %s:\n[%s", tc.notSet, b)
				}
			case strings.Contains(b, "NOT REPRODUCED") || !strings.Contains(b, "REPRODUCED: violated"):
				t.Errorf("the counterexample does not reproduce:\n[%s", b)
			case strings.Contains(b, "could not set"):
				t.Errorf("the replay says it could not set an input of a run that reproduces:\n[%s", b)
			}
			for _, n := range tc.notes {
				if !strings.Contains(b, n) {
					t.Errorf("replay does not say %q:\n[%s", n, b)
				}
			}
		})
	}
}

// TestReplayEmitTestHandlerAndTx emits the regression test of a net/http,
// a gin and an echo handler and of an entry taking an open *sql.Tx
// (witness/testdata/replaymod, copied into a temporary module), runs it on
// a SQLite file: it builds and fails on the unfixed program; the handlers'
// pass once the guard is added. The gin and echo handlers decode JSON
// bodies with a string field of digits under a json tag that is neither
// the field's name nor its snake_case spelling: the test sends the body
// marshalled from the handler's own type, through the framework's router.
func TestReplayEmitTestHandlerAndTx(t *testing.T) {
	if testing.Short() {
		t.Skip("builds witness drivers and runs go test")
	}
	t.Parallel()
	tests := []struct {
		name, pkg, entry, constraint string
		// fix, when set, replaces the first string of the package's file
		// with the second: the guard that makes the emitted test pass.
		file string
		fix  [2]string
	}{
		{name: "net/http handler", pkg: "refunds", entry: "Refund", constraint: "wallets.balance >= 0",
			file: "refunds.go", fix: [2]string{"\tif _, err := h.DB.ExecContext(", "\tif req.Amount <= 0 {\n\t\thttp.Error(w, \"bad amount\", http.StatusBadRequest)\n\t\treturn\n\t}\n\tif _, err := h.DB.ExecContext("}},
		{name: "gin handler", pkg: "ginwallet", entry: "Withdraw", constraint: "wallets.balance >= 0",
			file: "ginwallet.go", fix: [2]string{"WHERE id = ?`, req.Amount, id)", "WHERE id = ? AND balance >= ?`, req.Amount, id, req.Amount)"}},
		{name: "echo handler", pkg: "echopoints", entry: "Redeem", constraint: "members.points >= 0",
			file: "echopoints.go", fix: [2]string{"WHERE id = ?`, n, id)", "WHERE id = ? AND points >= ?`, n, id, n)"}},
		{name: "entry taking an open transaction", pkg: "tickets/store", entry: "AddSold", constraint: "events.sold >= 0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // (each in its own copy of the module)
			recordInputs(t)
			mod := t.TempDir()
			if err := os.CopyFS(mod, os.DirFS(replayModule(t))); err != nil {
				t.Fatal(err)
			}
			check := dbverify(t, mod, "check", "--no-cache", "--format", "json", "--schema", "schema.sql", "-c", tc.constraint, "./"+tc.pkg)
			if check.ExitCode != 1 {
				t.Fatalf("check: exit %d, want 1 (UNSAFE)\nstderr:\n%s", check.ExitCode, check.Stderr)
			}
			report := filepath.Join(t.TempDir(), "report.json")
			if err := os.WriteFile(report, check.Stdout, 0o644); err != nil {
				t.Fatal(err)
			}
			testFile := filepath.Join(tc.pkg, "replay_regression_test.go")
			inv := replay(t, mod, "--schema", "schema.sql", "--entry", tc.entry, "--emit-test", testFile, report)
			if inv.ExitCode != 0 {
				t.Fatalf("replay --emit-test: exit %d\nstdout:\n%s\nstderr:\n%s", inv.ExitCode, inv.Stdout, inv.Stderr)
			}
			pkgDir := filepath.Join(mod, filepath.FromSlash(tc.pkg))
			out, err := goTest(pkgDir, filepath.Join(t.TempDir(), "unfixed.db"))
			if err == nil || !strings.Contains(out, "--- FAIL: TestDBVerifyReplay") || !strings.Contains(out, "broken by the") {
				t.Fatalf("the emitted test does not fail on the unfixed program (err %v):\n%s", err, out)
			}
			if tc.file == "" {
				return
			}
			src := filepath.Join(pkgDir, tc.file)
			data, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			fixed := strings.Replace(string(data), tc.fix[0], tc.fix[1], 1)
			if fixed == string(data) {
				t.Fatalf("%s has no %q to guard", tc.file, tc.fix[0])
			}
			if err := os.WriteFile(src, []byte(fixed), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err = goTest(pkgDir, filepath.Join(t.TempDir(), "fixed.db"))
			if err != nil || !strings.Contains(out, "--- PASS: TestDBVerifyReplay") {
				t.Fatalf("the emitted test does not pass on the fixed program (err %v):\n%s", err, out)
			}
		})
	}
}
