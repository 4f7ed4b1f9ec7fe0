package pipeline

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestClockKey: time.Now() is an input of the run and the pure functions
// of package time on it are computed (frontend/clock.go), so a counter
// keyed by time.Now().Truncate(time.Minute).Unix() is decided (it was
// UNKNOWN "reads the result of time.Unix, which the model does not
// compute": an independent tester's time_key_unknown), and what the
// clock cannot give (a truncated minute not a multiple of 60, a clock
// going back) is no counterexample. A use of the clock the model does
// not compute (Weekday) is UNKNOWN naming the call and its line.
func TestClockKey(t *testing.T) {
	wants := map[string]report.Verdict{
		"HitCost":   report.Unsafe,
		"HitOne":    report.Safe,
		"Aligned":   report.Safe,
		"Monotonic": report.Safe,
		"Units":     report.Safe,
		"Elapsed":   report.Unsafe,
		"Sunday":    report.Unknown,
	}
	dir := testdataDir(t, "clockkey")
	cfg := Config{Dir: dir, Patterns: []string{"./..."}, Dialect: "postgres", Schema: filepath.Join(dir, "schema.sql"),
		Constraints: []string{"rate_limits.hits <= rate_limits.max_hits"}, Workers: 1}
	got := checkVerdicts(t, cfg, wants)
	if r := got["Monotonic"]; r != nil && !strings.Contains(strings.Join(r.Assumptions, "\n"), "the clock is not set back") {
		t.Errorf("Monotonic: assumptions %q do not say the clock is not set back", r.Assumptions)
	}
	if r := got["HitCost"]; r != nil && strings.Contains(strings.Join(r.Assumptions, "\n"), "the clock is not set back") {
		t.Errorf("HitCost reads the clock once: assumptions %q say the clock is not set back", r.Assumptions)
	}
	if r := got["Sunday"]; r != nil && !strings.Contains(r.Reason, "time.Weekday at limits.go:87") {
		t.Errorf("Sunday: reason %q does not name time.Weekday at limits.go:87", r.Reason)
	}
	if r := got["HitCost"]; r != nil && r.Counterexample != nil && len(r.Counterexample.Clock) != 1 {
		t.Errorf("HitCost: the counterexample gives the clock %v, want the instant of its one time.Now() call", r.Counterexample.Clock)
	}
}
