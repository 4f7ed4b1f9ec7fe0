package crosscheck

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/benchmarks/harness"
	"github.com/dbverify/dbverify/groundtruth"
	"github.com/dbverify/dbverify/sqlparse"
)

// binEnv names a prebuilt dbverify binary to use instead of building one.
const binEnv = "DBVERIFY_E2E_BIN"

// casesEnv restricts the cross-check to cases whose name matches a regexp
// (for working on one case).
const casesEnv = "CROSSCHECK_CASES"

// allEnv set to 1 runs every case, not only the fast ones; runsEnv sets
// the random runs per entry (as make bench does).
const (
	allEnv  = "CROSSCHECK_ALL"
	runsEnv = "CROSSCHECK_RUNS"
)

// runsPerEntry is the number of random runs per SAFE or UNKNOWN entry in
// `make test`; `make bench` runs more.
const runsPerEntry = 4

type findingKey struct{ Case, Entry, Constraint string }

// randomCases are programs that call math/rand themselves: whether a
// replay or a random run breaks the constraint varies from run to run, so
// their findings are logged, not compared.
var randomCases = map[string]bool{
	"trust/external_result_unsafe": true,
}

// mayVanish are the known findings that occur only with some of the
// counterexamples the solver may pick (they vary between runs): their
// absence is no error. A new finding on them still is.
var mayVanish = map[string]bool{
	// Reproduced since the replay injects a failure where the step's
	// error result is marked (ir.Var.SQLErr): it depends on which failing
	// call the counterexample picks.
	"trust/err_wrapped_sentinel_unsafe": true,
}

// knownCaseProblems are the cases the cross-check cannot run yet, with the
// part of the reason that says why.
var knownCaseProblems = map[string]string{}

// knownFindings are the disagreements (and unreproducible counterexamples)
// the cross-check finds today, each with the reason. The test fails on a
// finding not listed here, and on a listed one that no longer occurs, so
// that a fix in the verifier updates this table.
//
// None is a wrong SAFE or a false UNSAFE; each is a counterexample that is
// not literally a run of the program on a real engine.
var knownFindings = map[findingKey]Kind{
	// math/rand draws the amount (a randomCases program: logged only;
	// when no other run breaks it either, the draw is a value execution
	// cannot set).
	{"trust/external_result_unsafe", "Draw", "accounts.points >= 0"}: NeedsExternal,
	// MySQL 8's `VALUES (…) AS new` alias: MariaDB, the engine of the
	// mysql dialect here, refuses its syntax.
	{"trust/mysql8_upsert_alias_unsafe", "(*Receiving).Receive", "stock_levels.on_hand >= 0"}: EngineLacks,
	// The counterexample's UPDATE breaks the schema's other CHECK
	// (stock - 1 < reserved = 0), which MariaDB enforces: the write fails.
	// dbverify's model does not enforce the other CHECKs of the table.
	{"schema/goose_checks_unsafe", "(*Inventory).Restock", "positive_stock: stock >= 0"}:                   BreaksOtherCheck,
	{"schema/goose_checks_unsafe", "(*Inventory).Restock", "reserved_within_stock: `reserved` <= `stock`"}: BreaksOtherCheck,
	// The quantity text is a number out of int64's range; the model codes
	// such a text by a hash, which the driver cannot turn back into it.
	{"trust/parse_qty_error_unsafe", "(*Store).Take", "items.stock >= 0"}: NeedsExternal,
	// The counterexample's SELECT fails with a server error (not "no
	// row"), Balance returns that error, and Spend's err == ErrNoMember
	// holds: the error identity is path-insensitive (the tag of Balance's
	// result joins its returns, ErrNoMember among them). The real run
	// needs the read to find no row (then Balance returns ErrNoMember);
	// the replay used to retry every failed SELECT as "no row", which hid
	// it, and now follows the trace (issue 8).
	{"trust/err_wrapped_sentinel_unsafe", "(*Service).Spend", "points.balance >= 0"}: CexDoesNotReplay,
}

func TestCrossCheckFastCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the corpus on real engines")
	}
	root, err := harness.ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	corpus := filepath.Join(root, "benchmarks", "corpus")
	all, err := harness.LoadCases(corpus)
	if err != nil {
		t.Fatal(err)
	}
	filter := regexp.MustCompile(os.Getenv(casesEnv))
	var cases []*harness.Case
	for _, c := range all {
		if (c.Fast || os.Getenv(allEnv) == "1") && filter.MatchString(c.Name) {
			cases = append(cases, c)
		}
	}
	runs := runsPerEntry
	if n, err := strconv.Atoi(os.Getenv(runsEnv)); err == nil && n > 0 {
		runs = n
	}
	bin := os.Getenv(binEnv)
	work := t.TempDir()
	if bin == "" {
		if bin, err = harness.BuildBinary(root, work); err != nil {
			t.Fatal(err)
		}
	}
	engines := map[sqlparse.Dialect]*groundtruth.Engine{
		sqlparse.Postgres: groundtruth.StartForTest(t, groundtruth.Postgres),
		sqlparse.MySQL:    groundtruth.StartForTest(t, groundtruth.MySQL),
		sqlparse.SQLite:   groundtruth.StartForTest(t, groundtruth.SQLite),
	}
	rep, err := Run(context.Background(), Config{
		CorpusDir: corpus, Bin: bin, Cases: cases, Runs: runs, Seed: 1,
		WorkDir: work, Engines: engines, Log: t.Logf, TrustExpected: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + rep.Summary())
	for c, why := range rep.CaseProblems {
		if known := knownCaseProblems[c]; known != "" && strings.Contains(why, known) {
			t.Logf("case %s not cross-checked (known): %s", c, why)
			continue
		}
		t.Errorf("case %s could not be cross-checked: %s", c, why)
	}
	seen := map[findingKey]bool{}
	for _, r := range rep.Results {
		if r.Finding == nil {
			continue
		}
		k := findingKey{r.Case, shortEntry(r.Entry), r.Constraint}
		seen[k] = true
		if randomCases[r.Case] {
			t.Logf("finding on a program that draws random numbers itself: %s %s: %s", r.Case, shortEntry(r.Entry), r.Finding.Kind)
			continue
		}
		if want, ok := knownFindings[k]; !ok || want != r.Finding.Kind {
			t.Errorf("new finding: %s %s [%s], dbverify %s: %s\n\t%s", r.Case, shortEntry(r.Entry), r.Constraint, r.Verdict, r.Finding.Kind, r.Finding.Run)
		}
	}
	for k, kind := range knownFindings {
		if seen[k] || !filter.MatchString(k.Case) || randomCases[k.Case] || mayVanish[k.Case] {
			continue
		}
		for _, c := range cases {
			if c.Name == k.Case {
				t.Errorf("known finding no longer occurs (remove it from knownFindings): %s %s [%s]: %s", k.Case, k.Entry, k.Constraint, kind)
			}
		}
	}
}
