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

// writeText prints one line per result, with the counterexample, the
// proving predicates or the reason underneath, then a summary line.
func writeText(w io.Writer, rep *pipeline.Report, cfg pipeline.Config) {
	j := toJSON(rep)
	for _, r := range rep.Results {
		fmt.Fprintf(w, "%-7s %s  [%s]", r.Verdict, r.Entry, r.Constraint)
		if r.Position != "" {
			fmt.Fprintf(w, "  %s", r.Position)
		}
		fmt.Fprintln(w)
		if r.Suppressed != "" {
			fmt.Fprintf(w, "  suppressed by //dbverify:ignore: %s\n", r.Suppressed)
		}
		for _, a := range r.Assumptions {
			fmt.Fprintf(w, "  assuming %s\n", a)
		}
		switch r.Verdict {
		case refine.Safe:
			fmt.Fprintf(w, "  proved after %d refinement(s) with predicates:\n", r.Refinements)
			for _, p := range r.Predicates {
				fmt.Fprintf(w, "    %s\n", p)
			}
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
	writeCoverage(w, rep)
	s := j.Stats
	suppressed := ""
	if n := countSuppressed(rep); n > 0 {
		suppressed = fmt.Sprintf(", %d suppressed", n)
	}
	if n := countCached(rep); n > 0 {
		suppressed += fmt.Sprintf(", %d from the cache", n)
	}
	fmt.Fprintf(w, "%d result(s) for %d entry point(s): %d safe, %d unsafe, %d unknown%s (%d SMT queries, %.2fs)\n",
		len(rep.Results), s.Entries, s.Safe, s.Unsafe, s.Unknown, suppressed, s.SMTQueries, s.Seconds)
}

// writeCoverage prints which verified entries run each function that
// writes a constrained table, then the warnings.
func writeCoverage(w io.Writer, rep *pipeline.Report) {
	if len(rep.Coverage) > 0 {
		fmt.Fprintf(w, "coverage: %d function(s) write a constrained table:\n", len(rep.Coverage))
		for _, c := range rep.Coverage {
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

func countSuppressed(rep *pipeline.Report) int {
	n := 0
	for _, r := range rep.Results {
		if r.Suppressed != "" {
			n++
		}
	}
	return n
}

func countCached(rep *pipeline.Report) int {
	n := 0
	for _, r := range rep.Results {
		if r.Cached {
			n++
		}
	}
	return n
}
