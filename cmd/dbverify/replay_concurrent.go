package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/dbverify/dbverify/sqlparse"
	"github.com/dbverify/dbverify/witness"
	"github.com/dbverify/dbverify/witness/schedule"
)

// replayConcurrent replays the schedules of concurrent results (check
// --concurrent) through witness/schedule and prints, per request, the
// operations it ran and how it ended, and the violation observed. It
// returns exitUnsafe when a schedule did not reproduce.
func replayConcurrent(c *cli.Context, w io.Writer, d sqlparse.Dialect, dir string, targets []schedule.ReplayTarget) (int, error) {
	work, err := os.MkdirTemp("", "dbverify-replay-concurrent-")
	if err != nil {
		return 0, err
	}
	if c.Bool("keep") {
		fmt.Fprintln(w, "work directory:", work)
	} else {
		defer os.RemoveAll(work)
	}
	res, err := schedule.Replay(contextOf(c), schedule.ReplayConfig{
		Dir: dir, Dialect: d, SchemaPath: c.String("schema"), Table: c.String("table"), Targets: targets,
		DriverName: c.String("driver"), DSN: c.String("dsn"), WorkDir: work,
	})
	if err != nil {
		return 0, err
	}
	printConcurrentReplay(w, res)
	for _, o := range res.Outcomes {
		if !o.Reproduced {
			return exitUnsafe, nil
		}
	}
	return exitSafe, nil
}

func printConcurrentReplay(w io.Writer, res *schedule.ReplayResult) {
	fmt.Fprintf(w, "replaying %d concurrent counterexample(s) on %s\n", len(res.Outcomes), res.Engine)
	reproduced := 0
	for i, o := range res.Outcomes {
		t := o.Target
		fmt.Fprintf(w, "\n[%d] %s\n    constraint: %s\n", i+1, t.Entry, t.Constraint)
		if iso := t.Schedule.Isolation; iso != nil {
			fmt.Fprintf(w, "    isolation (as checked): %s (%s)\n", iso.Level, iso.Source)
		}
		for _, r := range t.Schedule.InitialRows {
			fmt.Fprintf(w, "    seeded %s %s\n", r.Table, witness.FormatRows([]map[string]string{r.Values}))
		}
		for _, r := range t.Schedule.Requests {
			var in []string
			for _, x := range r.Inputs {
				in = append(in, x.Name+"="+x.Value)
			}
			fmt.Fprintf(w, "    request %s: %s(%s)\n", r.Request, r.Entry, strings.Join(in, ", "))
		}
		var order []string
		for _, s := range t.Schedule.Schedule {
			step := fmt.Sprintf("%s%d", s.Request, s.Step)
			if s.Fails {
				step += "(fails)" // a statement the server refuses is sent in its place
			}
			order = append(order, step)
		}
		fmt.Fprintf(w, "    schedule: %s\n", strings.Join(order, " "))
		if o.Err != nil {
			fmt.Fprintf(w, "    NOT REPRODUCED: not run: %v\n", o.Err)
			continue
		}
		printRequests(w, o.Outcome)
		if o.Attempts > 1 {
			fmt.Fprintf(w, "    runs: %d (a run that did not follow the schedule was repeated)\n", o.Attempts)
		}
		switch {
		case o.Reproduced:
			reproduced++
			for _, v := range o.Outcome.Violations {
				fmt.Fprintf(w, "    REPRODUCED: violated after %s: %s\n", v.After, v.Rows)
			}
			if len(o.Outcome.FinalViolations) > 0 {
				fmt.Fprintf(w, "    REPRODUCED: violated at the end: %s\n", witness.FormatRows(o.Outcome.FinalViolations))
			}
		case !o.Outcome.Followed():
			fmt.Fprintf(w, "    NOT REPRODUCED: the run did not follow the schedule: %s\n", strings.Join(scheduleProblems(o.Outcome), "; "))
		default:
			fmt.Fprintf(w, "    NOT REPRODUCED: %s holds after every commit and at the end: %s\n", t.Constraint, finalRows(o.Outcome))
		}
	}
	fmt.Fprintf(w, "\n%d of %d concurrent counterexample(s) reproduced\n", reproduced, len(res.Outcomes))
}

// printRequests prints each request's operations, in the order the run
// granted them, and how it ended.
func printRequests(w io.Writer, out *schedule.Outcome) {
	for _, r := range out.Requests {
		fmt.Fprintf(w, "    request %s:\n", r.Request)
		for _, op := range r.Ops {
			line := fmt.Sprintf("      %s%d %-8s %s", r.Request, op.Index, op.Kind, strings.Join(strings.Fields(op.SQL), " "))
			if len(op.Args) > 0 {
				line += " " + fmt.Sprint(op.Args)
			}
			if op.Blocked {
				line += "  (waited for a lock)"
			}
			if op.Err != "" {
				line += "  → " + strings.Join(strings.Fields(op.Err), " ")
			}
			fmt.Fprintln(w, line)
		}
		e := r.Err
		switch {
		case r.Panic:
			e = "panic: " + e
		case !r.Returned:
			e = "did not return"
		case e == "":
			e = "nil"
		}
		fmt.Fprintf(w, "      returned %s\n", strings.Join(strings.Fields(e), " "))
	}
}

// scheduleProblems says where a run did not follow its schedule.
func scheduleProblems(out *schedule.Outcome) []string {
	ps := append([]string(nil), out.Problems...)
	for _, s := range out.Steps {
		if s.Problem != "" {
			ps = append(ps, fmt.Sprintf("step %s%d: %s", s.Request, s.Step, s.Problem))
		}
	}
	return ps
}

func finalRows(out *schedule.Outcome) string {
	var parts []string
	for table, rows := range out.Final {
		parts = append(parts, table+" "+witness.FormatRows(rows))
	}
	sort.Strings(parts)
	return strings.Join(parts, "; ")
}
