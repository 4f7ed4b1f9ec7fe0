package report

import (
	"fmt"
	"io"
	"strings"
)

// laneWidth is the column of the second request's lane in the text
// output of a concurrent counterexample; laneWidth3 the width of each
// lane when there are three requests.
const (
	laneWidth  = 64
	laneWidth3 = 48
)

// laneOf is the lane of request "A", "B", "C"…: 0, 1, 2….
func laneOf(request string) int {
	if len(request) != 1 || request[0] < 'A' || request[0] > 'Z' {
		return 0
	}
	return int(request[0] - 'A')
}

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
	switch {
	case r.Concurrency.StabilityFailed == "":
	case r.Concurrency.Scope == ScopeSerializable:
		fmt.Fprintf(w, "  (the stability check alone did not prove it: %s)\n", r.Concurrency.StabilityFailed)
	default:
		fmt.Fprintf(w, "  not proved for any number of requests: %s\n", r.Concurrency.StabilityFailed)
	}
	if len(r.Requests) == 0 {
		return
	}
	for _, q := range r.Requests {
		ins, covered := requestHTTP(r.Counterexample, q.Request)
		for _, in := range q.Inputs {
			if !covered[in.Name] {
				ins = append(ins, in.Name+" = "+in.Value)
			}
		}
		fmt.Fprintf(w, "  request %s: %s(%s)\n", q.Request, q.Entry, strings.Join(ins, ", "))
	}
	for _, row := range r.InitialRows {
		fmt.Fprintf(w, "  initial row %s: %s\n", row.Table, JoinValues(row.Values))
	}
	fmt.Fprintln(w, "  schedule:")
	width := laneWidth
	if len(r.Requests) > 2 {
		width = laneWidth3
	}
	for _, s := range r.Schedule {
		text := fmt.Sprintf("%s%d %s %s", s.Request, s.Step, s.Pos, s.SQL)
		if s.Bound != "" {
			text = fmt.Sprintf("%s%d %s %s", s.Request, s.Step, s.Pos, s.Bound) // as the database ran it
		} else if len(s.Args) > 0 {
			text += " [" + strings.Join(s.Args, ", ") + "]"
		}
		if s.Deadlock {
			text += "  → fails: deadlock victim"
		}
		pad := strings.Repeat(" ", laneOf(s.Request)*width)
		fmt.Fprintf(w, "    %s%s\n", pad, text)
	}
}

// requestHTTP lists the HTTP inputs request req sends, as a developer
// sends them, and the names of the request's inputs they stand for.
func requestHTTP(c *Counterexample, req string) ([]string, map[string]bool) {
	covered := map[string]bool{}
	if c == nil {
		return nil, covered
	}
	var out []string
	for _, h := range c.HTTP {
		if h.Request != req {
			continue
		}
		h.Request = ""
		out = append(out, h.String())
		for _, v := range h.Vars {
			covered[strings.TrimPrefix(v, req+".")] = true
		}
	}
	return out, covered
}
