package report

import (
	"fmt"
	"io"
	"strings"
)

// laneWidth is the column of the second request's lane in the text
// output of a concurrent counterexample.
const laneWidth = 64

// writeConcurrency writes how a concurrent verdict was reached, and for
// a counterexample of two requests the requests and their database
// operations in two lanes, in the order executed.
func writeConcurrency(w io.Writer, r *Result) {
	if r.Concurrency == nil {
		return
	}
	line := "  concurrent: " + r.Concurrency.Scope
	if len(r.Labels) > 0 {
		line += " [" + strings.Join(r.Labels, ", ") + "]"
	}
	if r.Isolation != nil {
		line += fmt.Sprintf("; isolation %s (%s)", r.Isolation.Level, r.Isolation.Source)
	}
	fmt.Fprintln(w, line)
	if r.Concurrency.StabilityFailed != "" {
		fmt.Fprintf(w, "  not proved for any number of requests: %s\n", r.Concurrency.StabilityFailed)
	}
	if len(r.Requests) == 0 {
		return
	}
	for _, q := range r.Requests {
		var ins []string
		for _, in := range q.Inputs {
			ins = append(ins, in.Name+" = "+in.Value)
		}
		fmt.Fprintf(w, "  request %s: %s(%s)\n", q.Request, q.Entry, strings.Join(ins, ", "))
	}
	for _, row := range r.InitialRows {
		fmt.Fprintf(w, "  initial row %s: %s\n", row.Table, JoinValues(row.Values))
	}
	fmt.Fprintln(w, "  schedule:")
	for _, s := range r.Schedule {
		text := fmt.Sprintf("%s%d %s %s", s.Request, s.Step, s.Pos, s.SQL)
		if len(s.Args) > 0 {
			text += " [" + strings.Join(s.Args, ", ") + "]"
		}
		pad := ""
		if s.Request != "A" {
			pad = strings.Repeat(" ", laneWidth)
		}
		fmt.Fprintf(w, "    %s%s\n", pad, text)
	}
}
