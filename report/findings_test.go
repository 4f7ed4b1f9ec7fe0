package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestFindingFormats: a finding is a warning of its class in every
// format: "pos: warning[class]: message" in text, "findings" in JSON, a
// DBV004 result at the statement with the BEGIN as related location in
// SARIF (whose driver lists the rule), a ::warning annotation for GitHub.
func TestFindingFormats(t *testing.T) {
	rep := &Report{Results: []*Result{}, Findings: []Finding{{Class: FindingTxEscape, Entry: "m.Debit", Position: "store.go:32",
		Related: "store.go:17", Message: `"INSERT INTO audit …" runs on the pool while the transaction begun at store.go:17 is open`}}}
	want := map[Format][]string{
		Text:   {"store.go:32: warning[tx-escape]: \"INSERT INTO audit …\" runs on the pool"},
		JSON:   {`"findings": [`, `"class": "tx-escape"`, `"related": "store.go:17"`},
		SARIF:  {`"id": "DBV004"`, `"ruleId": "DBV004"`, `"ruleIndex": 3`, `"relatedLocations"`, `"startLine": 32`},
		GitHub: {"store.go,line=32,title=dbverify tx-escape::\"INSERT INTO audit"},
	}
	for _, f := range Formats() {
		var b bytes.Buffer
		if err := f.Writer(Options{})(&b, rep); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, w := range want[f] {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s output lacks %q:\n%s", f, w, b.String())
			}
		}
	}
}
