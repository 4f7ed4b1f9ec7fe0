package pipeline

import (
	"strings"
	"testing"
)

// TestEngineNoteOperands: a note is given for a comparison of a text
// literal with a number literal only, never for one whose operand is an
// arithmetic result (credits + '-1' > 0 compares a number), and for a
// division of two integer literals whose quotient is not whole.
func TestEngineNoteOperands(t *testing.T) {
	for _, tc := range []struct {
		sql  string
		want string // "" for no note
	}{
		{"UPDATE a SET c = c + '-1' WHERE id = 2 AND '-1' > 0", "'-1' > 0 is true"},
		{"UPDATE a SET c = c + 1 WHERE 0 < '-1'", "0 < '-1' is true"},
		{"UPDATE a SET c = c + 1 WHERE c + '-1' > 0", ""},
		{"UPDATE a SET c = c + 1 WHERE '-1' > 0 + c", ""},
		{"UPDATE a SET c = 'x' WHERE c >= '5'", ""},
	} {
		got := strings.Join(sqliteTextNotes(tc.sql), "; ")
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("sqliteTextNotes(%q) = %q, want %q", tc.sql, got, tc.want)
		}
	}
	for _, tc := range []struct{ sql, want string }{
		{"UPDATE a SET c = c - 2 / 3 WHERE id = 1", "2 / 3 = 0.6667"},
		{"UPDATE a SET c = c - (-7) / 2", "(-7) / 2 = -3.5000"},
		{"UPDATE a SET c = c - 6 / 3", ""},
	} {
		got := strings.Join(mysqlDivisionNotes(tc.sql), "; ")
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("mysqlDivisionNotes(%q) = %q, want %q", tc.sql, got, tc.want)
		}
	}
}
