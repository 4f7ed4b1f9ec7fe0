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
	"concurrent/pg_delete_owner_add_pet_unsafe":    "the constraint has a subquery (not over one row)",
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

// TestReplayConcurrentUnsafe runs check --concurrent on every case of
// benchmarks/corpus/concurrent whose expectation is UNSAFE and replays
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
			t.Run(strings.TrimPrefix(c.Name, "concurrent/"), func(t *testing.T) {
				t.Parallel()
				replayConcurrentCase(t, c, &n)
			})
		}
	})
	t.Logf("concurrent corpus: %d cases with an UNSAFE expectation, %d without an UNSAFE result (notUnsafeByTheTool); replayed %d concurrent counterexamples (%d reproduced) and %d sequential ones (%d reproduced)",
		n.cases, n.notUnsafe, n.conc, n.concOK, n.seq, n.seqOK)
}

// tally counts the replays of the cases (which run in parallel: mu
// guards the counts).
type tally struct {
	mu                                         sync.Mutex
	cases, notUnsafe, conc, concOK, seq, seqOK int
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
