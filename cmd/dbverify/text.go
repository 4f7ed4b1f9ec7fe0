package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/dbverify/dbverify/pipeline"
	"github.com/dbverify/dbverify/refine"
	"github.com/dbverify/dbverify/vcgen"
)

// textOptions choose how much the text output says.
type textOptions struct {
	verbose bool // list the predicates of SAFE results
	quiet   bool // only the results that need attention, and the summary
}

// writeText prints one block per result, headed by a line an editor can
// jump from ("file:line: VERDICT entry [constraint]"), with the
// counterexample, the proof or the reason underneath, then the coverage
// of the constrained tables' writers and a summary line.
func writeText(w io.Writer, rep *pipeline.Report, opt textOptions) {
	j := toJSON(rep)
	for _, r := range rep.Results {
		if opt.quiet && (r.Verdict == refine.Safe || r.Suppressed != "" || r.InBaseline) {
			continue
		}
		pos := r.Position
		if pos == "" || r.Verdict == refine.Safe {
			pos = r.EntryPosition
		}
		if pos != "" {
			fmt.Fprintf(w, "%s: ", pos)
		}
		fmt.Fprintf(w, "%s %s [%s]\n", r.Verdict, r.Entry, r.Constraint)
		if r.Suppressed != "" {
			fmt.Fprintf(w, "  suppressed by //dbverify:ignore: %s\n", r.Suppressed)
		}
		if r.InBaseline {
			fmt.Fprintln(w, "  in the baseline: an accepted finding, it does not fail the run")
		}
		for _, a := range r.Assumptions {
			fmt.Fprintf(w, "  assuming %s\n", a)
		}
		switch r.Verdict {
		case refine.Safe:
			writeProof(w, r, opt.verbose)
		case refine.Unsafe:
			if r.Trace != nil && r.Trace.Trace != nil {
				writeTrace(w, r.Trace.Trace)
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
	writeCoverage(w, rep, opt.quiet)
	if rep.Dialect != "" {
		fmt.Fprintf(w, "SQL read as %s (%s)\n", rep.Dialect, rep.DialectSource)
	}
	s := j.Stats
	extra := ""
	if n := countResults(rep, func(r *pipeline.Result) bool { return r.Suppressed != "" }); n > 0 {
		extra = fmt.Sprintf(", %d suppressed", n)
	}
	if n := countResults(rep, func(r *pipeline.Result) bool { return r.InBaseline }); n > 0 {
		extra += fmt.Sprintf(", %d in the baseline", n)
	}
	if n := countResults(rep, func(r *pipeline.Result) bool { return r.Cached }); n > 0 {
		extra += fmt.Sprintf(", %d from the cache", n)
	}
	fmt.Fprintf(w, "%d result(s) for %d entry point(s): %d safe, %d unsafe, %d unknown%s (%d SMT queries, %.2fs)\n",
		len(rep.Results), s.Entries, s.Safe, s.Unsafe, s.Unknown, extra, s.SMTQueries, s.Seconds)
}

// writeProof says how a SAFE result was proved: the predicates of the
// invariant under -v, else their number.
func writeProof(w io.Writer, r *pipeline.Result, verbose bool) {
	if r.Trace != nil && r.Trace.Proof != "" && len(r.Predicates) == 0 {
		fmt.Fprintf(w, "  proved: %s\n", r.Trace.Proof)
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

// writeCoverage prints which verified entries run each function that
// writes a constrained table (with quiet, only the writers no entry
// runs), then the warnings.
func writeCoverage(w io.Writer, rep *pipeline.Report, quiet bool) {
	if len(rep.Coverage) > 0 && !quiet {
		fmt.Fprintf(w, "coverage: %d function(s) write a constrained table:\n", len(rep.Coverage))
	}
	if len(rep.Coverage) > 0 {
		for _, c := range rep.Coverage {
			if quiet && (c.Added || len(c.Entries) > 0) {
				continue
			}
			runs := "run by " + strings.Join(c.Entries, ", ")
			switch {
			case c.Added:
				runs = "verified as an entry of its own"
			case len(c.Entries) == 0:
				runs = "NOT RUN by any verified entry"
			}
			fmt.Fprintf(w, "  %s (%s) writes %s: %s\n", c.Writer, c.Position, strings.Join(c.Tables, ", "), runs)
		}
	}
	for _, m := range rep.Warnings {
		fmt.Fprintf(w, "warning: %s\n", m)
	}
}

func writeTrace(w io.Writer, t *vcgen.Trace) {
	var ins []string
	for _, in := range t.Inputs {
		ins = append(ins, in.Name+" = "+in.Value)
	}
	if len(ins) == 0 {
		ins = []string{"(none the path depends on)"}
	}
	fmt.Fprintf(w, "  inputs:    %s\n", strings.Join(ins, ", "))
	for _, r := range t.Rows {
		fmt.Fprintf(w, "  row %-5s %s: %s\n", r.Symbol, r.Table, kv(r.Values))
	}
	fmt.Fprintln(w, "  steps:")
	for _, s := range t.Steps {
		line := fmt.Sprintf("    %-22s %-6s %s", s.Position, s.Kind, s.Text)
		if len(s.Values) > 0 {
			line += "   ⇒ " + kv(s.Values)
		}
		fmt.Fprintln(w, line)
	}
	fmt.Fprintf(w, "  violation: %s row %s\n", t.Violation.Table, kv(t.Violation.Values))
}

func kv(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + " = " + m[k]
	}
	return strings.Join(parts, ", ")
}

func indent(s, pre string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = pre + l
	}
	return strings.Join(lines, "\n") + "\n"
}

func countResults(rep *pipeline.Report, f func(*pipeline.Result) bool) int {
	n := 0
	for _, r := range rep.Results {
		if f(r) {
			n++
		}
	}
	return n
}
