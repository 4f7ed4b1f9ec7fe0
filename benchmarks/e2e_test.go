package benchmarks_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dbverify/dbverify/benchmarks/harness"
)

// binEnv names the environment variable through which TestMain hands the
// binary it built to the tests. Set it before `go test` to test a
// prebuilt binary instead.
const binEnv = "DBVERIFY_E2E_BIN"

// caseTimeout bounds one dbverify run: a "fast" case takes seconds of CPU,
// so a run this long has hung (and fails). It is a guard against hangs, not
// a speed limit: a minute was reached on a machine running the tests
// beside other builds (core/tx_rollback_safe with --engine fixpoint, 1.7 s
// of CPU, took 61 s at a load average of 23).
const caseTimeout = 5 * time.Minute

// reportsEnv names the directory where checkCase keeps each case's JSON
// report (TestMain makes it), from which TestCrossCheckFastCorpus takes
// dbverify's verdicts instead of running it again.
const reportsEnv = "DBVERIFY_E2E_REPORTS"

// TestMain builds cmd/dbverify once into a temporary directory.
func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "dbverify-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	if err := os.Setenv(reportsEnv, filepath.Join(dir, "reports")); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	if os.Getenv(binEnv) != "" {
		return m.Run()
	}
	root, err := harness.ModuleRoot(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	bin, err := harness.BuildBinary(root, dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	if err := os.Setenv(binEnv, bin); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	return m.Run()
}

// recordInputs opens every source, module, SQL and expect.json file of
// the module (the corpus and testdata included). The binary under test is
// built from them and reads them in another process, which `go test`
// cannot see; opening them here puts them into the test's recorded inputs,
// so that a cached result is reused only while they are unchanged.
func recordInputs(t *testing.T) {
	t.Helper()
	root, err := harness.ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".mod", ".sum", ".sql", ".json":
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			return f.Close()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// binary returns the dbverify binary TestMain built.
func binary(t *testing.T) string {
	t.Helper()
	bin := os.Getenv(binEnv)
	if bin == "" {
		t.Fatalf("%s is not set: TestMain did not build dbverify", binEnv)
	}
	return bin
}

// dbverify runs the binary in dir and fails the test if it cannot be run
// or times out.
func dbverify(t *testing.T, dir string, args ...string) *harness.Invocation {
	t.Helper()
	inv := harness.Exec(context.Background(), binary(t), dir, args, caseTimeout)
	if inv.TimedOut {
		t.Fatalf("dbverify %s timed out after %s", strings.Join(args, " "), caseTimeout)
	}
	if inv.Err != nil {
		t.Fatalf("dbverify %s: %v\nstderr:\n%s", strings.Join(args, " "), inv.Err, inv.Stderr)
	}
	return inv
}

func corpusDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("corpus")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func badDir(t *testing.T, sub string) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "bad", sub))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// checkCase runs a case and asserts every expectation of its expect.json.
// It returns the parsed report.
func checkCase(t *testing.T, c *harness.Case) *harness.Report {
	t.Helper()
	return checkCaseWith(t, c, "")
}

// checkCaseWith is checkCase with --engine engine ("" = the default).
func checkCaseWith(t *testing.T, c *harness.Case, engine string) *harness.Report {
	t.Helper()
	args := harness.CheckArgs(c, harness.Options{Engine: engine})
	inv := dbverify(t, c.Dir, args...)
	if inv.ExitCode != 0 && inv.ExitCode != 1 {
		t.Fatalf("exit code %d, want 0 or 1\nstderr:\n%s", inv.ExitCode, inv.Stderr)
	}
	return checkCaseReport(t, c, engine, inv)
}

// checkCaseReport asserts every expectation of c's expect.json of the report
// of a run (inv.Stdout, JSON) with --engine engine ("" = the default),
// and its exit code unless it is -1 (a run in this process), and keeps
// it for TestCrossCheckFastCorpus.
func checkCaseReport(t *testing.T, c *harness.Case, engine string, inv *harness.Invocation) *harness.Report {
	t.Helper()
	rep, err := harness.ParseReport(inv.Stdout)
	if err != nil {
		t.Fatalf("%v\nstdout:\n%s\nstderr:\n%s", err, inv.Stdout, inv.Stderr)
	}
	if engine == "" {
		keepReport(t, c, inv.Stdout)
	}
	byKey := map[harness.Key][]*harness.Result{}
	allSafe := true
	for i := range rep.Results {
		r := rep.Results[i]
		k := harness.KeyOf(r.Entry, r.Constraint)
		byKey[k] = append(byKey[k], r)
		if r.Verdict != harness.Safe {
			allSafe = false
		}
	}
	expected := map[harness.Key]bool{}
	for _, e := range c.Expect {
		k := harness.KeyOf(e.Entry, e.Constraint)
		expected[k] = true
		rs := byKey[k]
		if len(rs) != 1 {
			t.Errorf("%s / %s: %d results, want 1", e.Entry, e.Constraint, len(rs))
			continue
		}
		r := rs[0]
		if got := string(r.Verdict); engine != "" && got != e.Verdict {
			// A baseline engine may decide less than the default, never
			// differently: its SAFE or UNSAFE must be the right answer.
			want := e.Verdict
			if want == harness.Unknown {
				want = e.FinalVerdict()
			}
			switch {
			case r.Verdict == harness.Unknown:
				t.Logf("%s / %s: UNKNOWN with --engine %s (%s), where the default engine says %s", e.Entry, e.Constraint, engine, r.Reason, e.Verdict)
				continue
			case got != want:
				t.Errorf("%s / %s: --engine %s says %s, the default engine %s (final %s): the engines disagree", e.Entry, e.Constraint, engine, r.Verdict, e.Verdict, e.FinalVerdict())
				continue
			}
		} else if string(r.Verdict) != e.Verdict {
			t.Errorf("%s / %s: verdict %s, want %s (reason %q; expect.json: %s)", e.Entry, e.Constraint, r.Verdict, e.Verdict, r.Reason, e.Why)
			continue
		}
		switch r.Verdict {
		case harness.Unsafe:
			if inv.ExitCode != 1 && inv.ExitCode != -1 {
				t.Errorf("%s / %s is UNSAFE but the exit code is %d, want 1", e.Entry, e.Constraint, inv.ExitCode)
			}
			checkCounterexample(t, e, r)
		case harness.Safe:
			if r.Proof != "" && len(r.Predicates) == 0 {
				break // decided exactly by one formula: no predicates to check
			}
			for _, sub := range e.PredicatesContain {
				found := false
				for _, p := range r.Predicates {
					if strings.Contains(p, sub) {
						found = true
						break
					}
				}
				if !found {
					t.Errorf("%s / %s: no predicate contains %q; predicates %q", e.Entry, e.Constraint, sub, r.Predicates)
				}
			}
		}
	}
	for k, rs := range byKey {
		if !expected[k] {
			t.Errorf("unexpected result for %s / %s (%s): not in expect.json", rs[0].Entry, rs[0].Constraint, rs[0].Verdict)
		}
	}
	if allSafe && inv.ExitCode != 0 && inv.ExitCode != -1 {
		t.Errorf("every result is SAFE but the exit code is %d, want 0\nstderr:\n%s", inv.ExitCode, inv.Stderr)
	}
	return rep
}

func checkCounterexample(t *testing.T, e harness.Expectation, r *harness.Result) {
	t.Helper()
	what := e.Entry + " / " + e.Constraint
	cex := r.Counterexample
	if cex == nil {
		t.Errorf("%s: UNSAFE without a counterexample", what)
		return
	}
	if len(cex.Inputs) == 0 && len(cex.Rows) == 0 {
		// (An HTTP handler's values come from calls, shown in its steps.)
		t.Errorf("%s: counterexample has neither inputs nor initial rows", what)
	}
	if len(cex.Steps) == 0 {
		t.Errorf("%s: counterexample has no steps", what)
	}
	if cex.Violation == nil || cex.Violation.Table == "" || len(cex.Violation.Values) == 0 {
		t.Errorf("%s: counterexample has no violation row: %+v", what, cex.Violation)
	}
	texts := harness.CexText(r)
	for _, sub := range e.TraceContains {
		found := false
		for _, text := range texts {
			if strings.Contains(text, sub) {
				found = true
				break
			}
		}
		if !found {
			compact, _ := json.Marshal(r.Counterexample)
			t.Errorf("%s: counterexample does not contain %q: %s", what, sub, compact)
		}
	}
}

// TestCorpusFast checks every corpus case marked "fast": true, two at a
// time, in this process: the pipeline of `dbverify check` runs on each
// case with the packages of the whole corpus loaded once
// (frontend.PackageSet), which spares each case a `go list` and the load
// of its dependencies' export data — 60–70 % of a check's CPU. (Their
// reports are kept for TestCrossCheckFastCorpus; TestCorpusFastBinary
// runs a sample through the binary and compares.)
func TestCorpusFast(t *testing.T) {
	recordInputs(t)
	cases, err := harness.LoadCases(corpusDir(t))
	if err != nil {
		t.Fatal(err)
	}
	set := corpusPackages(t)
	n := 0
	for _, c := range cases {
		if !c.Fast {
			continue
		}
		n++
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			checkCaseReport(t, c, "", checkInProcess(t, set, c, ""))
		})
	}
	if n == 0 {
		t.Fatal("no fast case in the corpus")
	}
}

// binarySample takes every binarySample-th fast case (in name order) for
// TestCorpusFastBinary: about 30 cases of every section.
const binarySample = 16

// TestCorpusFastBinary checks a sample of the fast corpus with the
// binary, as a user runs it (flags, exit code, JSON on stdout), and
// compares each verdict with the one TestCorpusFast decided in this
// process from the corpus' shared load: a difference is a run from a
// PackageSet that is not the run the binary makes.
func TestCorpusFastBinary(t *testing.T) {
	recordInputs(t)
	cases, err := harness.LoadCases(corpusDir(t))
	if err != nil {
		t.Fatal(err)
	}
	var fast []*harness.Case
	for _, c := range cases {
		if c.Fast {
			fast = append(fast, c)
		}
	}
	if len(fast) == 0 {
		t.Fatal("no fast case in the corpus")
	}
	for i, c := range fast {
		if i%binarySample != 0 {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			inProcess := keptReports(t, []*harness.Case{c})[c.Name]
			rep := checkCase(t, c)
			if inProcess == nil {
				return // TestCorpusFast did not run it (-run)
			}
			want := map[harness.Key]string{}
			for _, r := range inProcess.Results {
				want[harness.KeyOf(r.Entry, r.Constraint)] = string(r.Verdict)
			}
			for _, r := range rep.Results {
				if w, ok := want[harness.KeyOf(r.Entry, r.Constraint)]; !ok || w != string(r.Verdict) {
					t.Errorf("%s / %s: the binary says %s, the run from the corpus' package set %q", r.Entry, r.Constraint, r.Verdict, w)
				}
			}
			if len(rep.Results) != len(inProcess.Results) {
				t.Errorf("the binary gives %d results, the run from the corpus' package set %d", len(rep.Results), len(inProcess.Results))
			}
		})
	}
}

// TestCorpusCoreFixpoint checks, in this process as TestCorpusFast, the
// core corpus cases (the seed paper's
// examples, loops included) with --engine fixpoint, the per-statement
// engine kept as a baseline: every verdict it decides must be the
// expected one (it may leave more UNKNOWN than the default lbe engine),
// so the two engines never disagree on a decided verdict. (The whole
// corpus is compared by `go run ./benchmarks/cmd/bench -compare
// fixpoint`; here the subset keeps `go test` within its time limit.)
func TestCorpusCoreFixpoint(t *testing.T) {
	recordInputs(t)
	cases, err := harness.LoadCases(corpusDir(t))
	if err != nil {
		t.Fatal(err)
	}
	all := os.Getenv(replayAllEnv) == "1"
	set := corpusPackages(t)
	n := 0
	for _, c := range cases {
		if !c.Fast || !strings.HasPrefix(c.Name, "core/") {
			continue
		}
		if why, slow := slowWithFixpoint[c.Name]; slow && !all {
			t.Logf("%s: left to make bench (%s=1): %s", c.Name, replayAllEnv, why)
			continue
		}
		n++
		t.Run(c.Name, func(t *testing.T) {
			checkCaseReport(t, c, harness.EngineFixpoint, checkInProcess(t, set, c, harness.EngineFixpoint))
		})
	}
	if n == 0 {
		t.Fatal("no fast core case in the corpus")
	}
}

// slowWithFixpoint are the core cases the per-statement engine takes
// longest on (seconds where lbe takes one): make bench checks them
// (DBVERIFY_REPLAY_ALL=1, and -compare fixpoint over the whole corpus),
// make test the others.
var slowWithFixpoint = map[string]string{
	"core/atm_safe":              "20 s with fixpoint (a loop over the withdrawals)",
	"core/guard_helper_pkg_safe": "6 s with fixpoint",
}

// lineOf returns the 1-based line of the first line of file containing sub.
func lineOf(t *testing.T, file, sub string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, sub) {
			return i + 1
		}
	}
	t.Fatalf("%s has no line containing %q", file, sub)
	return 0
}

func wantUsageError(t *testing.T, inv *harness.Invocation) string {
	t.Helper()
	if inv.ExitCode != 2 {
		t.Fatalf("exit code %d, want 2\nstdout:\n%s\nstderr:\n%s", inv.ExitCode, inv.Stdout, inv.Stderr)
	}
	msg := string(inv.Stderr)
	if strings.TrimSpace(msg) == "" {
		t.Fatal("exit code 2 without a message on stderr")
	}
	return msg
}

// TestBadInput checks that bad programs and bad command lines are usage
// errors (exit 2) with a message that says where the problem is, and that
// SQL that does not parse is an UNKNOWN with its position.
func TestBadInput(t *testing.T) {
	recordInputs(t)
	t.Run("package does not compile", func(t *testing.T) {
		dir := badDir(t, "nocompile")
		line := lineOf(t, filepath.Join(dir, "nocompile.go"), `"ten thousand"`)
		msg := wantUsageError(t, dbverify(t, dir, "check", "--format", "json", "--constraint", "accounts.balance >= 0", "./..."))
		if !regexp.MustCompile(`nocompile\.go:` + strconv.Itoa(line) + `\b`).MatchString(msg) {
			t.Errorf("message does not name nocompile.go:%d:\n%s", line, msg)
		}
	})
	t.Run("SQL does not parse", func(t *testing.T) {
		// Not a usage error: the entry that runs the statement is UNKNOWN,
		// with the call's line and the column of the error.
		dir := badDir(t, "badsql")
		line := lineOf(t, filepath.Join(dir, "badsql.go"), "UPDATE accounts SET balance = WHERE")
		inv := dbverify(t, dir, "check", "--format", "json", "--fail-on-unknown", "--constraint", "accounts.balance >= 0", "./...")
		if inv.ExitCode != 3 {
			t.Fatalf("exit code %d, want 3 (UNKNOWN with --fail-on-unknown)\nstdout:\n%s\nstderr:\n%s", inv.ExitCode, inv.Stdout, inv.Stderr)
		}
		rep, err := harness.ParseReport(inv.Stdout)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Results) != 1 || rep.Results[0].Verdict != harness.Unknown {
			t.Fatalf("want one UNKNOWN result, got:\n%s", inv.Stdout)
		}
		r := rep.Results[0]
		if r.Position != "badsql.go:"+strconv.Itoa(line) {
			t.Errorf("position %q, want badsql.go:%d", r.Position, line)
		}
		if !regexp.MustCompile(`(?i)\bSQL\b`).MatchString(r.Reason) || !regexp.MustCompile(`syntax error at column \d+`).MatchString(r.Reason) {
			t.Errorf("reason does not say where the SQL does not parse: %s", r.Reason)
		}
	})
	t.Run("malformed constraint", func(t *testing.T) {
		const constraint = "accounts.balance >="
		msg := wantUsageError(t, dbverify(t, badDir(t, "good"), "check", "--format", "json", "--constraint", constraint, "./..."))
		m := regexp.MustCompile(`(?i)(?:column|col|position|pos|offset)\s*:?\s*(\d+)`).FindStringSubmatch(msg)
		if m == nil {
			t.Fatalf("message gives no column of the error in %q:\n%s", constraint, msg)
		}
		if col, _ := strconv.Atoi(m[1]); col < 1 || col > len(constraint)+1 {
			t.Errorf("column %d is outside %q (1..%d):\n%s", col, constraint, len(constraint)+1, msg)
		}
	})
	t.Run("constraint on a table the program does not use", func(t *testing.T) {
		msg := wantUsageError(t, dbverify(t, badDir(t, "good"), "check", "--format", "json", "--constraint", "acounts.balance >= 0", "./..."))
		if !strings.Contains(msg, "acounts") || !strings.Contains(msg, "accounts") {
			t.Errorf("message does not name the unknown table and the tables used:\n%s", msg)
		}
	})
	t.Run("misspelt column without a schema", func(t *testing.T) {
		msg := wantUsageError(t, dbverify(t, badDir(t, "good"), "check", "--constraint", "accounts.balanse >= 0", "./..."))
		if !strings.Contains(msg, "balanse") || !strings.Contains(msg, "did you mean balance") {
			t.Errorf("message does not name the unknown column and suggest balance:\n%s", msg)
		}
	})
	t.Run("unsatisfiable constraint", func(t *testing.T) {
		msg := wantUsageError(t, dbverify(t, badDir(t, "good"), "check", "--constraint", "accounts.balance >= 0 AND accounts.balance < 0", "./..."))
		if !strings.Contains(msg, "vacuous") {
			t.Errorf("message does not say the verdicts would be vacuous:\n%s", msg)
		}
	})
	t.Run("contradictory facts", func(t *testing.T) {
		msg := wantUsageError(t, dbverify(t, badDir(t, "good"), "check", "--constraint", "accounts.balance >= 0", "--assume", "amt > 5", "--assume", "amt < 2", "./..."))
		if !strings.Contains(msg, "vacuous") {
			t.Errorf("message does not say the verdicts would be vacuous:\n%s", msg)
		}
	})
	t.Run("entry matches nothing", func(t *testing.T) {
		msg := wantUsageError(t, dbverify(t, badDir(t, "good"), "check", "--constraint", "accounts.balance >= 0", "--entry", "Transfer", "./..."))
		if !strings.Contains(msg, "Transfer") || !strings.Contains(msg, "good.Withdraw") {
			t.Errorf("message does not name the pattern and the entry points there are:\n%s", msg)
		}
	})
	t.Run("no entry point writes the table", func(t *testing.T) {
		msg := wantUsageError(t, dbverify(t, badDir(t, "readonly"), "check", "--constraint", "accounts.balance >= 0", "./..."))
		if !strings.Contains(msg, "nothing to check") || !strings.Contains(msg, "accounts") {
			t.Errorf("message does not say that no entry point writes accounts:\n%s", msg)
		}
	})
	t.Run("ignore directive without a reason", func(t *testing.T) {
		dir := badDir(t, "ignorenoreason")
		line := lineOf(t, filepath.Join(dir, "ignorenoreason.go"), "//dbverify:ignore")
		msg := wantUsageError(t, dbverify(t, dir, "check", "--constraint", "accounts.balance >= 0", "./..."))
		if !strings.Contains(msg, "ignorenoreason.go:"+strconv.Itoa(line)) || !strings.Contains(msg, "reason") {
			t.Errorf("message does not give the directive's position and ask for a reason:\n%s", msg)
		}
	})
	t.Run("unknown command", func(t *testing.T) {
		msg := wantUsageError(t, dbverify(t, badDir(t, "good"), "chek"))
		if !strings.Contains(msg, "chek") {
			t.Errorf("message does not name the unknown command:\n%s", msg)
		}
	})
	t.Run("unknown format", func(t *testing.T) {
		msg := wantUsageError(t, dbverify(t, badDir(t, "good"), "check", "--format", "yaml", "--constraint", "accounts.balance >= 0", "./..."))
		if !strings.Contains(msg, "format") {
			t.Errorf("message does not mention the format:\n%s", msg)
		}
	})
}

// TestFailOnUnknown checks that --fail-on-unknown turns an UNKNOWN verdict
// into exit code 3, on a corpus case whose expect.json says UNKNOWN.
func TestFailOnUnknown(t *testing.T) {
	recordInputs(t)
	c, err := harness.ReadCase(filepath.Join(corpusDir(t), "bank", "retry_recursive_safe"), "bank/retry_recursive_safe")
	if err != nil {
		t.Fatal(err)
	}
	unknown := false
	for _, e := range c.Expect {
		if e.Verdict == harness.Unsafe {
			t.Fatalf("%s expects an UNSAFE verdict; it cannot test --fail-on-unknown", c.Name)
		}
		unknown = unknown || e.Verdict == harness.Unknown
	}
	if !unknown {
		t.Fatalf("%s expects no UNKNOWN verdict", c.Name)
	}
	args := harness.CheckArgs(c, harness.Options{ExtraArgs: []string{"--fail-on-unknown"}})
	inv := dbverify(t, c.Dir, args...)
	if inv.ExitCode != 3 {
		t.Errorf("exit code %d with --fail-on-unknown, want 3\nstdout:\n%s\nstderr:\n%s", inv.ExitCode, inv.Stdout, inv.Stderr)
	}
	rep, err := harness.ParseReport(inv.Stdout)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range rep.Results {
		if r.Verdict == harness.Unknown {
			found = true
			if r.Reason == "" {
				t.Errorf("%s / %s is UNKNOWN without a reason", r.Entry, r.Constraint)
			}
		}
	}
	if !found {
		t.Errorf("no UNKNOWN result in the output:\n%s", inv.Stdout)
	}
}

// TestIgnoreDirective checks that //dbverify:ignore with a reason
// suppresses the result it names (exit 0, the reason in JSON and SARIF)
// and that a directive that suppresses nothing is reported.
func TestIgnoreDirective(t *testing.T) {
	recordInputs(t)
	dir := badDir(t, "ignored")
	inv := dbverify(t, dir, "check", "--format", "json", "--constraint", "accounts.balance >= 0", "./...")
	if inv.ExitCode != 0 {
		t.Errorf("exit code %d, want 0: the only UNSAFE result is suppressed\nstderr:\n%s", inv.ExitCode, inv.Stderr)
	}
	var rep struct {
		Results []struct {
			Entry, Verdict, Suppressed string
		}
		Warnings []string
	}
	if err := json.Unmarshal(inv.Stdout, &rep); err != nil {
		t.Fatal(err)
	}
	suppressed := 0
	for _, r := range rep.Results {
		if strings.HasSuffix(r.Entry, ".Withdraw") {
			if r.Verdict != "UNSAFE" || r.Suppressed != "overdrafts are allowed and settled by the nightly job" {
				t.Errorf("Withdraw: %s suppressed %q, want UNSAFE suppressed with the directive's reason", r.Verdict, r.Suppressed)
			}
		}
		if r.Suppressed != "" {
			suppressed++
		}
	}
	if suppressed != 1 {
		t.Errorf("%d suppressed results, want 1", suppressed)
	}
	line := lineOf(t, filepath.Join(dir, "ignored.go"), "//dbverify:ignore accounts.balance")
	unused := fmt.Sprintf("ignored.go:%d: //dbverify:ignore accounts.balance suppresses nothing", line)
	if !strings.Contains(strings.Join(rep.Warnings, "\n"), unused) {
		t.Errorf("warnings %q do not report the unused directive (%s)", rep.Warnings, unused)
	}
	sarif := dbverify(t, dir, "check", "--format", "sarif", "--constraint", "accounts.balance >= 0", "./...")
	if !strings.Contains(string(sarif.Stdout), `"justification": "overdrafts are allowed and settled by the nightly job"`) {
		t.Errorf("SARIF has no in-source suppression with the reason:\n%s", sarif.Stdout)
	}
}

// TestResultCache checks that a second run over unchanged code takes its
// verdicts from the cache (no SMT query) and reports the same results,
// and that --no-cache verifies again.
func TestResultCache(t *testing.T) {
	recordInputs(t)
	dir := badDir(t, "good")
	cache := t.TempDir()
	run := func(extra ...string) (*harness.Report, []byte) {
		args := append([]string{"check", "--format", "json", "--cache-dir", cache, "--constraint", "accounts.balance >= 0"}, extra...)
		inv := dbverify(t, dir, append(args, "./...")...)
		rep, err := harness.ParseReport(inv.Stdout)
		if err != nil {
			t.Fatal(err)
		}
		return rep, inv.Stdout
	}
	first, _ := run()
	second, out := run()
	if len(first.Results) == 0 || len(first.Results) != len(second.Results) {
		t.Fatalf("%d results, then %d", len(first.Results), len(second.Results))
	}
	if second.Stats.SMTQueries != 0 || strings.Count(string(out), `"cached": true`) != len(second.Results) {
		t.Errorf("second run made %d SMT queries and reported %d cached results, want 0 and %d:\n%s",
			second.Stats.SMTQueries, strings.Count(string(out), `"cached": true`), len(second.Results), out)
	}
	for i := range first.Results {
		a, b := first.Results[i], second.Results[i]
		if a.Entry != b.Entry || a.Verdict != b.Verdict || (a.Counterexample == nil) != (b.Counterexample == nil) {
			t.Errorf("result %d: %s %s first, %s %s from the cache", i, a.Entry, a.Verdict, b.Entry, b.Verdict)
		}
	}
	third, _ := run("--no-cache")
	if third.Stats.SMTQueries == 0 {
		t.Error("--no-cache made no SMT query")
	}
}

// TestCoverageReport checks that the output says which verified entry runs
// each writer of a constrained table, and that a writer --entry leaves out
// is reported in every format: a JSON warning (also on stderr), a text
// line, a SARIF result.
func TestCoverageReport(t *testing.T) {
	recordInputs(t)
	dir := filepath.Join(corpusDir(t), "trust", "entry_optable_unsafe")
	base := []string{"check", "--constraint", "accounts.balance >= 0", "--entry", "^credit$"}
	inv := dbverify(t, dir, append(base, "--format", "json", "./...")...)
	var out struct {
		Coverage []struct {
			Writer   string   `json:"writer"`
			Position string   `json:"position"`
			Entries  []string `json:"entries"`
		} `json:"coverage"`
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal(inv.Stdout, &out); err != nil {
		t.Fatalf("JSON output: %v\n%s", err, inv.Stdout)
	}
	pkg := "example.com/corpus/trust/entry_optable_unsafe."
	runs := map[string]string{}
	for _, c := range out.Coverage {
		runs[c.Writer] = strings.Join(c.Entries, ",")
	}
	if len(runs) != 2 || runs[pkg+"credit"] != pkg+"credit" || runs[pkg+"debit"] != "" {
		t.Errorf("coverage %+v, want credit run by credit and debit by nothing", out.Coverage)
	}
	if len(out.Warnings) != 1 || !strings.Contains(out.Warnings[0], pkg+"debit (ops.go:") {
		t.Errorf("warnings %q, want one about debit", out.Warnings)
	}
	if !strings.Contains(string(inv.Stderr), "warning: "+pkg+"debit") {
		t.Errorf("stderr lacks the warning:\n%s", inv.Stderr)
	}
	text := dbverify(t, dir, append(base, "./...")...)
	if !strings.Contains(string(text.Stdout), pkg+"debit (ops.go:56) writes accounts: NOT RUN by any verified entry") {
		t.Errorf("text output lacks the coverage line:\n%s", text.Stdout)
	}
	sarif := dbverify(t, dir, append(base, "--format", "sarif", "./...")...)
	if !strings.Contains(string(sarif.Stdout), `"ruleId": "DBV003"`) {
		t.Errorf("SARIF output lacks the DBV003 result:\n%s", sarif.Stdout)
	}
}

// TestAssumeNoOverflow: by default Go's integer arithmetic wraps around,
// so the fee check of trust/int_overflow_fee_unsafe is beaten by an
// amount + fee past 2^63-1; --assume-no-overflow makes the arithmetic
// mathematical, which proves the same program SAFE only under an
// assumption the result states.
func TestAssumeNoOverflow(t *testing.T) {
	recordInputs(t)
	c, err := harness.ReadCase(filepath.Join(corpusDir(t), "trust", "int_overflow_fee_unsafe"), "trust/int_overflow_fee_unsafe")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		extra      []string
		verdict    string
		assumption bool
	}{
		{nil, harness.Unsafe, false},
		{[]string{"--assume-no-overflow"}, harness.Safe, true},
	} {
		inv := dbverify(t, c.Dir, harness.CheckArgs(c, harness.Options{ExtraArgs: tc.extra})...)
		rep, err := harness.ParseReport(inv.Stdout)
		if err != nil {
			t.Fatalf("%v: %v\nstderr:\n%s", tc.extra, err, inv.Stderr)
		}
		if len(rep.Results) != 1 || string(rep.Results[0].Verdict) != tc.verdict {
			t.Fatalf("%v: want one %s result, got:\n%s", tc.extra, tc.verdict, inv.Stdout)
		}
		stated := strings.Contains(string(inv.Stdout), "Go integer arithmetic does not overflow")
		if stated != tc.assumption {
			t.Errorf("%v: no-overflow assumption stated = %v, want %v:\n%s", tc.extra, stated, tc.assumption, inv.Stdout)
		}
	}
}
