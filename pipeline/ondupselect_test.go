package pipeline

import (
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestOnDupSelectAmbiguous: INSERT … SELECT from cart_items itself with ON
// DUPLICATE KEY UPDATE qty = qty + VALUES(qty) fails every run on MariaDB
// (error 1052, the column ambiguous; adv19 usability 7) and was UNSAFE,
// modelled as running; it is UNKNOWN naming the ambiguous column, while
// the aliased, qualified form MariaDB runs stays UNSAFE.
func TestOnDupSelectAmbiguous(t *testing.T) {
	checkCorpusPairs(t, "cart_items.qty >= 0", 1, map[string]report.Verdict{
		"trust/ondup_select_ambiguous_safe":   report.Unknown,
		"trust/ondup_select_ambiguous_unsafe": report.Unsafe,
	})
}
