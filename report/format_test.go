package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestFormats: every format of the table accepts its name and writes a
// report; another name is refused with the list of formats.
func TestFormats(t *testing.T) {
	rep := &Report{Results: []*Result{{Entry: "m.F", Constraint: "t.a >= 0", Verdict: Unknown, Reason: "unsupported: x at f.go:3", Position: "f.go:3"}}}
	want := map[Format]string{Text: "UNKNOWN m.F [t.a >= 0]", JSON: `"verdict": "UNKNOWN"`, SARIF: `"ruleId": "DBV002"`, GitHub: "::warning "}
	for _, f := range Formats() {
		var got Format
		if err := got.Set(string(f)); err != nil || got != f {
			t.Errorf("Set(%q) = %q, %v", f, got, err)
		}
		var b bytes.Buffer
		if err := f.Writer(Options{})(&b, rep); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		if !strings.Contains(b.String(), want[f]) {
			t.Errorf("%s output lacks %q:\n%s", f, want[f], b.String())
		}
	}
	if len(Formats()) != len(want) {
		t.Errorf("formats %v, want %d", Formats(), len(want))
	}
	var f Format
	if err := f.Set("xml"); err == nil || !strings.Contains(err.Error(), "text, json, sarif or github") {
		t.Errorf("Set(xml) = %v, want an error listing the formats", err)
	}
}

// TestInputsJSON: the inputs, a list in program order, are one JSON
// object by name (a name given twice keeps its last value), and decode
// in name order.
func TestInputsJSON(t *testing.T) {
	in := Inputs{{"id", "3"}, {"amt", "1"}, {"id", "4"}}
	data, err := json.Marshal(in)
	if err != nil || string(data) != `{"amt":"1","id":"4"}` {
		t.Fatalf("Marshal = %s, %v", data, err)
	}
	var back Inputs
	if err := json.Unmarshal(data, &back); err != nil || len(back) != 2 || back[0] != (Binding{"amt", "1"}) || back[1] != (Binding{"id", "4"}) {
		t.Errorf("Unmarshal = %+v, %v", back, err)
	}
	if err := json.Unmarshal([]byte(`{}`), &back); err != nil || back == nil || len(back) != 0 {
		t.Errorf("Unmarshal({}) = %#v, %v; want empty, not nil", back, err)
	}
}

// TestSummaryRestarts: a run whose Z3 checks restarted after a time-out
// says how many in its summary line and in JSON; a run without says
// nothing of it in the text.
func TestSummaryRestarts(t *testing.T) {
	for _, tt := range []struct {
		restarts int
		text     string
	}{{0, "(7 SMT queries, 1.50s)"}, {3, "(7 SMT queries, 3 restarted after a time-out, 1.50s)"}} {
		rep := &Report{Stats: Stats{Entries: 1, Safe: 1, SMTQueries: 7, SolverRestarts: tt.restarts, Seconds: 1.5},
			Results: []*Result{{Entry: "m.F", Constraint: "t.a >= 0", Verdict: Safe, SMTQueries: 7, SolverRestarts: tt.restarts}}}
		var b bytes.Buffer
		if err := Text.Writer(Options{})(&b, rep); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), tt.text) {
			t.Errorf("restarts %d: text lacks %q:\n%s", tt.restarts, tt.text, b.String())
		}
		b.Reset()
		if err := JSON.Writer(Options{})(&b, rep); err != nil {
			t.Fatal(err)
		}
		var got struct {
			Stats struct {
				Restarts *int `json:"solver_restarts"`
			} `json:"stats"`
		}
		if err := json.Unmarshal(b.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if got.Stats.Restarts == nil || *got.Stats.Restarts != tt.restarts {
			t.Errorf("restarts %d: JSON stats.solver_restarts = %v", tt.restarts, got.Stats.Restarts)
		}
	}
}
