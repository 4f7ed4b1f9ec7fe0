package report

import (
	"strings"
	"testing"
)

// TestFoldUndecided: a branch step without an outcome is the call it
// makes, an assign (values, or a type assertion's choice), or left out.
func TestFoldUndecided(t *testing.T) {
	tests := []struct {
		name  string
		steps []Step
		want  string // kind@text of the steps kept
	}{
		{"type assertion kept as the choice it makes",
			[]Step{{Kind: "branch", Position: "s.go:24", Text: "q := s.Querier.(*Queries)"}, {Kind: "sql", Position: "s.go:25", Text: "BEGIN"}},
			"assign@q := s.Querier.(*Queries) sql@BEGIN"},
		{"a type switch decides nothing shown",
			[]Step{{Kind: "branch", Position: "s.go:24", Text: "switch v := x.(type) {"}, {Kind: "sql", Position: "s.go:25", Text: "BEGIN"}},
			"sql@BEGIN"},
		{"a call whose callee's steps follow",
			[]Step{{Kind: "branch", Position: "s.go:30", Text: "if err := a.inner.Debit(ctx); err != nil {"}, {Kind: "sql", Position: "d.go:9", Text: "UPDATE"}},
			"call@if err := a.inner.Debit(ctx); err != nil { sql@UPDATE"},
		{"a jump after a return is left out",
			[]Step{{Kind: "branch", Position: "s.go:63", Text: "if n == 0 {"}, {Kind: "sql", Position: "s.go:70", Text: "COMMIT"}},
			"sql@COMMIT"},
		{"a decided branch stays",
			[]Step{{Kind: "branch", Position: "s.go:63", Text: "if n == 0 {", Outcome: "false"}},
			"branch@if n == 0 {"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, s := range foldUndecided(tt.steps) {
				got = append(got, s.Kind+"@"+s.Text)
			}
			if g := strings.Join(got, " "); g != tt.want {
				t.Errorf("got %q, want %q", g, tt.want)
			}
		})
	}
}
