package pipeline

import (
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestConditionalSuffixSQL (independent tester adv18 m2-condsql): the
// SELECT gets " FOR UPDATE" appended when a constant lock says so. With
// lock false the concatenation's block is cut off, and Hold was UNKNOWN
// "SQL text is not a compile-time constant"; the text is the one
// constant that reaches the φ, so both callers are decided.
func TestConditionalSuffixSQL(t *testing.T) {
	for name, want := range map[string]report.Verdict{"safe": report.Safe, "unsafe": report.Unsafe} {
		dir := corpusCase("dialect/condsql_lock_" + name)
		checkVerdicts(t, Config{
			Dir: dir, Patterns: []string{"./..."}, Schema: dir + "/schema.sql",
			Constraints: []string{"events.held <= events.seats"}, Workers: 1,
		}, map[string]report.Verdict{"Hold": want, "HoldLocked": want})
	}
}
