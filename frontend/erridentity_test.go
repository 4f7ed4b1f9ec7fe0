package frontend_test

import (
	"path/filepath"
	"testing"

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
		t.Run(tt.entry, func(t *testing.T) { checkEntry(t, dir, "errident", tt.entry, tt.want, tt.text) })
	}
}
