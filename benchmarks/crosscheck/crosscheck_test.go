package crosscheck

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/dbverify/dbverify/benchmarks/harness"
	"github.com/dbverify/dbverify/frontend/sqlparse"
	"github.com/dbverify/dbverify/groundtruth"
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

// knownFindings are the disagreements (and unreproducible counterexamples)
// the cross-check finds today, each with the reason. The test fails on a
// finding not listed here, and on a listed one that no longer occurs, so
// that a fix in the verifier updates this table.
//
// None is a wrong SAFE or a false UNSAFE; each is a counterexample that is
// not literally a run of the program on a real engine.
var knownFindings = map[findingKey]Kind{
	// The trace omits a row its path needs: the bookings row the
	// cancellation reads (Cancel), the account row of id that the DELETE
	// removes (Close), the source member/account of the transfer (its
	// SELECT returns a row no symbol lists). Seeding the trace's rows
	// under the inputs' keys breaks the constraint.
	{"booking/cancel_commit_unsafe", "(*Store).Cancel", "events.booked >= 0"}: CexDoesNotReplay,
	{"core/delete_unsafe", "(*Store).Close", "accounts.balance >= 0"}:         CexDoesNotReplay,
	{"loyalty/transfer_unsafe", "(*Store).Transfer", "members.points >= 0"}:   CexDoesNotReplay,
	{"pg/transfer_tx_unsafe", "(*Store).TransferTx", "accounts.balance >= 0"}: CexDoesNotReplay,
	// The inputs say ids[i] = 0 but the loop step binds ids[i] = 2, the
	// row the trace debits: inputs and steps disagree.
	{"core/ids_loop_unsafe", "ReverseCredits", "accounts.balance >= 0"}: CexDoesNotReplay,
	// api_key is not a key; MariaDB's SELECT … FOR UPDATE returns the rows
	// of api_key = ? in index (id) order, so the trace's choice of row
	// happens only with the ids swapped.
	{"quota/api_quota_nokey_unsafe", "(*Limiter).Consume", "quotas.used <= quotas.quota"}: CexDoesNotReplay,
	// The counterexample's UPDATE breaks the schema's other CHECK
	// (stock - 1 < reserved = 0), which MariaDB enforces: the write fails.
	// dbverify's model does not enforce the other CHECKs of the table.
	{"schema/goose_checks_unsafe", "(*Inventory).Restock", "positive_stock: stock >= 0"}:                   BreaksOtherCheck,
	{"schema/goose_checks_unsafe", "(*Inventory).Restock", "reserved_within_stock: `reserved` <= `stock`"}: BreaksOtherCheck,
	// No DDL: the guessed column types make PostgreSQL refuse the INSERT
	// of the movement log.
	{"dialect/pg_receive_upsert_unsafe", "(*Receiving).Receive", "stock_levels.on_hand >= 0"}: SchemaGuess,
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
		t.Errorf("case %s could not be cross-checked: %s", c, why)
	}
	seen := map[findingKey]bool{}
	for _, r := range rep.Results {
		if r.Finding == nil {
			continue
		}
		k := findingKey{r.Case, shortEntry(r.Entry), r.Constraint}
		seen[k] = true
		if want, ok := knownFindings[k]; !ok || want != r.Finding.Kind {
			t.Errorf("new finding: %s %s [%s], dbverify %s: %s\n\t%s", r.Case, shortEntry(r.Entry), r.Constraint, r.Verdict, r.Finding.Kind, r.Finding.Run)
		}
	}
	for k, kind := range knownFindings {
		if seen[k] || !filter.MatchString(k.Case) {
			continue
		}
		for _, c := range cases {
			if c.Name == k.Case {
				t.Errorf("known finding no longer occurs (remove it from knownFindings): %s %s [%s]: %s", k.Case, k.Entry, k.Constraint, kind)
			}
		}
	}
}
