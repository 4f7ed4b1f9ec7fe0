package frontend_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/pipeline"
	"github.com/dbverify/dbverify/refine"
)

// TestErrorIdentity runs the entries of testdata/src/errident end to end
// (SSA, translation, row model, Z3): a test of an error's identity after
// paths that return different errors (adv15 F1, F2) is never an
// arbitrary value that reaches an UNSAFE.
func TestErrorIdentity(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "src"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		entry string
		want  refine.Verdict
		text  string // in the counterexample's steps (UNSAFE) or the reason (UNKNOWN)
	}{
		{"PenaltyDeferSafe", refine.Safe, ""},
		{"PenaltyIsSafe", refine.Safe, ""},
		{"PenaltyEqSafe", refine.Safe, ""},
		{"PenaltyInvalidUnsafe", refine.Unsafe, "errors.Is(err, ErrInvalid)"},
		{"PenaltyWrappedEqSafe", refine.Safe, ""},
		{"JoinSafe", refine.Safe, ""},
		{"JoinInvertedSafe", refine.Safe, ""},
		{"JoinMissingCheckUnsafe", refine.Unsafe, "errors.Join(errs...)"},
		{"JoinOverLimitUnsafe", refine.Unsafe, "errors.Is(err, ErrOverLimit)"},
		{"JoinOverLimitSafe", refine.Safe, ""},
	}
	for _, tt := range tests {
		t.Run(tt.entry, func(t *testing.T) {
			rep, err := pipeline.Run(context.Background(), pipeline.Config{
				Dir: dir, Patterns: []string{"./errident"}, Entry: `errident\.` + tt.entry + `$`,
				Constraints: []string{"accounts.balance >= 0"}, Workers: 1,
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Results) != 1 {
				t.Fatalf("%d results, want 1", len(rep.Results))
			}
			r := rep.Results[0]
			if r.Verdict != tt.want {
				t.Fatalf("verdict %s (%s at %s), want %s", r.Verdict, r.Reason, r.Position, tt.want)
			}
			text := r.Reason
			if r.Verdict == refine.Unsafe {
				text = traceText(r)
			}
			if !strings.Contains(text, tt.text) {
				t.Errorf("%q not in\n%s", tt.text, text)
			}
		})
	}
}
