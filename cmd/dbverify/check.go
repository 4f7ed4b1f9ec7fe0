package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/dbverify/dbverify/pipeline"
	"github.com/dbverify/dbverify/refine"
	"github.com/dbverify/dbverify/report"
	"github.com/dbverify/dbverify/smt"
)

func checkCommand(code *int) *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "verify the entry points of the packages against the constraints",
		ArgsUsage: "[packages]",
		Flags:     checkFlags(),
		// A bad flag value is a usage error (exit 2) without the help text
		// on standard output, where a report is expected.
		OnUsageError: func(_ *cli.Context, err error, _ bool) error {
			return cli.Exit(err.Error(), exitUsage)
		},
		Action: func(c *cli.Context) error {
			n, err := check(c)
			*code = n
			return err
		},
	}
}

// checkFlags are the flags of check. Engine, dialect and format are typed
// values that reject what they do not name when the flag is set (on the
// command line or from the configuration file).
func checkFlags() []cli.Flag {
	engine, dialect, format := pipeline.EngineLBE, pipeline.Dialect(""), report.Text
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "constraint", Aliases: []string{"c"}, Usage: "row-level constraint as a SQL boolean expression, e.g. \"accounts.balance >= 0\" (repeatable)"},
		&cli.StringFlag{Name: "table", Usage: "table of constraints written with bare column names"},
		&cli.StringFlag{Name: "schema", Usage: "DDL file or migrations directory: keys, column types and CHECK constraints"},
		&cli.StringSliceFlag{Name: "assume", Usage: "a fact to assume: over a table's columns (\"products.price >= 0\") for the initial database, over parameter names (\"qty > 0\") for the entry's arguments (repeatable)"},
		&cli.StringFlag{Name: "entry", Usage: "verify the functions whose name matches `REGEXP` instead of the discovered entry points; a closure is named after its function with a $n suffix (makeWithdraw$1); FILE.go:LINE selects the innermost function or closure around that line"},
		&cli.GenericFlag{Name: "dialect", Value: &dialect, Usage: "SQL dialect: mysql, sqlite or postgres (default: from the driver named in sql.Open, else the driver the program imports, else postgres if the SQL uses $n, else mysql)"},
		&cli.GenericFlag{Name: "format", Value: &format, Usage: "output format: " + report.FormatUsage()},
		&cli.StringFlag{Name: "sarif-category", Usage: "SARIF runAutomationDetails id, to tell apart several dbverify runs on one commit (e.g. payments/balance)"},
		&cli.IntFlag{Name: "max-refinements", Value: refine.DefaultMaxRefinements, Usage: "work limit: refinements per result (then UNKNOWN, limit \"work\")"},
		&cli.IntFlag{Name: "rlimit", Value: smt.DefaultRLimit, Usage: "work limit: Z3 resource units of one SMT query, counted the same on every machine (then UNKNOWN, limit \"work\"); -1 for none"},
		&cli.IntFlag{Name: "max-queries", Value: refine.DefaultMaxQueries, Usage: "work limit: SMT queries per result, and with --concurrent of the whole concurrent check of a result (then UNKNOWN, limit \"work\")"},
		&cli.IntFlag{Name: "max-predicates", Value: refine.DefaultMaxPredicates, Usage: "work limit: predicates per result (then UNKNOWN, limit \"work\")"},
		&cli.IntFlag{Name: "max-states", Value: refine.DefaultMaxStates, Usage: "work limit: abstract states of one search of a boolean program (then UNKNOWN, limit \"work\")"},
		&cli.IntFlag{Name: "timeout", Usage: "time limit of one SMT query in milliseconds (then UNKNOWN, limit \"wall-clock\": the verdict may depend on the machine's load); by default (0) a query that runs out of 2 s restarts with another random seed, its limit doubled, 5 attempts (62 s) before UNKNOWN"},
		&cli.DurationFlag{Name: "time-limit", Usage: "wall-clock safety net, off by default: time limit of one (entry, constraint) verification, with --concurrent its whole concurrent check included, e.g. 60s (then UNKNOWN, limit \"wall-clock\"); 0 for none"},
		&cli.DurationFlag{Name: "deadline", Usage: "wall-clock safety net, off by default: time limit of the whole run after loading, e.g. 10m (the results not decided by then are UNKNOWN, limit \"wall-clock\"); 0 for none"},
		&cli.GenericFlag{Name: "engine", Value: &engine, Usage: "checker: lbe (large-block encoding: a loop-free program decided by one SMT formula, loops abstracted at their heads only; fixpoint runs if it gives up), fixpoint (CEGAR with per-statement predicate abstraction) or paths (the seed paper's path enumeration, a baseline)"},
		&cli.BoolFlag{Name: "concurrent", Usage: "also verify concurrent requests: an entry SAFE alone is proved for any number of concurrent requests (stability check), or two requests (the entry with itself and with every other entry) are searched for an interleaving that breaks the constraint"},
		&cli.IntFlag{Name: "requests", Value: 2, Usage: "with --concurrent: how many requests the search puts together where the stability proof fails: 2, or 3 (also the entry three times, and twice with each other entry: slower; a SAFE then says \"bounded: 3 requests\")"},
		&cli.StringFlag{Name: "por", Value: "column", Usage: "with --concurrent: partial-order reduction of the 2-request search, column (adjacent operations of two requests on different tables or non-conflicting columns are kept in one order) or none (every interleaving)"},
		&cli.StringFlag{Name: "isolation", Value: "auto", Usage: "with --concurrent: the transactions' isolation level, rc, rr or ser (auto: the level the code sets, else the dialect's default: postgres READ COMMITTED, mysql REPEATABLE READ, sqlite SERIALIZABLE)"},
		&cli.IntFlag{Name: "max-paths", Value: 100000, Usage: "paths the paths engine lists per abstraction (then UNKNOWN)"},
		&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Usage: "parallel workers (default: number of CPUs)"},
		&cli.StringFlag{Name: "baseline", Usage: "an earlier JSON report (--format json) whose UNSAFE and UNKNOWN results are accepted: only new findings fail the run"},
		&cli.StringFlag{Name: "cache-dir", Usage: "where decided results are kept between runs (default: dbverify under the user's cache directory)"},
		&cli.BoolFlag{Name: "no-cache", Usage: "verify every entry again instead of reusing the results of an earlier run over the same code"},
		&cli.BoolFlag{Name: "fail-on-unknown", Usage: "exit 3 when a result is UNKNOWN (and none is UNSAFE)"},
		&cli.BoolFlag{Name: "assume-no-overflow", Usage: "treat Go integer arithmetic as mathematical (printed as an assumption) instead of wrapping around as Go does"},
		&cli.BoolFlag{Name: "config-inputs", Usage: "treat package-level variables set when their package is initialised (from the environment, a parser, func init) or by the program's own code outside the entry (a LoadConfig) as inputs a counterexample may choose, as a deployment may set them (by default a counterexample that reads one is UNKNOWN); replay does not set them"},
		&cli.BoolFlag{Name: "check-generated", Usage: "also verify the query methods sqlc generated that nothing in the module calls (by default the coverage lists them as not checked)"},
		&cli.BoolFlag{Name: "no-infer-key", Usage: "do not treat a column named id as the table's unique key when no schema declares one"},
		&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "text output: list the predicates of every SAFE result's invariant, and the steps of a counterexample inside generated code (sqlc's queries), which it otherwise folds into the calls that run them; with -q, name the findings accepted in the baseline or suppressed, one line each"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "text output: only the results that need attention (UNSAFE, UNKNOWN), writers no entry runs, warnings and the summary"},
		&cli.StringFlag{Name: "config", Usage: "project configuration (YAML: the check flags without dashes, e.g. constraint, schema, assume, fail-on-unknown); default: .dbverify.yaml in the run's directory if present"},
		&cli.StringFlag{Name: "dir", Aliases: []string{"C"}, Usage: "run as if dbverify were started in `DIR` (packages, --schema and positions are relative to it)"},
		&cli.BoolFlag{Name: "dump-boolprog", Usage: "print the last boolean program of each result"},
		&cli.BoolFlag{Name: "dump-ir", Usage: "print the lowered IR program of each result"},
		&cli.BoolFlag{Name: "progress", Usage: "report progress on stderr (default: when stderr is a terminal)"},
	}
}

// check runs the check command and returns its exit code.
func check(c *cli.Context) (int, error) {
	if _, err := applyConfig(c); err != nil {
		return exitUsage, cli.Exit(err.Error(), exitUsage)
	}
	format := *c.Generic("format").(*report.Format)
	opt := report.Options{
		Verbose: c.Bool("verbose"), Quiet: c.Bool("quiet"),
		Dir: c.String("dir"), Category: c.String("sarif-category"),
		ToolVersion: version(), SemanticVersion: semanticVersion,
	}
	cfg, err := pipelineConfig(c)
	if err != nil {
		return exitUsage, cli.Exit(err.Error(), exitUsage)
	}
	if cfg.Progress == nil {
		h := startHeartbeat(c.App.ErrWriter, heartbeatEvery)
		cfg.Progress, cfg.Phase, cfg.Started = h.progress, h.phase, h.started
		defer h.end()
	}
	rep, err := pipeline.Run(c.Context, cfg)
	if err != nil {
		// Load, usage and internal errors all exit 2; a SARIF consumer
		// still gets a valid log that says the run failed.
		if format == report.SARIF {
			if werr := report.WriteSARIFFailure(c.App.Writer, opt, err); werr != nil {
				return exitUsage, cli.Exit(werr.Error(), exitUsage)
			}
		}
		return exitUsage, cli.Exit(err.Error(), exitUsage)
	}
	if path := c.String("baseline"); path != "" {
		keys, err := readBaseline(inDir(c.String("dir"), path))
		if err != nil {
			return exitUsage, cli.Exit(err.Error(), exitUsage)
		}
		markBaseline(rep, keys)
	}
	if format != report.Text {
		// (The text report prints them with the results.)
		for _, w := range rep.Warnings {
			fmt.Fprintln(c.App.ErrWriter, "dbverify: warning:", w)
		}
	}
	if err := format.Writer(opt)(c.App.Writer, rep); err != nil {
		return exitUsage, cli.Exit(err.Error(), exitUsage)
	}
	if err := c.Context.Err(); err != nil {
		if rep.Interrupted {
			// A gate must not pass on an interrupted run.
			return exitUsage, cli.Exit("interrupted: the results not decided are UNKNOWN ("+err.Error()+")", exitUsage)
		}
		// Every result was decided before the interrupt (which cut the
		// re-checks under the run's other constraints short): the
		// report is complete, and its verdicts give the exit code.
		fmt.Fprintln(c.App.ErrWriter, "dbverify: interrupted after every result was decided: the report is complete")
	}
	return exitCode(rep, c.Bool("fail-on-unknown")), nil
}

// pipelineConfig turns the flags into the pipeline's configuration.
func pipelineConfig(c *cli.Context) (pipeline.Config, error) {
	patterns := c.Args().Slice()
	for i, p := range patterns {
		if strings.HasPrefix(p, "-") && i > 0 {
			return pipeline.Config{}, fmt.Errorf("flag %s after the packages: flags come first (dbverify check %s … %s)", p, p, strings.Join(patterns[:i], " "))
		}
	}
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	if por := c.String("por"); por != "column" && por != "none" {
		return pipeline.Config{}, fmt.Errorf("--por %q: want column or none", por)
	}
	cfg := pipeline.Config{
		Dir:            c.String("dir"),
		Patterns:       patterns,
		Constraints:    c.StringSlice("constraint"),
		Table:          c.String("table"),
		Schema:         inDir(c.String("dir"), c.String("schema")),
		Entry:          c.String("entry"),
		Assume:         c.StringSlice("assume"),
		Dialect:        *c.Generic("dialect").(*pipeline.Dialect),
		MaxRefinements: c.Int("max-refinements"),
		RLimit:         c.Int("rlimit"),
		MaxQueries:     c.Int("max-queries"),
		MaxPredicates:  c.Int("max-predicates"),
		MaxStates:      c.Int("max-states"),
		TimeoutMS:      c.Int("timeout"),
		TimeLimit:      c.Duration("time-limit"),
		Deadline:       c.Duration("deadline"),
		Engine:         *c.Generic("engine").(*pipeline.Engine),
		Concurrent:     c.Bool("concurrent"),
		Isolation:      c.String("isolation"),
		NoReduction:    c.String("por") == "none",
		Requests:       c.Int("requests"),
		MaxPaths:       c.Int("max-paths"),
		Workers:        c.Int("jobs"),
		NoInferKey:     c.Bool("no-infer-key"),
		CheckGenerated: c.Bool("check-generated"),
		NoOverflow:     c.Bool("assume-no-overflow"),
		ConfigInputs:   c.Bool("config-inputs"),
		KeepBoolProg:   c.Bool("dump-boolprog"),
		KeepIR:         c.Bool("dump-ir"),
	}
	if !c.Bool("no-cache") {
		cfg.CacheDir, cfg.ToolID = cacheDir(c.String("cache-dir")), toolID()
	}
	if stderr := c.App.ErrWriter; c.Bool("progress") || isTerminal(stderr) {
		cfg.Progress = progress(stderr)
		cfg.Phase = func(msg string) { fmt.Fprintln(stderr, "dbverify:", msg) }
	}
	return cfg, nil
}

// progress reports each decided result on w.
func progress(w io.Writer) func(done, total int, r *report.Result) {
	return func(done, total int, r *report.Result) {
		fmt.Fprintf(w, "[%d/%d] %-7s %s (%s) %.2fs\n", done, total, r.Verdict, r.Entry, r.Constraint, r.Seconds)
	}
}
