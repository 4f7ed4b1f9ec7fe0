package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/dbverify/dbverify/benchmarks/harness"
)

// concurrentRow is one result of check --concurrent that searched pairs
// of requests.
type concurrentRow struct {
	name, entry, verdict, scope string
	pairs, plans                int
	reduced, unreduced          uint64
	seconds                     float64
}

// concurrentRows lists the results of the runs that searched pairs of
// requests (the stability check did not prove them), in case order.
func concurrentRows(runs []*harness.CaseRun) []concurrentRow {
	var rows []concurrentRow
	for _, r := range runs {
		if r.Report == nil {
			continue
		}
		for _, res := range r.Report.Results {
			c := res.Concurrency
			if c == nil || c.PairsSearched == 0 {
				continue
			}
			rows = append(rows, concurrentRow{name: r.Case.Name, entry: harness.ShortEntry(res.Entry), verdict: string(res.Verdict), scope: c.Scope,
				pairs: c.PairsSearched, plans: c.SchedulePlans, reduced: c.Interleavings, unreduced: c.InterleavingsUnreduced, seconds: res.Seconds})
		}
	}
	return rows
}

func ratio(unreduced, reduced uint64) float64 {
	if reduced == 0 {
		return 0
	}
	return float64(unreduced) / float64(reduced)
}

// concurrencyTable has one row per searched result: the interleavings of
// its pairs' products with and without the partial-order reduction, and
// the time per pair.
func concurrencyTable(rows []concurrentRow) *table {
	t := &table{header: []string{"case", "entry", "verdict", "scope", "pairs", "interleavings", "unreduced", "reduction ×", "plans", "s", "s/pair"}}
	for _, r := range rows {
		t.add(r.name, r.entry, r.verdict, r.scope, fmt.Sprint(r.pairs), fmt.Sprint(r.reduced), fmt.Sprint(r.unreduced),
			fmt.Sprintf("%.1f", ratio(r.unreduced, r.reduced)), fmt.Sprint(r.plans),
			fmt.Sprintf("%.2f", r.seconds), fmt.Sprintf("%.2f", r.seconds/float64(r.pairs)))
	}
	return t
}

// concurrencySummary sums up the searched results: how many, the median
// reduction and the median time per pair.
func concurrencySummary(rows []concurrentRow) string {
	if len(rows) == 0 {
		return "no result searched pairs of requests (none run with --concurrent, or every one proved by the stability check)"
	}
	var ratios, perPair []float64
	over20 := []string{}
	for _, r := range rows {
		q := ratio(r.unreduced, r.reduced)
		ratios = append(ratios, q)
		perPair = append(perPair, r.seconds/float64(r.pairs))
		if q >= 20 {
			over20 = append(over20, fmt.Sprintf("%s (%.0f×)", r.name, q))
		}
	}
	return fmt.Sprintf("%d results searched pairs of requests; interleavings reduced by %.1f× (median), %.1f× at most; %d at least 20×: %s; median %.2f s per pair",
		len(rows), median(ratios), maxOf(ratios), len(over20), strings.Join(over20, ", "), median(perPair))
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func maxOf(xs []float64) float64 {
	m := 0.0
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

// writeConcurrency writes the searched results' table and summary.
func writeConcurrency(w io.Writer, runs []*harness.CaseRun, md bool) {
	rows := concurrentRows(runs)
	if md {
		fmt.Fprintf(w, "### Concurrent requests: partial-order reduction\n\n")
		fmt.Fprintf(w, "Results of `check --concurrent` whose entry the stability check did not prove: the pairs of requests searched, "+
			"the interleavings of their products with and without the partial-order reduction (`concurrency.interleavings`, "+
			"`interleavings_unreduced`: executions of the product's control graph, see docs/concurrent.md), the schedule plans searched "+
			"where the product of every interleaving was undecided, and the result's time per pair.\n\n")
		fmt.Fprintf(w, "%s.\n\n", concurrencySummary(rows))
		if len(rows) > 0 {
			concurrencyTable(rows).markdown(w)
			fmt.Fprintln(w)
		}
		return
	}
	if len(rows) > 0 {
		concurrencyTable(rows).text(w)
	}
	fmt.Fprintln(w, concurrencySummary(rows))
}
