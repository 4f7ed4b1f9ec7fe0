// Package harness runs dbverify on the benchmark corpus and scores it.
//
// A case is a directory with an expect.json (see ../corpus/README.md).
// LoadCases finds and reads them; Run executes the dbverify binary in the
// case directory as
//
//	dbverify check --format json [--engine E] <args from expect.json> ./...
//
// parses the single JSON object it prints (Report: package report's schema), matches the results to
// the expectations on (entry, constraint) — constraints compared ignoring
// white space — and grades each (Outcome) SV-COMP style: +2 for a correct
// SAFE, +1 for a correct UNSAFE, 0 for UNKNOWN, -32 for SAFE where UNSAFE
// is right and -16 for UNSAFE where SAFE is right. A result for an
// expectation that is UNKNOWN today is graded against "final" and, when it
// matches, counted as improved. Correct decided results are also checked
// against the expectation's trace_contains and predicates_contain
// substrings. Score totals the outcomes.
//
// FrontendTime is a reference front end (go/packages plus SSA construction,
// in process) that dbverify's time is compared with, and Scaling runs the
// synthetic scaling study of package gen with both engines.
package harness
