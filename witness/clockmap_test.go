package witness

import (
	"strings"
	"testing"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
)

// TestClockRun: the trace binds the model's now (2024-01-01) where the
// execution bound the real clock (2026-11-30 10:00:00); the times the
// trace gives, seeded and passed, move by the difference (their order
// with now kept), and a time column it does not give that its SELECT
// compares with now is seeded a day on the right side of the real now.
// A trace that binds no time the execution changed is left alone.
func TestClockRun(t *testing.T) {
	s := &Schema{Tables: map[string]*sqlir.Table{"holds": {Name: "holds"}}}
	sel := CexStep{Position: "h.go:9", Kind: "sql", Text: "SELECT event_id FROM holds WHERE id = $1 AND expires_at > $2",
		Args: []string{"0", `"2024-01-01 00:00:00"`}, Values: map[string]string{"err": "false"}}
	ran := []Statement{{SQL: sel.Text, Args: []string{"0", "2026-11-30 10:00:00"}}}
	for _, tt := range []struct {
		name     string
		given    map[string]string // the trace's holds row
		seeded   string            // expires_at as ReplayRun seeded it
		want     string
		wantNote string
	}{
		{"time given", map[string]string{"id": "0", "expires_at": "2024-01-03 00:00:00"}, "2024-01-03 00:00:00",
			"2026-12-02 10:00:00", "the trace's now 2024-01-01 00:00:00 (bound at h.go:9) is the replay's 2026-11-30 10:00:00"},
		{"time not given", map[string]string{"id": "0"}, "2026-01-01 00:00:00",
			"2026-12-01 10:00:00", "holds.expires_at, which the trace does not give, seeded as 2026-12-01 10:00:00"},
	} {
		cex := &Counterexample{Rows: []CexRow{{Symbol: "o1", Table: "holds", Values: tt.given}}, Steps: []CexStep{sel}}
		run := &Run{Rows: []Row{{Table: "holds", Values: map[string]string{"id": "0", "expires_at": tt.seeded}}},
			Inputs: map[string]string{"deadline": `"2024-01-02 00:00:00"`, "id": "0"}}
		next, notes := cex.clockRun(sqlparse.Postgres, s, run, ran)
		if next == nil {
			t.Fatalf("%s: no clock mapping", tt.name)
		}
		if got := next.Rows[0].Values["expires_at"]; got != tt.want {
			t.Errorf("%s: expires_at %s, want %s", tt.name, got, tt.want)
		}
		if got := next.Inputs["deadline"]; got != `"2026-12-01 10:00:00"` || next.Inputs["id"] != "0" {
			t.Errorf("%s: inputs %v, want deadline moved to 2026-12-01 10:00:00, id kept", tt.name, next.Inputs)
		}
		if joined := strings.Join(notes, "\n"); !strings.Contains(joined, tt.wantNote) {
			t.Errorf("%s: notes\n%s\nwant %q", tt.name, joined, tt.wantNote)
		}
		if run.Rows[0].Values["expires_at"] != tt.seeded {
			t.Errorf("%s: the run given was changed", tt.name)
		}
	}
	same := []Statement{{SQL: sel.Text, Args: []string{"0", "2024-01-01 00:00:00"}}}
	cex := &Counterexample{Steps: []CexStep{sel}}
	if next, _ := cex.clockRun(sqlparse.Postgres, s, &Run{}, same); next != nil {
		t.Errorf("the execution bound the trace's own time: mapped anyway")
	}
}
