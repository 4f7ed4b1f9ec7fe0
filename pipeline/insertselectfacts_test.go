package pipeline

import (
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestInsertSelectFactsBeforeLaterWrite: what --assume says of products
// holds of the row an INSERT … SELECT of products reads when the entry
// writes products only after the statement (independent tester adv19,
// insert-select-assume: AddLine was UNSAFE from a products row priced -1,
// the assumption applied only when the entry never wrote products), while
// a discount taken off the copied price still breaks the constraint.
func TestInsertSelectFactsBeforeLaterWrite(t *testing.T) {
	checkCorpusPairsAssuming(t, "order_lines.unit_price >= 0", []string{"products.price >= 0"}, 1, map[string]report.Verdict{
		"trust/insertselect_later_write_safe":   report.Safe,
		"trust/insertselect_later_write_unsafe": report.Unsafe,
	})
}
