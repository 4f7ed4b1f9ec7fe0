package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/dbverify/dbverify/benchmarks/crosscheck"
	"github.com/dbverify/dbverify/benchmarks/harness"
)

// runCrossCheck executes every case's entries on real engines, reusing
// the verdicts of the corpus run.
func runCrossCheck(cfg config, cases []*harness.Case, runs []*harness.CaseRun, stderr io.Writer) (*crosscheck.Report, error) {
	work, err := os.MkdirTemp("", "dbverify-crosscheck-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	reports := map[string]*harness.Report{}
	for _, r := range runs {
		if r.Report != nil {
			reports[r.Case.Name] = r.Report
		}
	}
	return crosscheck.Run(context.Background(), crosscheck.Config{
		CorpusDir: cfg.corpus, Bin: cfg.bin, Cases: cases, Runs: cfg.crossRuns, Seed: 1,
		WorkDir: work, Reports: reports,
		Log: func(format string, args ...any) { fmt.Fprintf(stderr, "crosscheck: "+format+"\n", args...) },
	})
}
