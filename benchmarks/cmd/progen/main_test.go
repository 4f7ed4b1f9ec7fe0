package main

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/dbverify/dbverify/benchmarks/harness"
)

// TestGeneratedProgramsAgreeWithExecution runs the whole loop on a few
// generated programs: dbverify's verdicts, each decided on SQLite. A
// disagreement (a SAFE a random run breaks, an UNSAFE whose counterexample
// does not break the constraint and no run does) fails the test with the
// run that shows it.
func TestGeneratedProgramsAgreeWithExecution(t *testing.T) {
	if testing.Short() {
		t.Skip("builds dbverify and runs programs on SQLite")
	}
	root, err := harness.ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	bin := os.Getenv("DBVERIFY_E2E_BIN")
	if bin == "" {
		if bin, err = harness.BuildBinary(root, work); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	rep, err := run(context.Background(), config{bin: bin, work: work, n: 6, seed: 1, runs: 15}, &out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	tot := rep.Totals()
	t.Logf("%s", out.String())
	if tot.Disagreements != 0 {
		t.Errorf("%d verdict(s) execution disagrees with:\n%s", tot.Disagreements, rep.Summary())
	}
	// The batch must exercise both verdicts and replay the UNSAFEs.
	if tot.Safe == 0 || tot.Unsafe == 0 || tot.UnsafeReproduced == 0 {
		t.Errorf("SAFE %d, UNSAFE %d (reproduced %d): the batch no longer exercises both verdicts", tot.Safe, tot.Unsafe, tot.UnsafeReproduced)
	}
	if tot.Executions < tot.Safe*15 {
		t.Errorf("%d executions for %d SAFE verdicts × 15 runs", tot.Executions, tot.Safe)
	}
}
