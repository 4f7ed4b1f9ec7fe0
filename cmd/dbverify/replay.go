package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/dbverify/dbverify/report"
	"github.com/dbverify/dbverify/sqlparse"
	"github.com/dbverify/dbverify/witness"
	"github.com/dbverify/dbverify/witness/schedule"
)

// replayReport is the part of a JSON report (--format json) replay reads.
type replayReport struct {
	Results []struct {
		Entry          string                  `json:"entry"`
		Constraint     string                  `json:"constraint"`
		Verdict        string                  `json:"verdict"`
		Dialect        string                  `json:"dialect"` // the entry's, where not the report's
		Assumptions    []string                `json:"assumptions"`
		Counterexample *witness.Counterexample `json:"counterexample"`
		// A concurrent counterexample (check --concurrent): the requests,
		// the initial rows and the schedule witness/schedule replays.
		Requests    []schedule.Request  `json:"requests"`
		InitialRows []schedule.Row      `json:"initial_rows"`
		Schedule    []schedule.Step     `json:"schedule"`
		Isolation   *schedule.Isolation `json:"isolation"`
	} `json:"results"`
	Dialect *report.Dialect `json:"dialect"`
	Assume  []string        `json:"assume"`
}

// initialConditions are what the check assumed of every initial row of
// result i besides its constraint: the run's --assume facts about
// tables and, unless the result says its rows may break them, the run's
// other constraints (README "Verdicts": several constraints are one
// invariant).
func (rep *replayReport) initialConditions(i int) []string {
	out := append([]string(nil), rep.Assume...)
	for _, a := range rep.Results[i].Assumptions {
		if strings.HasPrefix(a, report.OthersNotAssumed) {
			return out
		}
	}
	seen := map[string]bool{rep.Results[i].Constraint: true}
	for _, r := range rep.Results {
		if !seen[r.Constraint] {
			seen[r.Constraint] = true
			out = append(out, r.Constraint)
		}
	}
	return out
}

func replayCommand(code *int) *cli.Command {
	return &cli.Command{
		Name:      "replay",
		Usage:     "run the counterexamples of a JSON report's UNSAFE results on a real database",
		ArgsUsage: "report.json",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "result", Usage: "replay only the `N`th result of the report (1-based; it must be UNSAFE)"},
			&cli.StringFlag{Name: "entry", Usage: "replay only the UNSAFE results whose entry matches `REGEXP`"},
			&cli.StringFlag{Name: "dsn", Usage: "use this database instead of a throwaway engine (the schema's tables are dropped and created in it)"},
			&cli.StringFlag{Name: "driver", Usage: "database/sql driver of --dsn: pgx, mysql or sqlite (default: from the dialect)"},
			&cli.StringFlag{Name: "schema", Usage: "the DDL file or migrations directory the check used (default: tables synthesised from the program's SQL)"},
			&cli.StringFlag{Name: "table", Usage: "table of constraints written with bare column names (as given to check)"},
			&cli.StringFlag{Name: "dialect", Usage: "SQL dialect (default: the report's)"},
			&cli.BoolFlag{Name: "no-infer-key", Usage: "as given to check: a synthesised table gets no key from a column named id"},
			&cli.BoolFlag{Name: "keep", Usage: "keep the work directory (driver build, engine files) and print its path"},
			&cli.StringFlag{Name: "emit-test", Usage: "write a Go test `FILE` for the entry's package that replays the (single) selected counterexample and fails on the violation"},
			&cli.StringFlag{Name: "dir", Aliases: []string{"C"}, Usage: "the analysed module's `DIR`, where check ran (the report, --schema and --emit-test are relative to it)"},
		},
		Action: func(c *cli.Context) error {
			n, err := runReplay(c, c.App.Writer)
			if err != nil {
				return cli.Exit(err.Error(), exitUsage)
			}
			*code = n
			return nil
		},
	}
}

// runReplay returns the exit code, or an error for a usage or harness
// failure (exit 2).
func runReplay(c *cli.Context, w io.Writer) (int, error) {
	if c.NArg() != 1 {
		return 0, fmt.Errorf("replay: want one report (dbverify check --format json > report.json), got %d arguments", c.NArg())
	}
	dir := c.String("dir")
	if dir == "" {
		dir = "."
	}
	data, err := os.ReadFile(inDir(c.String("dir"), c.Args().First()))
	if err != nil {
		return 0, fmt.Errorf("replay: %w", err)
	}
	var rep replayReport
	if err := json.Unmarshal(data, &rep); err != nil {
		return 0, fmt.Errorf("replay: %s is not a JSON report of dbverify check: %w", c.Args().First(), err)
	}
	dialectName := c.String("dialect")
	if dialectName == "" && rep.Dialect != nil {
		dialectName = rep.Dialect.Name
	}
	if dialectName == "" {
		return 0, fmt.Errorf("replay: the report names no dialect; give --dialect")
	}
	d, err := sqlparse.ParseDialect(dialectName)
	if err != nil {
		return 0, fmt.Errorf("replay: %w", err)
	}
	var entryRE *regexp.Regexp
	if e := c.String("entry"); e != "" {
		if entryRE, err = regexp.Compile(e); err != nil {
			return 0, fmt.Errorf("replay: --entry: %w", err)
		}
	}
	// Each result replays on an engine of its entry's dialect (a program
	// using two reads each entry's SQL in its own), unless --dialect
	// says otherwise.
	targets := map[sqlparse.Dialect][]witness.ReplayTarget{}
	concurrent := map[sqlparse.Dialect][]schedule.ReplayTarget{}
	nTargets, nConcurrent := 0, 0
	for i, r := range rep.Results {
		if n := c.Int("result"); n != 0 {
			if i+1 != n {
				continue
			}
			if r.Verdict != "UNSAFE" {
				return 0, fmt.Errorf("replay: result %d (%s) is %s, not UNSAFE", n, r.Entry, r.Verdict)
			}
		}
		if r.Verdict != "UNSAFE" || (entryRE != nil && !entryRE.MatchString(r.Entry)) {
			continue
		}
		rd := d
		if r.Dialect != "" && c.String("dialect") == "" {
			if rd, err = sqlparse.ParseDialect(r.Dialect); err != nil {
				return 0, fmt.Errorf("replay: result %d (%s): %w", i+1, r.Entry, err)
			}
		}
		if len(r.Schedule) > 0 {
			concurrent[rd] = append(concurrent[rd], schedule.ReplayTarget{Entry: r.Entry, Constraint: r.Constraint,
				Schedule: schedule.Schedule{Requests: r.Requests, InitialRows: r.InitialRows, Schedule: r.Schedule, Isolation: r.Isolation},
				Cex:      r.Counterexample})
			nConcurrent++
			continue
		}
		targets[rd] = append(targets[rd], witness.ReplayTarget{Entry: r.Entry, Constraint: r.Constraint, Cex: r.Counterexample, Initial: rep.initialConditions(i)})
		nTargets++
	}
	if n := c.Int("result"); n < 0 || n > len(rep.Results) {
		return 0, fmt.Errorf("replay: --result %d: the report has %d results", n, len(rep.Results))
	}
	if nTargets == 0 && nConcurrent == 0 {
		fmt.Fprintln(w, "no UNSAFE result to replay")
		return 0, nil
	}
	if nConcurrent > 0 && c.String("emit-test") != "" {
		return 0, fmt.Errorf("replay: --emit-test writes a sequential counterexample's test; the selection has %d concurrent one(s) (check --concurrent)", nConcurrent)
	}
	code := exitSafe
	for _, rd := range sqlparse.Dialects() {
		if ts := targets[rd]; len(ts) > 0 {
			n, err := replaySequential(c, w, rd, dir, ts)
			if err != nil {
				return 0, err
			}
			code = max(code, n)
		}
		if cs := concurrent[rd]; len(cs) > 0 {
			n, err := replayConcurrent(c, w, rd, dir, cs)
			if err != nil {
				return 0, err
			}
			code = max(code, n)
		}
	}
	return code, nil
}

// replaySequential replays the counterexamples of sequential results
// (one call each) through witness.Replay.
func replaySequential(c *cli.Context, w io.Writer, d sqlparse.Dialect, dir string, targets []witness.ReplayTarget) (int, error) {
	if c.String("emit-test") != "" && len(targets) != 1 {
		return 0, fmt.Errorf("replay: --emit-test writes one counterexample's test; select one of the %d UNSAFE results with --result or --entry", len(targets))
	}

	work, err := os.MkdirTemp("", "dbverify-replay-")
	if err != nil {
		return 0, err
	}
	if c.Bool("keep") {
		fmt.Fprintln(w, "work directory:", work)
	} else {
		defer os.RemoveAll(work)
	}
	driverName := c.String("driver")
	if c.String("dsn") != "" && driverName == "" {
		driverName = witness.DriverName(d)
	}
	cfg := witness.ReplayConfig{
		Dir: dir, Dialect: d, SchemaPath: c.String("schema"), Table: c.String("table"),
		NoInferKey: c.Bool("no-infer-key"), Targets: targets,
		DriverName: driverName, DSN: c.String("dsn"), WorkDir: work,
	}
	if path := c.String("emit-test"); path != "" {
		return emitTest(contextOf(c), w, cfg, inDir(c.String("dir"), path))
	}
	res, err := witness.Replay(contextOf(c), cfg)
	if err != nil {
		return 0, err
	}
	printReplay(w, res)
	return replayExit(res), nil
}

// replayExit is replay's exit code: 1 when a counterexample did not
// reproduce (or was not run), else 4 when one could not be driven along
// its path (not refuted), else 0.
func replayExit(res *witness.ReplayResult) int {
	code := exitSafe
	for _, o := range res.Outcomes {
		switch {
		case o.Reproduced:
		case o.NotDriven != "" && o.NotRun == "":
			code = max(code, exitNotDriven)
		default:
			return exitUnsafe
		}
	}
	return code
}

func contextOf(c *cli.Context) context.Context {
	if c.Context != nil {
		return c.Context
	}
	return context.Background()
}

func printReplay(w io.Writer, res *witness.ReplayResult) {
	fmt.Fprintf(w, "replaying %d counterexample(s) on %s; schema: %s\n", len(res.Outcomes), res.Engine, res.Schema.Source)
	reproduced := 0
	for i, o := range res.Outcomes {
		fmt.Fprintf(w, "\n[%d] %s\n    constraint: %s\n", i+1, o.Target.Entry, o.Target.Constraint)
		if o.Run != nil {
			for _, r := range o.Run.Rows {
				fmt.Fprintf(w, "    seeded %s %s\n", r.Table, witness.FormatRows([]map[string]string{r.Values}))
			}
			inputs, clock := witness.SplitClock(o.Run.Inputs)
			fmt.Fprintf(w, "    inputs %s\n", witness.FormatRows([]map[string]string{inputs}))
			if clock != "" {
				fmt.Fprintf(w, "    clock: time.Now() reads %s\n", clock)
			}
			for _, f := range o.Run.Fail {
				if f.NoRows {
					fmt.Fprintf(w, "    no row from run %d of %s\n", f.N, f.Text)
					continue
				}
				fmt.Fprintf(w, "    failing run %d of %s\n", f.N, f.Text)
			}
		}
		for _, n := range o.Notes {
			fmt.Fprintf(w, "    assuming %s\n", n)
		}
		var notSet []string
		for _, u := range o.NotSet {
			fmt.Fprintf(w, "    could not set %s\n", u)
			notSet = append(notSet, u.Name)
		}
		switch {
		case o.NotRun != "":
			fmt.Fprintf(w, "    NOT REPRODUCED: not run: %s\n", o.NotRun)
		case o.Reproduced:
			reproduced++
			fmt.Fprintf(w, "    returned %s\n", o.Outcome.CallError())
			for _, v := range o.Outcome.Violated() {
				fmt.Fprintf(w, "    REPRODUCED: violated %s\n", v)
			}
		case o.NotDriven != "":
			fmt.Fprintf(w, "    returned %s\n", o.Outcome.CallError())
			fmt.Fprintf(w, "    COULD NOT DRIVE: %s: a dependency the driver left unset, or a call outside the analysed code that failed on the value the model chose for it; the counterexample is not refuted\n", o.NotDriven)
		case len(o.Run.Unordered) > 0:
			// Not a run the counterexample describes: the engine chose
			// another row than the trace read.
			fmt.Fprintf(w, "    returned %s\n", o.Outcome.CallError())
			for _, u := range o.Run.Unordered {
				fmt.Fprintf(w, "    NOT REPLAYABLE AS PRINTED: %s\n", u)
			}
			fmt.Fprintf(w, "    (%s holds after the call: %s)\n", o.Target.Constraint, witness.FormatRows(o.Outcome.After))
		case len(notSet) > 0:
			// Not a run of the counterexample: inputs kept other values.
			fmt.Fprintf(w, "    returned %s\n", o.Outcome.CallError())
			fmt.Fprintf(w, "    NOT REPRODUCED (inputs not set: %s): %s holds after the call: %s\n", strings.Join(notSet, ", "), o.Target.Constraint, witness.FormatRows(o.Outcome.After))
		default:
			fmt.Fprintf(w, "    returned %s\n", o.Outcome.CallError())
			fmt.Fprintf(w, "    NOT REPRODUCED: %s holds after the call: %s\n", o.Target.Constraint, witness.FormatRows(o.Outcome.After))
		}
		if !o.Reproduced && o.Outcome != nil && len(o.Outcome.Refused) > 0 {
			fmt.Fprintf(w, "    the database refused seeded rows: %s\n", strings.Join(o.Outcome.Refused, " | "))
		}
	}
	fmt.Fprintf(w, "\n%d of %d counterexample(s) reproduced", reproduced, len(res.Outcomes))
	if n := notDrivenCount(res); n > 0 {
		fmt.Fprintf(w, ", %d could not be driven (not refuted)", n)
	}
	fmt.Fprintln(w)
}

// notDrivenCount counts the counterexamples the replay could not drive.
func notDrivenCount(res *witness.ReplayResult) int {
	n := 0
	for _, o := range res.Outcomes {
		if !o.Reproduced && o.NotDriven != "" {
			n++
		}
	}
	return n
}
