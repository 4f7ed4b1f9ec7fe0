package pipeline

import (
	"context"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestIntParamRange: a Go int64 bound where PostgreSQL types the
// parameter int4 (points - $1, points INTEGER) fails the statement out of
// int4's range — pgx refuses to encode it, lib/pq's text fails on the
// server —, so a funds check on a wrapped int32(n) is not beaten by n =
// 2^31 (SAFE; was UNSAFE with n = 2147483648, independent tester adv16
// fu4), while with points BIGINT n is sent and the check is beaten.
func TestIntParamRange(t *testing.T) {
	for _, tt := range []struct {
		dir  string
		want report.Verdict
	}{
		{"pg/int4_param_safe", report.Safe},
		{"pg/int4_param_pq_safe", report.Safe},
		{"pg/int4_param_unsafe", report.Unsafe},
	} {
		dir := corpusCase(tt.dir)
		rep, err := Run(context.Background(), Config{
			Dir: dir, Patterns: []string{"./..."}, Schema: dir + "/schema.sql", Dialect: "postgres",
			Constraints: []string{"loyalty.points >= 0"}, Workers: 1,
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Results) != 1 {
			t.Fatalf("%s: %d results, want 1", tt.dir, len(rep.Results))
		}
		if r := rep.Results[0]; r.Verdict != tt.want {
			t.Errorf("%s: %s is %s (%s), want %s", tt.dir, r.Entry, r.Verdict, r.Reason, tt.want)
		}
	}
}
