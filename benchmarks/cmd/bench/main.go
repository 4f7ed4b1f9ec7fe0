package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/dbverify/dbverify/benchmarks/crosscheck"
	"github.com/dbverify/dbverify/benchmarks/harness"
)

// config is the command line.
type config struct {
	bin            string
	corpus         string
	out            string
	plot           string
	filter         string
	engine         string
	compare        string
	scaling        bool
	frontendRef    bool
	timeout        time.Duration
	scalingTimeout time.Duration
	scalingBudget  time.Duration
	scalingMaxN    int
	crossRuns      int
	scalingEngines string
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	var cfg config
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.bin, "bin", "", "path to the dbverify binary (default: build ./cmd/dbverify into a temporary directory)")
	fs.StringVar(&cfg.corpus, "corpus", "", "corpus directory (default: benchmarks/corpus of the module root)")
	fs.StringVar(&cfg.out, "out", "", "results file to write (default: benchmarks/RESULTS.md of the module root; \"-\" = none)")
	fs.StringVar(&cfg.plot, "plot", "", "scaling plot to write, an .svg file (default: scaling.svg next to -out)")
	fs.StringVar(&cfg.filter, "filter", "", "only run the cases whose name (e.g. core/atm_safe) matches this regexp")
	fs.StringVar(&cfg.engine, "engine", "", "dbverify --engine for the corpus (lbe, fixpoint or paths; default: the tool's)")
	fs.StringVar(&cfg.compare, "compare", "", "also run the corpus with this --engine and report both engines side by side, with every verdict they disagree on")
	fs.BoolVar(&cfg.scaling, "scaling", true, "run the scaling study")
	fs.BoolVar(&cfg.frontendRef, "frontend", true, "time the reference front end (go/packages + SSA) on every case")
	fs.DurationVar(&cfg.timeout, "timeout", 2*time.Minute, "time limit of one corpus case")
	fs.DurationVar(&cfg.scalingTimeout, "scaling-timeout", 60*time.Second, "time limit of one scaling run")
	fs.DurationVar(&cfg.scalingBudget, "scaling-budget", 20*time.Second, "wall time of each engine in each of the three scaling studies (N, M, D): the engine's later sizes of the study are skipped once it is spent (0 = none)")
	fs.IntVar(&cfg.crossRuns, "crosscheck-runs", 30, "random runs per SAFE/UNKNOWN entry of the execution cross-check on real engines (0 = no cross-check)")
	fs.StringVar(&cfg.scalingEngines, "scaling-engines", "", "comma-separated engines of the scaling study (default: fixpoint, paths, lbe)")
	fs.IntVar(&cfg.scalingMaxN, "scaling-max-n", 200, "largest N of the sequential-updates study (N = 2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 160, 200, 256)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "bench: unexpected arguments %q\n", fs.Args())
		return 2
	}
	code, err := bench(cfg, stdout, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 2
	}
	return code
}

func bench(cfg config, stdout, stderr io.Writer) (int, error) {
	cfg, cleanup, err := resolvePaths(cfg, stderr)
	if err != nil {
		return 0, err
	}
	defer cleanup()
	cases, err := selectCases(cfg)
	if err != nil {
		return 0, err
	}

	started := time.Now()
	runs := runCorpus(cfg, cases, stderr)
	totals := harness.Score(runs)
	writeTable(stdout, runs)
	fmt.Fprintln(stdout)
	writeDisagreements(stdout, runs, false)
	writeTotals(stdout, totals, false)
	writeResultTimes(stdout, runs)
	fmt.Fprintln(stdout)
	writeConcurrency(stdout, runs, false)

	var cross *crosscheck.Report
	if cfg.crossRuns > 0 {
		if cross, err = runCrossCheck(cfg, cases, runs, stderr); err != nil {
			return 0, fmt.Errorf("cross-check: %w", err)
		}
		fmt.Fprintln(stdout)
		fmt.Fprint(stdout, cross.Summary())
	}
	var compared []engineRuns
	if cfg.compare != "" {
		compared = compareEngines(cfg, cases, runs, stderr)
		fmt.Fprintln(stdout)
		writeComparison(stdout, compared, false)
	}
	var scaling *harness.ScalingReport
	var plotErr error
	if cfg.scaling {
		if scaling, plotErr, err = runScalingStudy(cfg, stdout, stderr); err != nil {
			return 0, err
		}
	}

	if cfg.out != "-" {
		m, err := collectMachine(cfg.bin)
		if err != nil {
			fmt.Fprintln(stderr, "bench: machine description:", err)
		}
		plotLink := ""
		if scaling != nil && plotErr == nil {
			if rel, err := filepath.Rel(filepath.Dir(cfg.out), cfg.plot); err == nil {
				plotLink = filepath.ToSlash(rel)
			} else {
				plotLink = cfg.plot
			}
		}
		doc := resultsMarkdown(resultsDoc{
			date: started, machine: m, cfg: cfg, runs: runs, totals: totals,
			scaling: scaling, plotLink: plotLink, elapsed: time.Since(started), cross: cross, compared: compared,
		})
		if err := os.WriteFile(cfg.out, []byte(doc), 0o644); err != nil {
			return 0, err
		}
		fmt.Fprintln(stdout, "results:", cfg.out)
	}
	if totals.Failed() || (cross != nil && cross.Totals().Disagreements > 0) {
		return 1, nil
	}
	return 0, nil
}

// resolvePaths fills in the corpus, output and plot paths and the binary
// (built into a temporary directory, which cleanup removes, when -bin is
// not given).
func resolvePaths(cfg config, stderr io.Writer) (config, func(), error) {
	cleanup := func() {}
	wd, err := os.Getwd()
	if err != nil {
		return cfg, cleanup, err
	}
	var root string
	if cfg.bin == "" || cfg.corpus == "" || cfg.out == "" {
		root, err = harness.ModuleRoot(wd)
		if err != nil {
			return cfg, cleanup, err
		}
	}
	if cfg.corpus == "" {
		cfg.corpus = filepath.Join(root, "benchmarks", "corpus")
	}
	if cfg.out == "" {
		cfg.out = filepath.Join(root, "benchmarks", "RESULTS.md")
	}
	if cfg.plot == "" {
		dir := "."
		if cfg.out != "-" {
			dir = filepath.Dir(cfg.out)
		}
		cfg.plot = filepath.Join(dir, "scaling.svg")
	}
	if cfg.bin != "" {
		cfg.bin, err = filepath.Abs(cfg.bin)
		return cfg, cleanup, err
	}
	tmp, err := os.MkdirTemp("", "dbverify-bench-")
	if err != nil {
		return cfg, cleanup, err
	}
	cleanup = func() { os.RemoveAll(tmp) }
	fmt.Fprintln(stderr, "bench: building ./cmd/dbverify")
	if cfg.bin, err = harness.BuildBinary(root, tmp); err != nil {
		cleanup()
		return cfg, func() {}, err
	}
	return cfg, cleanup, nil
}

// selectCases loads the corpus and keeps the cases -filter matches.
func selectCases(cfg config) ([]*harness.Case, error) {
	cases, err := harness.LoadCases(cfg.corpus)
	if err != nil || cfg.filter == "" {
		return cases, err
	}
	filter, err := regexp.Compile(cfg.filter)
	if err != nil {
		return nil, fmt.Errorf("-filter: %w", err)
	}
	var kept []*harness.Case
	for _, c := range cases {
		if filter.MatchString(c.Name) {
			kept = append(kept, c)
		}
	}
	if len(kept) == 0 {
		return nil, fmt.Errorf("-filter %q matches no case", cfg.filter)
	}
	return kept, nil
}

// runCorpus runs the binary on every case, with progress on stderr.
func runCorpus(cfg config, cases []*harness.Case, stderr io.Writer) []*harness.CaseRun {
	opts := harness.Options{Engine: cfg.engine, Timeout: cfg.timeout, FrontendReference: cfg.frontendRef}
	var runs []*harness.CaseRun
	for i, c := range cases {
		r := harness.Run(cfg.bin, c, opts)
		status := "ok"
		if r.Failed() {
			status = "FAIL"
		}
		fmt.Fprintf(stderr, "[%d/%d] %-45s %6.2fs %s\n", i+1, len(cases), c.Name, r.Inv.Wall.Seconds(), status)
		if r.FrontendErr != nil {
			fmt.Fprintf(stderr, "        reference front end: %v\n", r.FrontendErr)
		}
		runs = append(runs, r)
	}
	return runs
}

// compareEngines runs the corpus again with -compare's engine.
func compareEngines(cfg config, cases []*harness.Case, runs []*harness.CaseRun, stderr io.Writer) []engineRuns {
	first := cfg.engine
	if first == "" {
		first = "default"
	}
	other := engineRuns{engine: cfg.compare}
	copts := harness.Options{Engine: cfg.compare, Timeout: cfg.timeout}
	for i, c := range cases {
		r := harness.Run(cfg.bin, c, copts)
		fmt.Fprintf(stderr, "[%s %d/%d] %-45s %6.2fs\n", cfg.compare, i+1, len(cases), c.Name, r.Inv.Wall.Seconds())
		other.runs = append(other.runs, r)
	}
	return []engineRuns{{engine: first, runs: runs}, other}
}

// runScalingStudy runs the scaling study, prints its table and writes the
// plot (plotErr: the plot could not be written; err: the study failed).
func runScalingStudy(cfg config, stdout, stderr io.Writer) (scaling *harness.ScalingReport, plotErr, err error) {
	sopts := harness.ScalingOptions{
		Timeout: cfg.scalingTimeout,
		Budget:  cfg.scalingBudget,
		Log:     stderr,
	}
	if cfg.scalingEngines != "" {
		sopts.Engines = strings.Split(cfg.scalingEngines, ",")
	}
	for _, n := range []int{2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 160, 200, 256} {
		if n <= cfg.scalingMaxN {
			sopts.Ns = append(sopts.Ns, n)
		}
	}
	scaling, err = harness.RunScaling(cfg.bin, sopts)
	if err != nil {
		return nil, nil, fmt.Errorf("scaling: %w", err)
	}
	fmt.Fprintln(stdout)
	writeScaling(stdout, scaling, "", false)
	plotErr = writePlot(cfg.plot, scaling)
	if plotErr != nil {
		fmt.Fprintln(stderr, "bench: plot:", plotErr)
	} else {
		fmt.Fprintln(stdout, "plot:", cfg.plot)
	}
	return scaling, plotErr, nil
}
