package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/dbverify/dbverify/benchmarks/harness"
)

// engineRuns is the corpus run with one engine.
type engineRuns struct {
	engine string
	runs   []*harness.CaseRun
}

// engineSummary is one engine's work over the corpus.
type engineSummary struct {
	engine           string
	totals           harness.Totals
	results          int
	queries          int
	seconds          float64
	p50, p90, p99    float64 // seconds per (entry, constraint)
	max              float64
	loopFree         int // results the lbe engine decided as one block (engine exactly "lbe")
	loopFreeQueries  int
	loopFreeMaxQuery int
}

func summarize(e engineRuns) engineSummary {
	s := engineSummary{engine: e.engine, totals: harness.Score(e.runs)}
	var times []float64
	for _, r := range e.runs {
		for i := range r.Outcomes {
			o := &r.Outcomes[i]
			if o.Got == "" {
				continue
			}
			s.results++
			s.queries += o.SMTQueries
			s.seconds += o.Seconds
			times = append(times, o.Seconds)
			if o.Engine == harness.EngineLBE {
				s.loopFree++
				s.loopFreeQueries += o.SMTQueries
				s.loopFreeMaxQuery = max(s.loopFreeMaxQuery, o.SMTQueries)
			}
		}
	}
	sort.Float64s(times)
	s.p50, s.p90, s.p99 = quantile(times, 0.5), quantile(times, 0.9), quantile(times, 0.99)
	if len(times) > 0 {
		s.max = times[len(times)-1]
	}
	return s
}

// writeResultTimes prints the time per (entry, constraint) of runs.
func writeResultTimes(w io.Writer, runs []*harness.CaseRun) {
	s := summarize(engineRuns{runs: runs})
	fmt.Fprintf(w, "  per (entry, constraint), without the front end: p50 %.3fs, p90 %.3fs, p99 %.3fs, max %.2fs over %d results (%d SMT queries)\n",
		s.p50, s.p90, s.p99, s.max, s.results, s.queries)
}

// quantile is the nearest-rank q-quantile of sorted xs (0 if empty).
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	i := int(q*float64(len(xs))+0.999999) - 1
	return xs[min(max(i, 0), len(xs)-1)]
}

// engineDisagreements lists the (case, entry, constraint) where two
// engines' verdicts differ: both decided and different (a bug in one of
// them), or one decided and the other not.
func engineDisagreements(a, b engineRuns) (conflicts, decidedByOne []string) {
	type key struct{ c, e, k string }
	got := map[key]*harness.Outcome{}
	for _, r := range b.runs {
		for i := range r.Outcomes {
			o := &r.Outcomes[i]
			got[key{o.Case, o.Entry, o.Constraint}] = o
		}
	}
	for _, r := range a.runs {
		for i := range r.Outcomes {
			o := &r.Outcomes[i]
			p, ok := got[key{o.Case, o.Entry, o.Constraint}]
			if !ok || o.Got == p.Got {
				continue
			}
			line := fmt.Sprintf("%s %s [%s]: %s %s, %s %s", o.Case, shortEntry(o.Entry), o.Constraint, a.engine, verdictWhy(o), b.engine, verdictWhy(p))
			if o.Decided() && p.Decided() {
				conflicts = append(conflicts, line)
			} else {
				decidedByOne = append(decidedByOne, line)
			}
		}
	}
	return conflicts, decidedByOne
}

func verdictWhy(o *harness.Outcome) string {
	if o.Got == "" {
		return "no result (" + o.Reason + ")"
	}
	if o.Got == harness.Unknown && o.Reason != "" {
		return "UNKNOWN (" + o.Reason + ")"
	}
	return o.Got
}

func shortEntry(e string) string {
	if i := strings.LastIndexByte(e, '/'); i >= 0 {
		return e[i+1:]
	}
	return e
}

// writeComparison writes the engines side by side and their disagreements.
func writeComparison(w io.Writer, all []engineRuns, md bool) {
	t := &table{header: []string{"engine", "correct", "wrong", "undecided", "results", "SMT queries", "verify s", "p50 s", "p90 s", "p99 s", "max s", "one-block results", "their SMT queries (max)"}}
	for _, e := range all {
		s := summarize(e)
		t.add(s.engine, fmt.Sprint(s.totals.Correct), fmt.Sprint(s.totals.Wrong), fmt.Sprint(s.totals.Undecided),
			fmt.Sprint(s.results), fmt.Sprint(s.queries), fmt.Sprintf("%.2f", s.seconds),
			fmt.Sprintf("%.3f", s.p50), fmt.Sprintf("%.3f", s.p90), fmt.Sprintf("%.3f", s.p99), fmt.Sprintf("%.2f", s.max),
			fmt.Sprint(s.loopFree), fmt.Sprintf("%d (%d)", s.loopFreeQueries, s.loopFreeMaxQuery))
	}
	t.write(w, md)
	fmt.Fprintln(w)
	for i := 1; i < len(all); i++ {
		conflicts, one := engineDisagreements(all[0], all[i])
		fmt.Fprintf(w, "%s vs %s: %d conflicting decided verdicts, %d decided by one engine only\n", all[0].engine, all[i].engine, len(conflicts), len(one))
		if md {
			fmt.Fprintln(w)
		}
		for _, l := range conflicts {
			fmt.Fprintf(w, "- CONFLICT %s\n", l)
		}
		for _, l := range one {
			fmt.Fprintf(w, "- %s\n", l)
		}
		if md {
			fmt.Fprintln(w)
		}
	}
}
