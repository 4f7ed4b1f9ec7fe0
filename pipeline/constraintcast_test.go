package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestConstraintCasts (adv11 p34): over a TEXT column holding numbers
// (PostgreSQL), the constraint casts as the program does — x::bigint and
// CAST(x AS BIGINT) are read (they were syntax errors) — while a cast that
// may change the value, and the comparison of the text with a number that
// PostgreSQL rejects, are refused with a message saying why and where.
func TestConstraintCasts(t *testing.T) {
	dir := corpusCase("trust/pg_text_counter_cast_unknown")
	run := func(constraint string) (*report.Report, error) {
		return runShared(context.Background(), Config{
			Dir: dir, Patterns: []string{"./..."}, Schema: dir + "/schema.sql", Entry: "Take",
			Constraints: []string{constraint}, Workers: 1,
		})
	}
	for _, c := range []string{"counters.remaining::bigint >= 0", "CAST(counters.remaining AS BIGINT) >= 0"} {
		rep, err := run(c)
		if err != nil {
			t.Errorf("%s: %v", c, err)
			continue
		}
		if len(rep.Results) != 1 || rep.Results[0].Verdict == report.Unsafe {
			t.Errorf("%s: got %+v, want one result, not UNSAFE", c, rep.Results)
		}
	}
	for c, want := range map[string]string{
		"counters.remaining >= 0":         "PostgreSQL rejects",
		"counters.remaining::date >= 0":   "at column 19",
		"(counters.remaining)::int4 >= 0": "",
	} {
		_, err := run(c)
		if want == "" {
			if err != nil {
				t.Errorf("%s: %v, want it read", c, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one saying %q", c, err, want)
		}
	}
}
