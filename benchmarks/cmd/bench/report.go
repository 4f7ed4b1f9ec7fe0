package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/dbverify/dbverify/benchmarks/crosscheck"
	"github.com/dbverify/dbverify/benchmarks/harness"
)

// table renders as aligned text or as a Markdown table.
type table struct {
	header []string
	rows   [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) text(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(t.header, "\t"))
	for _, r := range t.rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	tw.Flush()
}

func (t *table) markdown(w io.Writer) {
	esc := func(cells []string) string {
		out := make([]string, len(cells))
		for i, c := range cells {
			c = strings.ReplaceAll(c, "|", `\|`)
			c = strings.ReplaceAll(c, "\n", " ")
			out[i] = c
		}
		return "| " + strings.Join(out, " | ") + " |"
	}
	fmt.Fprintln(w, esc(t.header))
	sep := make([]string, len(t.header))
	for i := range sep {
		sep[i] = "---"
	}
	fmt.Fprintln(w, "|"+strings.Join(sep, "|")+"|")
	for _, r := range t.rows {
		fmt.Fprintln(w, esc(r))
	}
}

func (t *table) write(w io.Writer, md bool) {
	if md {
		t.markdown(w)
	} else {
		t.text(w)
	}
}

func secs(d time.Duration) string { return fmt.Sprintf("%.2f", d.Seconds()) }

func gotCell(o *harness.Outcome) string {
	switch {
	case o.Got != "":
		return o.Got
	case o.Status == harness.StatusMissing:
		return "(missing)"
	default:
		return "(" + string(o.Status) + ")"
	}
}

func statusCell(o *harness.Outcome) string {
	s := string(o.Status)
	if o.Improved {
		s = "improved"
	}
	if o.Status == harness.StatusWrong {
		s = "WRONG " + o.Got
	}
	if len(o.CheckFailures) > 0 {
		s += " (check failed)"
	}
	return s
}

func expectedCell(o *harness.Outcome) string {
	switch {
	case o.Expected == "":
		return "-"
	case o.Expected != o.Final:
		return o.Expected + " (final " + o.Final + ")"
	}
	return o.Expected
}

func corpusTable(runs []*harness.CaseRun) *table {
	t := &table{header: []string{"case", "entry", "constraint", "expected", "got", "time s", "refinements", "predicates", "SMT queries", "status"}}
	for _, r := range runs {
		for i := range r.Outcomes {
			o := &r.Outcomes[i]
			t.add(o.Case, harness.ShortEntry(o.Entry), o.Constraint, expectedCell(o), gotCell(o),
				fmt.Sprintf("%.2f", o.Seconds), fmt.Sprint(o.Refinements), fmt.Sprint(o.Predicates),
				fmt.Sprint(o.SMTQueries), statusCell(o))
		}
	}
	return t
}

func writeTable(w io.Writer, runs []*harness.CaseRun) { corpusTable(runs).text(w) }

// disagreement is one line of the disagreements list.
type disagreement struct {
	o      *harness.Outcome
	reason string
}

func disagreements(runs []*harness.CaseRun) (bad, improved []disagreement, problems []string) {
	for _, r := range runs {
		for _, p := range r.Problems {
			problems = append(problems, r.Case.Name+": "+p)
		}
		for i := range r.Outcomes {
			o := &r.Outcomes[i]
			reason := o.Reason
			if len(o.CheckFailures) > 0 {
				reason = strings.Join(o.CheckFailures, "; ")
			}
			switch {
			case o.Improved && len(o.CheckFailures) == 0:
				improved = append(improved, disagreement{o, reason})
			case o.Status != harness.StatusCorrect || len(o.CheckFailures) > 0:
				bad = append(bad, disagreement{o, reason})
			}
		}
	}
	return bad, improved, problems
}

func writeDisagreements(w io.Writer, runs []*harness.CaseRun, md bool) {
	bad, improved, problems := disagreements(runs)
	list := func(title string, ds []disagreement) {
		if md {
			fmt.Fprintf(w, "%s\n\n", title)
		} else {
			fmt.Fprintln(w, title)
		}
		if len(ds) == 0 {
			if md {
				fmt.Fprintf(w, "None.\n\n")
			} else {
				fmt.Fprintln(w, "  none")
			}
			return
		}
		t := &table{header: []string{"case", "entry", "constraint", "expected", "got", "status", "reason"}}
		for _, d := range ds {
			t.add(d.o.Case, harness.ShortEntry(d.o.Entry), d.o.Constraint, expectedCell(d.o), gotCell(d.o), statusCell(d.o), d.reason)
		}
		t.write(w, md)
		fmt.Fprintln(w)
	}
	h := ""
	if md {
		h = "### "
	}
	list(h+"Disagreements with expect.json", bad)
	list(h+"Improved (decided where expect.json says UNKNOWN today, equal to final)", improved)
	if len(problems) > 0 {
		if md {
			fmt.Fprintf(w, "%sRun problems\n\n", h)
			for _, p := range problems {
				fmt.Fprintf(w, "- %s\n", p)
			}
			fmt.Fprintln(w)
		} else {
			fmt.Fprintln(w, "Run problems")
			for _, p := range problems {
				fmt.Fprintln(w, "  "+p)
			}
			fmt.Fprintln(w)
		}
	}
}

func totalsLines(t harness.Totals) []string {
	lines := []string{
		fmt.Sprintf("cases %d, expectations %d", t.Cases, t.Expectations),
		fmt.Sprintf("correct %d (of which improved %d), wrong %d (wrong SAFE %d, wrong UNSAFE %d), undecided %d, missing %d, unexpected %d, errors %d, check failures %d",
			t.Correct, t.Improved, t.Wrong, t.WrongSafe, t.WrongUnsafe, t.Undecided, t.Missing, t.Unexpected, t.Errors, t.CheckFailures),
		fmt.Sprintf("decided %.1f%% (%d of %d)", t.DecidedPercent(), t.Decided, t.Expectations),
		fmt.Sprintf("score %d (max possible %d, every expectation decided as its final verdict; %d for exactly the verdicts expected today)", t.Score, t.MaxScore, t.MaxScoreToday),
		fmt.Sprintf("time: dbverify %ss wall in total (its own front end %ss)", secs(t.Time), secs(t.ToolFrontend)),
	}
	if t.FrontendRef > 0 {
		lines = append(lines, fmt.Sprintf("reference front end (go/packages + SSA) %ss; dbverify / front end = %.2f×", secs(t.FrontendRef), t.FrontendRatio()))
	}
	verdict := "PASS"
	if t.Failed() {
		verdict = "FAIL"
	}
	return append(lines, "result: "+verdict)
}

func writeTotals(w io.Writer, t harness.Totals, md bool) {
	if !md {
		fmt.Fprintln(w, "Totals")
	}
	for _, l := range totalsLines(t) {
		if md {
			fmt.Fprintf(w, "- %s\n", l)
		} else {
			fmt.Fprintln(w, "  "+l)
		}
	}
}

func pointCell(p harness.ScalingPoint, ok bool, what string, limit time.Duration) string {
	switch {
	case !ok:
		return "-"
	case p.Skipped != "":
		return "—"
	case p.TimedOut:
		switch what {
		case "verify":
			return fmt.Sprintf("timeout (%.0fs)", limit.Seconds())
		case "wall":
			return secs(p.Wall)
		}
		return "-"
	case p.Err != "":
		if what == "verify" {
			return "error"
		}
		return "-"
	}
	var s string
	switch what {
	case "verify":
		s = fmt.Sprintf("%.3f", p.Verify.Seconds())
		if !p.OK {
			s += " (" + p.Verdicts + ")"
		}
	case "wall":
		s = secs(p.Wall)
	case "smt":
		s = fmt.Sprint(p.SMTQueries)
	}
	return s
}

func scalingTable(rep *harness.ScalingReport, study, label string) *table {
	engines := rep.Options.Engines
	t := &table{header: []string{label}}
	if study == harness.StudySequential {
		t.header = append(t.header, "paths 2^N")
	}
	for _, e := range engines {
		t.header = append(t.header, e+" verify s", e+" wall s", e+" SMT")
	}
	for _, e := range engines[min(1, len(engines)):] {
		t.header = append(t.header, e+" / "+engines[0])
	}
	for _, x := range rep.Sizes(study) {
		if allSkipped(rep, study, x) {
			continue // listed in the notes under the table
		}
		row := []string{fmt.Sprint(x)}
		if study == harness.StudySequential {
			if x <= 62 {
				row = append(row, fmt.Sprint(uint64(1)<<uint(x)))
			} else {
				row = append(row, fmt.Sprintf("2^%d", x))
			}
		}
		var pts []harness.ScalingPoint
		var oks []bool
		for _, e := range engines {
			p, ok := rep.Point(study, x, e)
			pts, oks = append(pts, p), append(oks, ok)
			lim := rep.Options.Timeout
			row = append(row, pointCell(p, ok, "verify", lim), pointCell(p, ok, "wall", lim), pointCell(p, ok, "smt", lim))
		}
		for k := 1; k < len(engines); k++ {
			ratio := "-"
			if oks[0] && oks[k] && pts[0].Done() && pts[k].Done() && pts[0].Verify > 0 {
				ratio = fmt.Sprintf("%.1f×", float64(pts[k].Verify)/float64(pts[0].Verify))
			} else if oks[0] && oks[k] && pts[0].Done() && pts[k].TimedOut && pts[0].Verify > 0 {
				ratio = fmt.Sprintf("> %.0f×", float64(rep.Options.Timeout)/float64(pts[0].Verify))
			}
			row = append(row, ratio)
		}
		t.add(row...)
	}
	return t
}

// allSkipped reports whether no engine ran on size x of the study.
func allSkipped(rep *harness.ScalingReport, study string, x int) bool {
	for _, e := range rep.Options.Engines {
		if p, ok := rep.Point(study, x, e); ok && p.Skipped == "" {
			return false
		}
	}
	return true
}

func crossoverLine(rep *harness.ScalingReport) string {
	if n, ok := rep.Crossover(10); ok {
		return fmt.Sprintf("first N where the paths engine's verification time exceeds 10× the fixpoint engine's: N = %d", n)
	}
	s := "the paths engine's verification time never exceeded 10× the fixpoint engine's in the measured range"
	if n, ratio, bound, ok := rep.MaxRatio(); ok {
		if bound {
			s += fmt.Sprintf("; the largest ratio is at N = %d, where paths timed out (> %.0fs): more than %.1f×", n, rep.Options.Timeout.Seconds(), ratio)
		} else {
			s += fmt.Sprintf("; the largest ratio is %.1f× at N = %d", ratio, n)
		}
	}
	return s
}

func skippedNotes(rep *harness.ScalingReport) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range rep.Points {
		var note string
		switch {
		case p.Skipped != "":
			key := p.Engine + "\x00" + p.Study + "\x00" + p.Skipped
			if seen[key] {
				continue
			}
			seen[key] = true
			note = fmt.Sprintf("%s engine: %s = %d and larger not run (%s)", p.Engine, p.Study, p.X, p.Skipped)
		case p.Err != "":
			note = fmt.Sprintf("%s engine, %s = %d: %s", p.Engine, p.Study, p.X, p.Err)
		case p.Done() && !p.OK:
			note = fmt.Sprintf("%s engine, %s = %d: verdicts %s, expected SAFE for every generated entry point", p.Engine, p.Study, p.X, p.Verdicts)
		}
		if note != "" && !seen[note] {
			seen[note] = true
			out = append(out, note)
		}
	}
	return out
}

func writeScaling(w io.Writer, rep *harness.ScalingReport, plotLink string, md bool) {
	h := func(s string) {
		if md {
			fmt.Fprintf(w, "### %s\n\n", s)
		} else {
			fmt.Fprintln(w, s)
		}
	}
	if md {
		var extra []string
		for _, e := range rep.Options.Engines {
			if a := rep.Options.EngineArgs[e]; len(a) > 0 {
				extra = append(extra, fmt.Sprintf("`%s` for %s", strings.Join(a, " "), e))
			}
		}
		if len(extra) > 0 {
			extra[0] = " (plus " + extra[0]
			extra[len(extra)-1] += ")"
		}
		fmt.Fprintf(w, "Synthetic programs from `benchmarks/gen` (constraint `accounts.balance >= 0`, every entry SAFE), "+
			"each run as `dbverify check --format json --engine E --constraint ... ./...`%s with a %.0fs time limit per run. "+
			"*verify s* is dbverify's own time minus its front end (`stats.seconds - stats.frontend_seconds`); *wall s* is the whole process. "+
			"Each engine has its own wall-time budget per study; along a study an engine that timed out or spent its budget is not run on larger sizes (—). "+
			"The growth lines under the tables fit verify time ∝ size^k by least squares on log-log over each engine's decided sizes, and over their larger half.\n\n", strings.Join(extra, ", "), rep.Options.Timeout.Seconds())
	}
	h("Time vs N (N sequential guarded updates in one entry point, 2^N paths)")
	scalingTable(rep, harness.StudySequential, "N").write(w, md)
	fmt.Fprintln(w)
	h("Time vs M (M guarded-withdraw entry points)")
	scalingTable(rep, harness.StudyEntries, "M").write(w, md)
	fmt.Fprintln(w)
	h("Time vs D (guarded update in D nested loops)")
	scalingTable(rep, harness.StudyLoops, "D").write(w, md)
	fmt.Fprintln(w)
	if md {
		fmt.Fprintf(w, "- %s\n", crossoverLine(rep))
		for _, n := range skippedNotes(rep) {
			fmt.Fprintf(w, "- %s\n", n)
		}
		for _, g := range fitGrowth(rep) {
			fmt.Fprintf(w, "- %s\n", g)
		}
		fmt.Fprintf(w, "- scaling study took %ss\n", secs(rep.Elapsed))
		if plotLink != "" {
			fmt.Fprintf(w, "\n![verification time vs N and M, log scale](%s)\n\nPlot: [%s](%s)\n", plotLink, plotLink, plotLink)
		}
	} else {
		fmt.Fprintln(w, crossoverLine(rep))
		for _, n := range skippedNotes(rep) {
			fmt.Fprintln(w, n)
		}
		for _, g := range fitGrowth(rep) {
			fmt.Fprintln(w, g)
		}
		fmt.Fprintf(w, "scaling study took %ss\n", secs(rep.Elapsed))
	}
}

// machine describes where the benchmark ran.
type machine struct {
	uname, cpu, goVersion, z3 string
	cores                     int
}

func collectMachine(bin string) (machine, error) {
	m := machine{cores: runtime.NumCPU()}
	var errs []string
	out := func(name string, args ...string) string {
		b, err := exec.Command(name, args...).Output()
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: %v", name, err))
			return "unknown"
		}
		return strings.TrimSpace(string(b))
	}
	m.uname = out("uname", "-srm")
	m.goVersion = out("go", "env", "GOVERSION")
	m.z3 = strings.Join(strings.Fields(out("dpkg-query", "-W", "libz3-dev")), " ")
	m.cpu = "unknown"
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				m.cpu = strings.TrimSpace(v)
				break
			}
		}
		f.Close()
	} else {
		errs = append(errs, err.Error())
	}
	if len(errs) > 0 {
		return m, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return m, nil
}

type resultsDoc struct {
	date     time.Time
	machine  machine
	cfg      config
	runs     []*harness.CaseRun
	totals   harness.Totals
	scaling  *harness.ScalingReport
	plotLink string
	elapsed  time.Duration
	cross    *crosscheck.Report
	compared []engineRuns // the corpus with each engine, when -compare is given
}

func resultsMarkdown(d resultsDoc) string {
	var b strings.Builder
	w := &b
	fmt.Fprintf(w, "# dbverify benchmark results\n\n")
	fmt.Fprintf(w, "Generated by `go run ./benchmarks/cmd/bench` (`make bench`) on %s; the whole run took %ss.\n\n",
		d.date.Format("2006-01-02 15:04 MST"), secs(d.elapsed))
	fmt.Fprintf(w, "## Machine\n\n")
	fmt.Fprintf(w, "- system: `%s`\n", d.machine.uname)
	fmt.Fprintf(w, "- CPU: %s, %d cores\n", d.machine.cpu, d.machine.cores)
	fmt.Fprintf(w, "- Go: %s\n", d.machine.goVersion)
	fmt.Fprintf(w, "- Z3: `%s`\n", d.machine.z3)
	engine := d.cfg.engine
	if engine == "" {
		engine = "the tool's default"
	}
	fmt.Fprintf(w, "- corpus engine: %s; time limit per case %s\n", engine, d.cfg.timeout)
	if d.cfg.filter != "" {
		fmt.Fprintf(w, "- cases filtered by `%s`\n", d.cfg.filter)
	}
	fmt.Fprintf(w, "\n## Corpus\n\n")
	fmt.Fprintf(w, "Each case runs as `dbverify check --format json <args from expect.json> ./...` in its directory. "+
		"Scoring (SV-COMP style): +2 correct SAFE, +1 correct UNSAFE, 0 UNKNOWN, −32 SAFE where UNSAFE is right, −16 UNSAFE where SAFE is right; "+
		"a SAFE/UNSAFE where expect.json says UNKNOWN today is graded against `final` (*improved* when equal). "+
		"*time s* is the result's own time (without the front end). "+
		"The reference front end loads each case with go/packages in LoadAllSyntax mode (syntax and types of every dependency, "+
		"the standard library included) and builds SSA for the whole program, in the bench process; "+
		"dbverify may load dependencies from export data, so its total can be below the reference's.\n\n")
	fmt.Fprintf(w, "### Totals\n\n")
	writeTotals(w, d.totals, true)
	fmt.Fprintln(w)
	writeDisagreements(w, d.runs, true)
	if len(d.compared) > 1 {
		fmt.Fprintf(w, "### Engines side by side\n\n")
		fmt.Fprintf(w, "The corpus run again with `--engine %s`, in the same bench run. *p50/p90/p99/max s* are per (entry, constraint), the result's own time without the front end; "+
			"*one-block results* are those the lbe engine decided with one formula (a loop-free error cone), the others it leaves to fixpoint.\n\n", d.compared[1].engine)
		writeComparison(w, d.compared, true)
	}
	writeConcurrency(w, d.runs, true)
	fmt.Fprintf(w, "### All results\n\n")
	corpusTable(d.runs).markdown(w)
	fmt.Fprintln(w)
	fmt.Fprintf(w, "## Cross-check by execution\n\n")
	if d.cross == nil {
		fmt.Fprintf(w, "Not run (`-crosscheck-runs=0`).\n\n")
	} else {
		fmt.Fprintf(w, "Every entry is called on a real database of its dialect (SQLite 3 embedded, PostgreSQL 15, MariaDB 10.11; package `benchmarks/crosscheck`): "+
			"a SAFE gets %d random runs from states satisfying the constraint, an UNSAFE replays its counterexample "+
			"(with the rows its trace's writes matched without listing them, seeded from the statements' bound arguments), "+
			"and the constraint is checked at every commit point and after the call.\n\n", d.cfg.crossRuns)
		d.cross.Markdown(w)
	}
	fmt.Fprintf(w, "## Scaling\n\n")
	if d.scaling == nil {
		fmt.Fprintf(w, "Not run (`-scaling=false`).\n")
	} else {
		writeScaling(w, d.scaling, d.plotLink, true)
	}
	return b.String()
}
