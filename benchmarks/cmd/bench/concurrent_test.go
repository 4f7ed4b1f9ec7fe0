package main

import (
	"strings"
	"testing"

	"github.com/dbverify/dbverify/benchmarks/harness"
	"github.com/dbverify/dbverify/report"
)

// TestConcurrencyTable: the results that searched pairs of requests are
// listed with their interleavings with and without the reduction, the
// ratio and the time per pair; results the stability check proved, and
// sequential results, are not.
func TestConcurrencyTable(t *testing.T) {
	res := func(entry string, v report.Verdict, c *report.Concurrency, secs float64) *report.Result {
		return &report.Result{Entry: entry, Verdict: v, Concurrency: c, Seconds: secs}
	}
	runs := []*harness.CaseRun{
		{Case: &harness.Case{Name: "concurrent/kernel_unsafe"}, Report: &harness.Report{Results: []*report.Result{
			res("example.com/corpus/concurrent/kernel_unsafe.Redeem", report.Unsafe,
				&report.Concurrency{Scope: report.ScopeSearch, PairsSearched: 1, Interleavings: 6436, InterleavingsUnreduced: 560513}, 2.8),
		}}},
		{Case: &harness.Case{Name: "concurrent/pair_safe"}, Report: &harness.Report{Results: []*report.Result{
			res("example.com/corpus/concurrent/pair_safe.A", report.Safe,
				&report.Concurrency{Scope: report.ScopeBounded, PairsSearched: 2, SchedulePlans: 8, Interleavings: 100, InterleavingsUnreduced: 250}, 4),
			res("example.com/corpus/concurrent/pair_safe.B", report.Safe, &report.Concurrency{Scope: report.ScopeProved}, 1),
		}}},
		{Case: &harness.Case{Name: "core/atm_safe"}, Report: &harness.Report{Results: []*report.Result{
			res("example.com/corpus/core/atm_safe.Withdraw", report.Safe, nil, 0.3),
		}}},
	}
	rows := concurrentRows(runs)
	if len(rows) != 2 {
		t.Fatalf("%d rows, want the 2 searched results: %+v", len(rows), rows)
	}
	var b strings.Builder
	concurrencyTable(rows).text(&b)
	text := b.String()
	for _, want := range []string{"kernel_unsafe", "6436", "560513", "87.1", "2.80", "pair_safe", "2.5", "2.00"} {
		if !strings.Contains(text, want) {
			t.Errorf("table lacks %q:\n%s", want, text)
		}
	}
	sum := concurrencySummary(rows)
	if !strings.Contains(sum, "2 results searched") || !strings.Contains(sum, "1 at least 20×: concurrent/kernel_unsafe (87×)") {
		t.Errorf("summary %q", sum)
	}
	if s := concurrencySummary(nil); !strings.Contains(s, "no result searched") {
		t.Errorf("empty summary %q", s)
	}
}
