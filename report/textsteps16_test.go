package report

import (
	"strings"
	"testing"
)

// TestShownCallResults: the results of a call the frontend fixes for the
// run are listed as the call, its package named, its error beside the
// value when not nil; the JSON names (ParseInt(…).0) are not shown.
func TestShownCallResults(t *testing.T) {
	for _, tt := range []struct {
		inputs Inputs
		errs   []string
		want   string
	}{
		{Inputs{{"id", "3"}, {"qtyText", "str1"}, {"ParseInt(qtyText, 10, 64).0", "9223372036854775807"}, {"ParseInt(qtyText, 10, 64).1", "true"}},
			[]string{"ParseInt(qtyText, 10, 64).1"},
			"id = 3, qtyText = str1, strconv.ParseInt(qtyText, 10, 64) = 9223372036854775807 (and a non-nil error)"},
		{Inputs{{"q", `"00"`}, {"ParseInt(q, 10, 64).0", "0"}, {"ParseInt(q, 10, 64).1", "false"}},
			[]string{"ParseInt(q, 10, 64).1"},
			`q = "00", strconv.ParseInt(q, 10, 64) = 0`},
		{Inputs{{"counted", `"-1"`}, {"Atoi(counted).1", "false"}, {"Atoi(counted).0", "-1"}}, nil,
			`counted = "-1", strconv.Atoi(counted) = -1`},
		{Inputs{{"TrimSpace(s)", `"x"`}, {"Other(s).0", "1"}}, nil,
			`strings.TrimSpace(s) = "x", Other(s).0 = 1`}, // (a function of no known package keeps its name)
	} {
		c := &Counterexample{Inputs: tt.inputs, Errors: tt.errs}
		if got := strings.Join(c.ShownInputs(), ", "); got != tt.want {
			t.Errorf("inputs %v:\n got %s\nwant %s", tt.inputs, got, tt.want)
		}
	}
}

// TestDisplayStepsRound16: a deferred Rollback after a Commit is said to
// be a no-op; `var x T` before the write that fills x is left out, kept
// where a step reads x first; the read of an UPDATE … FROM's joined row
// folds into the UPDATE, which takes its bound statement.
func TestDisplayStepsRound16(t *testing.T) {
	sql := func(req, pos, text string, values map[string]string) Step {
		return Step{Request: req, Position: pos, Kind: "sql", Text: text, Values: values}
	}
	decl := Step{Position: "a.go:3", Kind: "assign", Text: "var bal int64", Values: map[string]string{"bal": "0"}}
	scan := sql("", "a.go:4", "SELECT balance FROM accounts WHERE id = 1", map[string]string{"bal": "5"})
	read := Step{Position: "a.go:4", Kind: "branch", Text: "if bal == 0 {", Outcome: "true"}
	upd := "UPDATE w SET b = w.b - p.price FROM prices p WHERE p.sku = $1 AND w.id = $2"
	for _, tt := range []struct {
		name  string
		steps []Step
		want  []string // Kind Text of each step shown
	}{
		{"rollback after commit", []Step{
			sql("A", "a.go:9", "BEGIN", nil), sql("A", "a.go:12", "COMMIT", nil), sql("B", "a.go:8", "ROLLBACK", nil), sql("A", "a.go:8", "ROLLBACK", nil),
		}, []string{"sql BEGIN", "sql COMMIT", "sql ROLLBACK", "sql (deferred Rollback after Commit: no-op)"}},
		{"rollback without commit", []Step{sql("", "a.go:9", "BEGIN", nil), sql("", "a.go:8", "ROLLBACK", nil)},
			[]string{"sql BEGIN", "sql ROLLBACK"}},
		{"zero overwritten", []Step{decl, scan}, []string{"sql SELECT balance FROM accounts WHERE id = 1"}},
		{"zero read first", []Step{decl, read, scan}, []string{"assign var bal int64", "branch if bal == 0 {", "sql SELECT balance FROM accounts WHERE id = 1"}},
		{"zero never written", []Step{decl}, []string{"assign var bal int64"}},
		{"zero added to", []Step{decl, {Position: "a.go:5", Kind: "assign", Text: "bal = bal + 1", Values: map[string]string{"bal": "1"}}},
			[]string{"assign var bal int64", "assign bal = bal + 1"}},
		{"joined read", []Step{
			{Position: "a.go:7", Kind: "sql", Text: upd + " (its row of prices)", SQL: "UPDATE w SET b = w.b - p.price FROM prices p WHERE p.sku = '4' AND w.id = 2 (its row of prices)",
				Values: map[string]string{"joined.price": "1", "joinedErr": "false", "o1.price": "1"}},
			{Position: "a.go:7", Kind: "sql", Text: upd, Values: map[string]string{"r.b": "-1"}},
		}, []string{"sql UPDATE w SET b = w.b - p.price FROM prices p WHERE p.sku = '4' AND w.id = 2"}},
	} {
		var got []string
		shown := displaySteps(tt.steps)
		for _, s := range shown {
			got = append(got, s.Kind+" "+s.Statement())
		}
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
		if tt.name == "joined read" && (shown[0].Values["o1.price"] != "1" || shown[0].Values["r.b"] != "-1" || shown[0].Values["joined.price"] != "") {
			t.Errorf("joined read: values %v, want o1.price and r.b, no joined.*", shown[0].Values)
		}
	}
}
