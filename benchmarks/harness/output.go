package harness

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// Report is dbverify's --format json output: exactly one object.
type Report struct {
	Results []Result `json:"results"`
	Stats   Stats    `json:"stats"`
}

// Result is the verdict for one (entry point, constraint).
type Result struct {
	Entry       string   `json:"entry"`
	Constraint  string   `json:"constraint"`
	Verdict     string   `json:"verdict"`
	Reason      string   `json:"reason"`
	Position    string   `json:"position"`
	Refinements int      `json:"refinements"`
	Predicates  []string `json:"predicates"`
	// Proof says how a SAFE without predicates was decided (the lbe
	// engine's one formula over a loop-free program); Engine which engine
	// decided, when the tool says.
	Proof       string   `json:"proof,omitempty"`
	Engine      string   `json:"engine,omitempty"`
	Assumptions []string `json:"assumptions"`
	// Counterexample is kept as the JSON text dbverify printed, for the
	// trace_contains substring checks; Cex decodes it.
	Counterexample json.RawMessage `json:"counterexample,omitempty"`
	SMTQueries     int             `json:"smt_queries"`
	Seconds        float64         `json:"seconds"`
}

// Stats are the run's totals.
type Stats struct {
	Entries         int     `json:"entries"`
	Safe            int     `json:"safe"`
	Unsafe          int     `json:"unsafe"`
	Unknown         int     `json:"unknown"`
	SMTQueries      int     `json:"smt_queries"`
	Seconds         float64 `json:"seconds"`
	FrontendSeconds float64 `json:"frontend_seconds"`
}

// Counterexample is a concrete run that breaks the constraint.
type Counterexample struct {
	Inputs    map[string]string `json:"inputs"`
	Rows      []Row             `json:"rows"`
	Steps     []Step            `json:"steps"`
	Violation *Row              `json:"violation"`
}

// Row is one database row: its symbol, table and column values.
type Row struct {
	Symbol string            `json:"symbol"`
	Table  string            `json:"table"`
	Values map[string]string `json:"values"`
}

// Step is one step of a counterexample's path.
type Step struct {
	Position string            `json:"position"`
	Kind     string            `json:"kind"`
	Text     string            `json:"text"`
	Values   map[string]string `json:"values"`
}

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
		if !validVerdict(r.Verdict) {
			return nil, fmt.Errorf("results[%d] (%s): verdict %q is not SAFE, UNSAFE or UNKNOWN", i, r.Entry, r.Verdict)
		}
	}
	return &rep, nil
}

// Cex decodes the counterexample; nil when there is none.
func (r *Result) Cex() (*Counterexample, error) {
	if len(r.Counterexample) == 0 || string(r.Counterexample) == "null" {
		return nil, nil
	}
	var c Counterexample
	if err := json.Unmarshal(r.Counterexample, &c); err != nil {
		return nil, err
	}
	return &c, nil
}

// CexText is the JSON text of the counterexample in the forms a substring
// may be looked for in: as dbverify printed it and re-encoded without
// HTML escaping (so "balance >= 0" matches although encoding/json prints
// ">" as \u003e).
func (r *Result) CexText() []string {
	if len(r.Counterexample) == 0 || string(r.Counterexample) == "null" {
		return nil
	}
	out := []string{string(r.Counterexample)}
	var v any
	if err := json.Unmarshal(r.Counterexample, &v); err == nil {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", " ")
		if enc.Encode(v) == nil {
			out = append(out, b.String())
		}
	}
	return out
}

// ExitCodeFor is the exit code the contract demands for a set of results
// when --fail-on-unknown is not given: 1 if any is UNSAFE, else 0.
func ExitCodeFor(results []Result) int {
	for _, r := range results {
		if r.Verdict == Unsafe {
			return 1
		}
	}
	return 0
}
