package harness

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/dbverify/dbverify/report"
)

// Report is dbverify's --format json output: exactly one object, in
// package report's schema.
type Report = report.Report

// Result is the verdict for one (entry point, constraint).
type Result = report.Result

// Counterexample is a concrete run that breaks the constraint.
type Counterexample = report.Counterexample

// ParseReport decodes dbverify's stdout. It must be exactly one JSON
// object with a results array; trailing non-space text is an error.
func ParseReport(stdout []byte) (*Report, error) {
	dec := json.NewDecoder(bytes.NewReader(stdout))
	var raw map[string]json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("stdout is not one JSON object: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("stdout has text after the JSON object")
	}
	if _, ok := raw["results"]; !ok {
		return nil, fmt.Errorf("stdout JSON has no \"results\"")
	}
	if _, ok := raw["stats"]; !ok {
		return nil, fmt.Errorf("stdout JSON has no \"stats\"")
	}
	var rep Report
	if err := json.Unmarshal(stdout, &rep); err != nil {
		return nil, fmt.Errorf("stdout JSON does not match the contract: %w", err)
	}
	for i, r := range rep.Results {
		if !validVerdict(string(r.Verdict)) {
			return nil, fmt.Errorf("results[%d] (%s): verdict %q is not SAFE, UNSAFE or UNKNOWN", i, r.Entry, r.Verdict)
		}
	}
	return &rep, nil
}

// CexText is the JSON text of r's counterexample in the forms a
// substring may be looked for in: as dbverify prints it (encoding/json
// prints ">" as \u003e) and without HTML escaping (so "balance >= 0"
// matches); nil when there is none.
func CexText(r *Result) []string {
	if r.Counterexample == nil {
		return nil
	}
	var out []string
	for _, escape := range []bool{true, false} {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(escape)
		enc.SetIndent("", " ")
		if enc.Encode(r.Counterexample) == nil {
			out = append(out, b.String())
		}
	}
	return out
}

// ExitCodeFor is the exit code the contract demands for a set of results
// when --fail-on-unknown is not given: 1 if any is UNSAFE, else 0.
func ExitCodeFor(results []*Result) int {
	for _, r := range results {
		if r.Verdict == Unsafe {
			return 1
		}
	}
	return 0
}
