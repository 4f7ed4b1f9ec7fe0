package benchmarks_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbverify/dbverify/benchmarks/harness"
)

// concurrentCheckTimeout bounds one check --concurrent of a concurrent
// corpus case (the search of two requests takes seconds; a loaded machine
// more).
const concurrentCheckTimeout = 3 * time.Minute

// notUnsafeByTheTool are the concurrent corpus cases whose UNSAFE
// expectation the tool does not answer UNSAFE today (the bench reports
// the verdict), with the reason: there is no counterexample to replay.
var notUnsafeByTheTool = map[string]string{
	"concurrent/mysql_delete_owner_add_pet_unsafe": "the constraint has a subquery (not over one row)",
	"concurrent/mysql_oncall_rr_unsafe":            "the constraint has a subquery (not over one row)",
	"concurrent/pg_oncall_rc_unsafe":               "the constraint has a subquery (not over one row)",
	"concurrent/pg_oncall_rr_unsafe":               "the constraint has a subquery (not over one row)",
	"concurrent/pg_goroutine_reserve_unsafe":       "the goroutines of one call conflict: UNKNOWN naming the statements",
}

// concurrentReplayLimits are the concurrent corpus cases whose UNSAFE
// result does not reproduce on its engine, with the reason;
// TestReplayConcurrentUnsafe fails on any other, and on one of these that
// reproduces.
var concurrentReplayLimits = map[string]string{
	// UNSAFE alone: the sequential counterexample injects a serialization
	// failure (40001) of BEGIN to enter the retry path; the injected run
	// keeps the constraint on PostgreSQL.
	"concurrent/pg_serializable_retry_stale_unsafe": "the sequential counterexample's injected 40001 run keeps the constraint",
}

// concurrentReplaySet is the representative set of concurrent UNSAFE
// cases make test replays, one per mechanism that makes a schedule break
// the constraint or a replay reach it (make bench replays all 53:
// DBVERIFY_REPLAY_ALL=1). The cases of notUnsafeByTheTool run too (no
// replay: a check each). For the CI's time (each case is a check
// --concurrent, a driver build and a replay: 6 s of CPU), these
// mechanisms are replayed in make bench only, and make test runs their
// hand-written schedules in witness/schedule's ground truth: a
// transaction sent as SQL text aborted by a failing statement
// (pg_conn_ledger_fallback_unsafe), a failing COMMIT through pgx
// (pgx_commit_fallback_unsafe), and, each the second case of a mechanism
// the set keeps or a variant of a kept one, InnoDB's gap lock
// (mysql_bonus_gap_lock_alone_unsafe, an entry UNSAFE alone like
// pg_bonus_serializable_alone_unsafe), an advisory lock taken after
// the read (pg_withdraw_advisory_after_read_unsafe; the hashtext case
// keeps advisory locks), a Go mutex (pg_withdraw_mutex_unsafe), SET
// TRANSACTION on a pooled connection (pg_set_transaction_pool_unsafe),
// autocommit statements on PostgreSQL (pg_redeem_points_autocommit_unsafe;
// the SQLite case keeps them), an unchecked optimistic version
// (mysql_version_unchecked_unsafe) and a foreign key's share lock
// (pg_debit_parent_share_scanned_id_unsafe; the reference case keeps
// references).
var concurrentReplaySet = map[string]string{
	"concurrent/pg_withdraw_plain_rc_unsafe":                "lost update, PostgreSQL READ COMMITTED",
	"concurrent/mysql_withdraw_plain_rr_unsafe":             "lost update, InnoDB REPEATABLE READ",
	"concurrent/mysql_snapshot_before_lock_unsafe":          "InnoDB consistent read before the lock",
	"concurrent/pg_bonus_no_unique_unsafe":                  "two inserts, no unique key",
	"concurrent/mysql_joint_charge_deadlock_ignored_unsafe": "a deadlock victim's error ignored",
	"concurrent/pg_withdraw_advisory_hashtext_unsafe":       "advisory locks on the hashes of two different texts",
	"concurrent/pg_withdraw_half_three_unsafe":              "three requests",
	"concurrent/pg_cap_upsert_locked_absent_unsafe":         "an upsert",
	"concurrent/pgx_withdraw_pool_unsafe":                   "pgx",
	"concurrent/pg_chi_adjust_json_unsafe":                  "a chi handler's JSON body and path parameter",
	"concurrent/sqlite_wallet_autocommit_unsafe":            "SQLite, statements that commit on their own",
	"concurrent/pg_delete_owner_add_pet_unsafe":             "a reference: the owner's row has its own lock (the pets' parents seeded)",
}

// TestReplayConcurrentUnsafe runs check --concurrent on the cases of
// benchmarks/corpus/concurrent whose expectation is UNSAFE (those of
// concurrentReplaySet in make test, all in make bench) and replays
// each UNSAFE result with dbverify replay on PostgreSQL or MariaDB: a
// concurrent result's own schedule (the tool's requests, initial rows and
// order, not the case's hand-written one) through witness/schedule, an
// entry UNSAFE alone through the sequential replay. It fails when a
// counterexample does not break the constraint on the engine, or a case
// outside notUnsafeByTheTool gets no UNSAFE result.
func TestReplayConcurrentUnsafe(t *testing.T) {
	if testing.Short() {
		t.Skip("starts database servers")
	}
	needEngines(t)
	t.Parallel() // with the other replay tests, after the sequential ones
	recordInputs(t)
	cases, err := harness.LoadCases(corpusDir(t))
	if err != nil {
		t.Fatal(err)
	}
	all := os.Getenv(replayAllEnv) == "1"
	seen := map[string]bool{}
	var n tally
	// The cases run two at a time (each is a check, then a replay that
	// starts its own server): this test is most of the package's time.
	t.Run("cases", func(t *testing.T) {
		for _, c := range cases {
			if !strings.HasPrefix(c.Name, "concurrent/") {
				continue
			}
			unsafe := 0
			for _, e := range c.Expect {
				if e.Verdict == harness.Unsafe {
					unsafe++
				}
			}
			if unsafe == 0 {
				continue
			}
			n.cases++
			_, chosen := concurrentReplaySet[c.Name]
			seen[c.Name] = true
			if _, known := notUnsafeByTheTool[c.Name]; !all && !chosen && !known {
				n.left++
				continue
			}
			t.Run(strings.TrimPrefix(c.Name, "concurrent/"), func(t *testing.T) {
				t.Parallel()
				replayConcurrentCase(t, c, &n)
			})
		}
	})
	for name := range concurrentReplaySet {
		if !seen[name] {
			t.Errorf("concurrentReplaySet names %s, no concurrent corpus case with an UNSAFE expectation", name)
		}
	}
	t.Logf("concurrent corpus: %d cases with an UNSAFE expectation (%d left to make bench, %s=1), %d without an UNSAFE result (notUnsafeByTheTool); replayed %d concurrent counterexamples (%d reproduced) and %d sequential ones (%d reproduced)",
		n.cases, n.left, replayAllEnv, n.notUnsafe, n.conc, n.concOK, n.seq, n.seqOK)
}

// tally counts the replays of the cases (which run in parallel: mu
// guards the counts).
type tally struct {
	mu                                               sync.Mutex
	cases, left, notUnsafe, conc, concOK, seq, seqOK int
}

// replayConcurrentCase checks one case with --concurrent and replays its
// report.
func replayConcurrentCase(t *testing.T, c *harness.Case, n *tally) {
	t.Helper()
	inv := harness.Exec(t.Context(), binary(t), c.Dir, harness.CheckArgs(c, harness.Options{}), concurrentCheckTimeout)
	if inv.TimedOut || inv.Err != nil {
		t.Fatalf("check timed out or failed: %v\nstderr:\n%s", inv.Err, inv.Stderr)
	}
	if inv.ExitCode != 1 {
		if why, ok := notUnsafeByTheTool[c.Name]; ok {
			n.mu.Lock()
			n.notUnsafe++
			n.mu.Unlock()
			t.Logf("no UNSAFE result (exit %d): known: %s", inv.ExitCode, why)
			return
		}
		t.Fatalf("check --concurrent: exit %d, want 1 (UNSAFE)\nstdout:\n%s\nstderr:\n%s", inv.ExitCode, inv.Stdout, inv.Stderr)
	}
	var rep struct {
		Results []struct {
			Verdict  string            `json:"verdict"`
			Schedule []json.RawMessage `json:"schedule"`
		} `json:"results"`
	}
	if err := json.Unmarshal(inv.Stdout, &rep); err != nil {
		t.Fatal(err)
	}
	conc, seq := 0, 0
	for _, r := range rep.Results {
		switch {
		case r.Verdict != "UNSAFE":
		case len(r.Schedule) > 0:
			conc++
		default:
			seq++
		}
	}
	path := filepath.Join(t.TempDir(), "report.json")
	if err := os.WriteFile(path, inv.Stdout, 0o644); err != nil {
		t.Fatal(err)
	}
	rinv := replay(t, c.Dir, append(replayArgs(c), path)...)
	out := string(rinv.Stdout)
	concOK := conc == 0 || strings.Contains(out, fmt.Sprintf("\n%d of %d concurrent counterexample(s) reproduced", conc, conc))
	seqOK := seq == 0 || strings.Contains(out, fmt.Sprintf("\n%d of %d counterexample(s) reproduced", seq, seq))
	n.mu.Lock()
	n.conc += conc
	n.seq += seq
	if concOK {
		n.concOK += conc
	}
	if seqOK {
		n.seqOK += seq
	}
	n.mu.Unlock()
	failed := rinv.ExitCode != 0 || !concOK || !seqOK || strings.Contains(out, "NOT REPRODUCED")
	if why, ok := concurrentReplayLimits[c.Name]; ok {
		if !failed {
			t.Errorf("every counterexample reproduces although listed in concurrentReplayLimits (%s): remove it", why)
		}
		t.Logf("known limit: %s:\n%s", why, out)
		return
	}
	if failed {
		t.Errorf("a counterexample of the tool did not break the constraint on the engine (exit %d):\n%s\nstderr:\n%s", rinv.ExitCode, out, rinv.Stderr)
		return
	}
	t.Logf("replayed:\n%s", out)
}
