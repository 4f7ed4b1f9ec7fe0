package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/dbverify/dbverify/report"
)

// A baseline is an earlier JSON report (`--format json`) whose UNSAFE and
// UNKNOWN results a team accepts for now: with --baseline, a result that
// is already in it (same verdict, entry point and constraint, and for
// UNKNOWN the same reason up to positions, or stopped by the same kind of
// limit whatever its figures) is reported but does not fail
// the run, so that the gate fails only on new findings.

// findingKey identifies a finding across runs, independent of line
// numbers.
func findingKey(r *report.Result) string {
	reason := ""
	if r.Verdict == report.Unknown {
		reason = report.FindingReason(r)
	}
	return string(r.Verdict) + "\x00" + r.Entry + "\x00" + r.Constraint + "\x00" + reason
}

// readBaseline returns the finding keys of a JSON report.
func readBaseline(path string) (map[string]bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--baseline: %w", err)
	}
	var rep report.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		return nil, fmt.Errorf("--baseline %s: not a dbverify JSON report (--format json): %w", path, err)
	}
	keys := map[string]bool{}
	for _, r := range rep.Results {
		keys[findingKey(r)] = true
	}
	return keys, nil
}

// markBaseline flags the results the baseline already holds.
func markBaseline(rep *report.Report, keys map[string]bool) {
	for _, r := range rep.Results {
		if r.Verdict != report.Safe && keys[findingKey(r)] {
			r.InBaseline = true
		}
	}
}
