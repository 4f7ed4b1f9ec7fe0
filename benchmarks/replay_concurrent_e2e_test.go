package benchmarks_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbverify/dbverify/benchmarks/harness"
)

// concurrentCheckTimeout bounds one check --concurrent of a concurrent
// corpus case (the search of two requests takes seconds; a loaded machine
// more).
const concurrentCheckTimeout = 3 * time.Minute

// TestReplayConcurrentUnsafe runs check --concurrent on every case of
// benchmarks/corpus/concurrent whose expectation is UNSAFE and replays
// each UNSAFE result's own schedule (the tool's requests, initial rows and
// order, not the case's hand-written one) with dbverify replay on
// PostgreSQL or MariaDB; it fails when a schedule does not break the
// constraint on the engine, or an UNSAFE expectation gets no UNSAFE
// result to replay.
func TestReplayConcurrentUnsafe(t *testing.T) {
	if testing.Short() {
		t.Skip("starts database servers")
	}
	needEngines(t)
	recordInputs(t)
	cases, err := harness.LoadCases(corpusDir(t))
	if err != nil {
		t.Fatal(err)
	}
	var total, results, reproduced int
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
		total++
		t.Run(strings.TrimPrefix(c.Name, "concurrent/"), func(t *testing.T) {
			n, ok := replayConcurrentCase(t, c, unsafe)
			results += n
			if ok {
				reproduced += n
			}
		})
	}
	t.Logf("concurrent corpus: %d cases with an UNSAFE expectation; %d UNSAFE results replayed, %d reproduced on the engine", total, results, reproduced)
}

// replayConcurrentCase checks one case with --concurrent, replays its
// report and returns the number of UNSAFE results and whether every one
// reproduced.
func replayConcurrentCase(t *testing.T, c *harness.Case, want int) (int, bool) {
	t.Helper()
	inv := harness.Exec(t.Context(), binary(t), c.Dir, harness.CheckArgs(c, harness.Options{}), concurrentCheckTimeout)
	if inv.TimedOut || inv.Err != nil {
		t.Fatalf("check timed out or failed: %v\nstderr:\n%s", inv.Err, inv.Stderr)
	}
	if inv.ExitCode != 1 {
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
	n := 0
	for _, r := range rep.Results {
		if r.Verdict == "UNSAFE" {
			n++
			if len(r.Schedule) == 0 {
				t.Errorf("an UNSAFE result of check --concurrent has no schedule")
			}
		}
	}
	if n != want {
		t.Errorf("check --concurrent gave %d UNSAFE results, the case expects %d", n, want)
	}
	path := filepath.Join(t.TempDir(), "report.json")
	if err := os.WriteFile(path, inv.Stdout, 0o644); err != nil {
		t.Fatal(err)
	}
	rinv := replay(t, c.Dir, append(replayArgs(c), path)...)
	out := string(rinv.Stdout)
	ok := rinv.ExitCode == 0 && strings.Contains(out, fmt.Sprintf("\n%d of %d concurrent counterexample(s) reproduced", n, n)) &&
		!strings.Contains(out, "NOT REPRODUCED")
	if !ok {
		t.Errorf("the tool's schedule did not break the constraint on the engine:\n%s", out)
	} else {
		t.Logf("replayed:\n%s", out)
	}
	return n, ok
}
