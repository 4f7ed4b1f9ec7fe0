// Package benchmarks holds dbverify's benchmark corpus and the tools that
// measure dbverify against it.
//
//   - corpus/ is a separate Go module (example.com/corpus) of small programs,
//     one case per directory, each with an expect.json naming the verdict
//     dbverify must give for every (entry point, constraint).
//   - harness is the library that reads expect.json, runs the dbverify binary
//     in a case directory, compares its JSON output with the expectations and
//     scores it SV-COMP style; it also times a reference front end (go/packages
//     and SSA construction alone) and runs the scaling study.
//   - gen generates the synthetic programs of the scaling study.
//   - cmd/bench is `make bench`: it runs the corpus and the scaling study and
//     writes RESULTS.md and scaling.svg.
//
// The end-to-end test of this package (e2e_test.go) builds the binary and
// checks every case marked "fast": true, plus the command line's handling of
// bad input (testdata/bad), SARIF output and --fail-on-unknown.
package benchmarks
