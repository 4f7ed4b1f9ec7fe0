package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/dbverify/dbverify/ir"
)

// WriteText writes one block per result, headed by a line an editor can
// jump from ("file:line: VERDICT entry [constraint]"), with the
// counterexample, the proof or the reason underneath, then the coverage
// of the constrained tables' writers and a summary line. With o.Quiet it
// leaves out what needs no attention; with o.Verbose it lists the
// predicates of SAFE results, and with both it names the findings quiet
// leaves out (in the baseline, suppressed), one line each.
func WriteText(w io.Writer, rep *Report, o Options) error {
	ew := &errWriter{w: w}
	for _, r := range rep.Results {
		if o.Quiet && (r.Verdict == Safe || r.Suppressed != "" || r.InBaseline) {
			if o.Verbose && r.Verdict != Safe {
				writeAccepted(ew, r)
			}
			continue
		}
		writeResult(ew, r, o.Verbose)
	}
	writeCoverage(ew, rep, o.Quiet)
	if rep.Dialect != nil && rep.Dialect.Name != "" {
		fmt.Fprintf(ew, "SQL read as %s (%s)\n", rep.Dialect.Name, rep.Dialect.Source)
	}
	writeSummary(ew, rep)
	return ew.err
}

// writeResult writes one result's block.
func writeResult(w io.Writer, r *Result, verbose bool) {
	pos := r.Position
	if pos == "" || r.Verdict == Safe {
		pos = r.EntryPosition
	}
	if pos != "" {
		fmt.Fprintf(w, "%s: ", pos)
	}
	fmt.Fprintf(w, "%s %s [%s]", r.Verdict, r.Entry, r.Constraint)
	if d := r.DatabaseCheck; d != nil && r.Verdict == Unsafe {
		fmt.Fprintf(w, " (%s)", d.Headline())
	}
	fmt.Fprintln(w)
	if r.Suppressed != "" {
		fmt.Fprintf(w, "  suppressed by //dbverify:ignore: %s\n", r.Suppressed)
	}
	if r.InBaseline {
		fmt.Fprintln(w, "  in the baseline: an accepted finding, it does not fail the run")
	}
	for _, a := range r.Assumptions {
		fmt.Fprintf(w, "  assuming %s\n", a)
	}
	writeConcurrency(w, r)
	switch r.Verdict {
	case Safe:
		writeProof(w, r, verbose)
	case Unsafe:
		if d := r.DatabaseCheck; d != nil {
			fmt.Fprintf(w, "  database:  %s\n", d.Sentence())
		}
		if r.Counterexample != nil {
			writeCounterexample(w, r.Counterexample, r.Requests, verbose)
		}
	default:
		fmt.Fprintf(w, "  reason: %s\n", r.Reason)
	}
	if r.IR != "" {
		fmt.Fprintf(w, "  lowered IR:\n%s", indent(r.IR, "    "))
	}
	if r.BoolProg != "" {
		fmt.Fprintf(w, "  boolean program:\n%s", indent(r.BoolProg, "    "))
	}
}

// writeAccepted writes the one line of a finding quiet leaves out, with
// verbose: accepted in the baseline, or suppressed (the summary counts
// them; before, -q -v did not say which they were).
func writeAccepted(w io.Writer, r *Result) {
	pos := r.Position
	if pos == "" {
		pos = r.EntryPosition
	}
	if pos != "" {
		fmt.Fprintf(w, "%s: ", pos)
	}
	why := "in the baseline"
	if r.Suppressed != "" {
		why = "suppressed by //dbverify:ignore: " + r.Suppressed
	}
	fmt.Fprintf(w, "%s %s [%s] (%s)\n", r.Verdict, r.Entry, r.Constraint, why)
}

// writeSummary writes the last line: the verdict counts and the work.
func writeSummary(w io.Writer, rep *Report) {
	s := rep.Stats
	extra := ""
	if n := rep.Count(func(r *Result) bool { return r.Suppressed != "" }); n > 0 {
		extra = fmt.Sprintf(", %d suppressed", n)
	}
	if n := rep.Count(func(r *Result) bool { return r.InBaseline }); n > 0 {
		extra += fmt.Sprintf(", %d in the baseline", n)
	}
	if n := rep.Count(func(r *Result) bool { return r.Cached }); n > 0 {
		extra += fmt.Sprintf(", %d from the cache", n)
	}
	restarts := ""
	if s.SolverRestarts > 0 {
		restarts = fmt.Sprintf(", %d restarted after a time-out", s.SolverRestarts)
	}
	fmt.Fprintf(w, "%d result(s) for %d entry point(s): %d safe, %d unsafe, %d unknown%s (%d SMT queries%s, %.2fs)\n",
		len(rep.Results), s.Entries, s.Safe, s.Unsafe, s.Unknown, extra, s.SMTQueries, restarts, s.Seconds)
}

// writeProof says how a SAFE result was proved: the predicates of the
// invariant when verbose, else their number.
func writeProof(w io.Writer, r *Result, verbose bool) {
	if r.Proof != "" && len(r.Predicates) == 0 {
		fmt.Fprintf(w, "  proved: %s\n", r.Proof)
		return
	}
	if !verbose {
		fmt.Fprintf(w, "  proved after %d refinement(s) with %d predicate(s) (-v lists them)\n", r.Refinements, len(r.Predicates))
		return
	}
	fmt.Fprintf(w, "  proved after %d refinement(s) with predicates:\n", r.Refinements)
	for _, p := range r.Predicates {
		fmt.Fprintf(w, "    %s\n", p)
	}
}

// writeCoverage writes which verified entries run each function that
// writes a constrained table (with quiet, only the writers no entry
// runs), then the warnings.
func writeCoverage(w io.Writer, rep *Report, quiet bool) {
	if len(rep.Coverage) > 0 && !quiet {
		fmt.Fprintf(w, "coverage: %d function(s) write a constrained table:\n", len(rep.Coverage))
	}
	for _, c := range rep.Coverage {
		if quiet && (c.Added || c.Generated || c.CallerSites > 0 || len(c.Entries) > 0) {
			continue
		}
		runs := "run by " + strings.Join(c.Entries, ", ")
		switch {
		case c.CallerSites > 0:
			runs = fmt.Sprintf("SQL text comes from the caller: checked at the %d call site(s)", c.CallerSites)
			if len(c.Entries) > 0 {
				runs += ", run by " + strings.Join(c.Entries, ", ")
			}
		case c.Generated:
			runs = "generated, not called: not checked (--check-generated to check)"
		case c.Added:
			runs = "verified as an entry of its own"
		case len(c.Entries) == 0:
			runs = "NOT RUN by any verified entry"
		}
		fmt.Fprintf(w, "  %s (%s) writes %s: %s\n", c.Writer, c.Position, strings.Join(c.Tables, ", "), runs)
	}
	for _, m := range rep.Warnings {
		fmt.Fprintf(w, "warning: %s\n", m)
	}
	for _, f := range rep.Findings {
		fmt.Fprintf(w, "%s: warning[%s]: %s\n", f.Position, f.Class, f.Message)
	}
}

// writeCounterexample writes the inputs, the initial rows, the steps and
// the violating row. requests are the requests whose inputs a concurrent
// result's request lines printed already: the inputs line lists only
// the inputs none of them shows, if any.
func writeCounterexample(w io.Writer, c *Counterexample, requests []Request, verbose bool) {
	ins := c.ShownInputs()
	if len(requests) > 0 {
		ins = c.inputsBeside(requests)
	}
	if len(ins) > 0 || len(requests) == 0 {
		if len(ins) == 0 {
			ins = []string{"(none the path depends on)"}
		}
		fmt.Fprintf(w, "  inputs:    %s\n", strings.Join(ins, ", "))
	}
	if outs := c.ShownOutside(); len(outs) > 0 {
		fmt.Fprintf(w, "  outside:   %s (results of calls outside the analysed code)\n", strings.Join(outs, ", "))
	}
	for _, r := range c.Rows {
		fmt.Fprintf(w, "  row %-5s %s: %s\n", r.Symbol, r.Table, JoinValues(r.Values))
	}
	for _, n := range c.Notes {
		fmt.Fprintf(w, "  note:      %s\n", n)
	}
	fmt.Fprintln(w, "  steps:")
	steps := c.ShownSteps()
	if verbose {
		steps = c.VerboseSteps()
	}
	width := positionWidth(steps) // one column within the result
	for _, s := range steps {
		text := s.Statement() // a SQL statement as the database ran it
		line := fmt.Sprintf("    %-*s %-6s %s", width, s.Position, s.Kind, text)
		if s.Request != "" {
			line = fmt.Sprintf("    %s %-*s %-6s %s", s.Request, width, s.Position, s.Kind, text)
		}
		if s.Outcome != "" {
			line += "   → " + s.Outcome
		}
		if values := shownStepValues(s); len(values) > 0 {
			line += "   ⇒ " + c.StepValues(values)
		}
		if s.NoRows {
			line += " (no row)"
		}
		fmt.Fprintln(w, line)
		if s.Note != "" {
			fmt.Fprintf(w, "    %s%-*s note   %s\n", strings.Repeat(" ", len(s.Request)+min(len(s.Request), 1)), width, "", s.Note)
		}
	}
	if v := c.Violation; v != nil {
		fmt.Fprintf(w, "  violation: %s row %s\n", v.Table, JoinValues(v.Values))
	}
}

func indent(s, pre string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = pre + l
	}
	return strings.Join(lines, "\n") + "\n"
}

// errWriter keeps the first error of a sequence of writes; the later
// writes do nothing.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

// shownStepValues are a step's values as the text report lists them: the
// values a concurrent request's statement binds (A.arg1) are left out
// where the step prints its SQL with them.
func shownStepValues(s Step) map[string]string {
	if s.SQL == "" || s.Request == "" {
		return s.Values
	}
	out := make(map[string]string, len(s.Values))
	for k, v := range s.Values {
		if rest, ok := strings.CutPrefix(k, s.Request+".arg"); ok && ir.IsDigits(rest) {
			continue
		}
		out[k] = v
	}
	return out
}
