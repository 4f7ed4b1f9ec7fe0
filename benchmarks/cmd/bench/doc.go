// Command bench is `make bench`: it runs the dbverify binary on every case
// of the benchmark corpus (benchmarks/corpus), compares the verdicts with
// each case's expect.json and scores them SV-COMP style, times a reference
// front end (go/packages + SSA) on the same packages, runs the scaling
// study (synthetic programs of package gen, with the fixpoint and the paths
// engine) and writes benchmarks/RESULTS.md and benchmarks/scaling.svg.
//
// Usage:
//
//	go run ./benchmarks/cmd/bench [-bin bin/dbverify] [-corpus dir] [-out RESULTS.md]
//		[-filter REGEXP] [-engine fixpoint|paths] [-scaling=false]
//
// It prints the results table and the totals on stdout and exits 1 when a
// verdict is wrong, a result is missing or unexpected, a run fails, or a
// correct result misses a trace_contains / predicates_contain substring;
// 2 on a usage error.
package main
