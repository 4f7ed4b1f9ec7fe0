package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/dbverify/dbverify/pipeline"
	"github.com/dbverify/dbverify/refine"
)

// Exit codes.
const (
	exitSafe    = 0
	exitUnsafe  = 1
	exitUsage   = 2
	exitUnknown = 3
)

func main() {
	os.Exit(run(os.Args, os.Stdout, os.Stderr))
}

// run is main with its streams and exit code explicit, for tests.
func run(args []string, stdout, stderr io.Writer) int {
	code := exitSafe
	app := &cli.App{
		Name:      "dbverify",
		Usage:     "prove Go programs keep their database constraints, or show a run that breaks one",
		Version:   version(),
		Writer:    stdout,
		ErrWriter: stderr,
		Commands: []*cli.Command{
			checkCommand(&code),
			exploreCommand(&code),
			replayCommand(&code),
		},
		ExitErrHandler: func(*cli.Context, error) {},
		CommandNotFound: func(c *cli.Context, name string) {
			fmt.Fprintf(stderr, "dbverify: unknown command %q (commands: check, explore, replay; see dbverify --help)\n", name)
			code = exitUsage
		},
		// A constraint may hold commas: `status IN ('new','sold')`.
		DisableSliceFlagSeparator: true,
	}
	if err := app.Run(args); err != nil {
		var ec cli.ExitCoder
		if errors.As(err, &ec) {
			if msg := err.Error(); msg != "" {
				fmt.Fprintln(stderr, "dbverify:", msg)
			}
			return ec.ExitCode()
		}
		fmt.Fprintln(stderr, "dbverify:", err)
		return exitUsage
	}
	return code
}

func checkCommand(code *int) *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "verify the entry points of the packages against the constraints",
		ArgsUsage: "[packages]",
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "constraint", Aliases: []string{"c"}, Usage: "row-level constraint as a SQL boolean expression, e.g. \"accounts.balance >= 0\" (repeatable)"},
			&cli.StringFlag{Name: "table", Usage: "table of constraints written with bare column names"},
			&cli.StringFlag{Name: "schema", Usage: "DDL file or migrations directory: keys, column types and CHECK constraints"},
			&cli.StringSliceFlag{Name: "assume", Usage: "a fact to assume: over a table's columns (\"products.price >= 0\") for the initial database, over parameter names (\"qty > 0\") for the entry's arguments (repeatable)"},
			&cli.StringFlag{Name: "entry", Usage: "verify the functions whose name matches `REGEXP` instead of the discovered entry points; a closure is named after its function with a $n suffix (makeWithdraw$1)"},
			&cli.StringFlag{Name: "dialect", Usage: "SQL dialect: mysql, sqlite or postgres (default: from the driver named in sql.Open, else the driver the program imports, else postgres if the SQL uses $n, else mysql)"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output format: text, json, sarif (GitHub code scanning) or github (workflow-command annotations)"},
			&cli.StringFlag{Name: "sarif-category", Usage: "SARIF runAutomationDetails id, to tell apart several dbverify runs on one commit (e.g. payments/balance)"},
			&cli.IntFlag{Name: "max-refinements", Value: 20, Usage: "refinement limit per result (then UNKNOWN)"},
			&cli.IntFlag{Name: "timeout", Value: 10000, Usage: "time limit of one SMT query in milliseconds (then UNKNOWN)"},
			&cli.DurationFlag{Name: "time-limit", Value: 60 * time.Second, Usage: "time limit of one (entry, constraint) verification (then UNKNOWN); 0 for none"},
			&cli.BoolFlag{Name: "concurrent", Usage: "also verify concurrent requests: an entry SAFE alone is proved for any number of concurrent requests (stability check), or two requests (the entry with itself and with every other entry) are searched for an interleaving that breaks the constraint"},
			&cli.StringFlag{Name: "isolation", Value: "auto", Usage: "with --concurrent: the transactions' isolation level, rc, rr or ser (auto: the level the code sets, else the dialect's default: postgres READ COMMITTED, mysql REPEATABLE READ, sqlite SERIALIZABLE)"},
			&cli.StringFlag{Name: "engine", Value: "lbe", Usage: "checker: lbe (large-block encoding: a loop-free program decided by one SMT formula, loops abstracted at their heads only; fixpoint runs if it gives up), fixpoint (CEGAR with per-statement predicate abstraction) or paths (the seed paper's path enumeration, a baseline)"},
			&cli.IntFlag{Name: "max-paths", Value: 100000, Usage: "paths the paths engine lists per abstraction (then UNKNOWN)"},
			&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Usage: "parallel workers (default: number of CPUs)"},
			&cli.StringFlag{Name: "baseline", Usage: "an earlier JSON report (--format json) whose UNSAFE and UNKNOWN results are accepted: only new findings fail the run"},
			&cli.StringFlag{Name: "cache-dir", Usage: "where decided results are kept between runs (default: dbverify under the user's cache directory)"},
			&cli.BoolFlag{Name: "no-cache", Usage: "verify every entry again instead of reusing the results of an earlier run over the same code"},
			&cli.BoolFlag{Name: "fail-on-unknown", Usage: "exit 3 when a result is UNKNOWN (and none is UNSAFE)"},
			&cli.BoolFlag{Name: "no-infer-key", Usage: "do not treat a column named id as the table's unique key when no schema declares one"},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "text output: list the predicates of every SAFE result's invariant"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "text output: only the results that need attention (UNSAFE, UNKNOWN), writers no entry runs, warnings and the summary"},
			&cli.StringFlag{Name: "config", Usage: "project configuration (YAML: the check flags without dashes, e.g. constraint, schema, assume, fail-on-unknown); default: .dbverify.yaml in the run's directory if present"},
			&cli.StringFlag{Name: "dir", Aliases: []string{"C"}, Usage: "run as if dbverify were started in `DIR` (packages, --schema and positions are relative to it)"},
			&cli.BoolFlag{Name: "dump-boolprog", Usage: "print the last boolean program of each result"},
			&cli.BoolFlag{Name: "dump-ir", Usage: "print the lowered IR program of each result"},
			&cli.BoolFlag{Name: "progress", Usage: "report progress on stderr (default: when stderr is a terminal)"},
		},
		Action: func(c *cli.Context) error {
			if _, err := applyConfig(c); err != nil {
				return cli.Exit(err.Error(), exitUsage)
			}
			format := c.String("format")
			if format != "text" && format != "json" && format != "sarif" && format != "github" {
				return cli.Exit(fmt.Sprintf("unknown --format %q (want text, json, sarif or github)", format), exitUsage)
			}
			sopt := newSARIFOptions(c.String("sarif-category"), c.String("dir"))
			patterns := c.Args().Slice()
			for i, p := range patterns {
				if strings.HasPrefix(p, "-") && i > 0 {
					return cli.Exit(fmt.Sprintf("flag %s after the packages: flags come first (dbverify check %s … %s)", p, p, strings.Join(patterns[:i], " ")), exitUsage)
				}
			}
			if len(patterns) == 0 {
				patterns = []string{"./..."}
			}
			cfg := pipeline.Config{
				Dir:            c.String("dir"),
				Patterns:       patterns,
				Constraints:    c.StringSlice("constraint"),
				Table:          c.String("table"),
				Schema:         inDir(c.String("dir"), c.String("schema")),
				Entry:          c.String("entry"),
				Assume:         c.StringSlice("assume"),
				Dialect:        c.String("dialect"),
				MaxRefinements: c.Int("max-refinements"),
				TimeoutMS:      c.Int("timeout"),
				TimeLimit:      c.Duration("time-limit"),
				Engine:         c.String("engine"),
				Concurrent:     c.Bool("concurrent"),
				Isolation:      c.String("isolation"),
				MaxPaths:       c.Int("max-paths"),
				Workers:        c.Int("jobs"),
				NoInferKey:     c.Bool("no-infer-key"),
				KeepBoolProg:   c.Bool("dump-boolprog"),
				KeepIR:         c.Bool("dump-ir"),
			}
			if !c.Bool("no-cache") {
				cfg.CacheDir, cfg.ToolID = cacheDir(c.String("cache-dir")), toolID()
			}
			stderr := c.App.ErrWriter
			if c.Bool("progress") || isTerminal(stderr) {
				cfg.Progress = func(done, total int, r *pipeline.Result) {
					fmt.Fprintf(stderr, "[%d/%d] %-7s %s (%s) %.2fs\n", done, total, r.Verdict, r.Entry, r.Constraint, r.Seconds)
				}
			}
			rep, err := pipeline.Run(cfg)
			if err != nil {
				// Load, usage and internal errors all exit 2; a SARIF
				// consumer still gets a valid log that says the run failed.
				if format == "sarif" {
					if werr := writeSARIFFailure(c.App.Writer, sopt, err); werr != nil {
						return cli.Exit(werr.Error(), exitUsage)
					}
				}
				return cli.Exit(err.Error(), exitUsage)
			}
			if path := c.String("baseline"); path != "" {
				keys, err := readBaseline(inDir(c.String("dir"), path))
				if err != nil {
					return cli.Exit(err.Error(), exitUsage)
				}
				markBaseline(rep, keys)
			}
			if format != "text" {
				// (The text report prints them with the results.)
				for _, w := range rep.Warnings {
					fmt.Fprintln(stderr, "dbverify: warning:", w)
				}
			}
			out := c.App.Writer
			switch format {
			case "json":
				err = writeJSON(out, rep)
			case "sarif":
				err = writeSARIF(out, rep, sopt)
			case "github":
				err = writeGitHub(out, rep, sopt)
			default:
				writeText(out, rep, textOptions{verbose: c.Bool("verbose"), quiet: c.Bool("quiet")})
			}
			if err != nil {
				return cli.Exit(err.Error(), exitUsage)
			}
			*code = exitCode(rep, c.Bool("fail-on-unknown"))
			return nil
		},
	}
}

// inDir resolves a relative path given on the command line against -C.
func inDir(dir, path string) string {
	if dir == "" || path == "" || filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(dir, path)
}

func exitCode(rep *pipeline.Report, failOnUnknown bool) int {
	unknown := false
	for _, r := range rep.Results {
		if r.Suppressed != "" || r.InBaseline {
			continue // //dbverify:ignore with a reason, or accepted in the baseline
		}
		switch r.Verdict {
		case refine.Unsafe:
			return exitUnsafe
		case refine.Unknown:
			unknown = true
		}
	}
	if unknown && failOnUnknown {
		return exitUnknown
	}
	return exitSafe
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
