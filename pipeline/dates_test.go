package pipeline

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dbverify/dbverify/report"
)

// TestDatesPrinted (adv8 R3): a counterexample prints the values of a
// DATE column, and the Go string input that is the same value, as one
// date the engine accepts (day = "3" was refused by PostgreSQL, so a
// replay could neither seed the row nor call the entry), and the values
// of a TIMESTAMPTZ column as timestamps ('2024-01-04 00:00:00', as the
// SQL binds a time.Time).
func TestDatesPrinted(t *testing.T) {
	parsed := func(layout, v string) (time.Time, bool) {
		u, err := strconv.Unquote(v)
		if err != nil {
			return time.Time{}, false
		}
		d, err := time.Parse(layout, u)
		return d, err == nil
	}
	date := func(v string) (time.Time, bool) { return parsed("2006-01-02", v) }
	timestamp := func(v string) (time.Time, bool) { return parsed("2006-01-02 15:04:05", v) }
	dir := corpusCase("trust/pg_date_key_unsafe")
	rep, err := runShared(context.Background(), Config{
		Dir: dir, Patterns: []string{"./..."}, Schema: dir + "/schema.sql", Entry: "Track",
		Constraints: []string{"daily_usage.cnt <= 100"}, Workers: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 || rep.Results[0].Verdict != report.Unsafe {
		t.Fatalf("Track: got %+v, want one UNSAFE", rep.Results)
	}
	c := rep.Results[0].Counterexample
	day := c.Inputs.Map()["day"]
	if _, ok := date(day); !ok {
		t.Errorf("input day = %s, want a date", day)
	}
	for _, row := range append(c.Rows, *c.Violation) {
		if row.Values["day"] != day {
			t.Errorf("row %s: day = %s, want the input's %s", row.Symbol, row.Values["day"], day)
		}
	}

	dir = corpusCase("trust/pg_approx_reset_safe")
	rep, err = runShared(context.Background(), Config{
		Dir: dir, Patterns: []string{"./..."}, Schema: dir + "/schema.sql", Entry: "ResetExpired",
		Constraints: []string{"api_keys.used <= api_keys.quota"}, Workers: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 || rep.Results[0].Counterexample == nil {
		t.Fatalf("ResetExpired: got %+v, want one UNSAFE", rep.Results)
	}
	c = rep.Results[0].Counterexample
	_, ok1 := timestamp(c.Rows[0].Values["reset_at"])
	_, ok2 := timestamp(c.Violation.Values["reset_at"])
	if !ok1 || !ok2 {
		t.Errorf("reset_at = %s before, %s after: want timestamps", c.Rows[0].Values["reset_at"], c.Violation.Values["reset_at"])
	}
	if !strings.Contains(strings.Join(c.Notes, "\n"), "printed as dates") {
		t.Errorf("notes %q do not say how dates are printed", c.Notes)
	}
}
