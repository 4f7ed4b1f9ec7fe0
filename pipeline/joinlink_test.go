package pipeline

import (
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestJoinFollowsTargetRow: MySQL's UPDATE accounts a JOIN plans p ON
// p.id = a.plan_id … WHERE a.id = ? joins the plan the one pinned
// account row points to (adv19 fiberplans renew: UNKNOWN "joined with
// plans … not modelled", SAFE in truth). The model reads the account's
// plan_id, then that plan: the guarded renewal is SAFE, the one that only
// asks for positive credits UNSAFE.
func TestJoinFollowsTargetRow(t *testing.T) {
	checkCorpusPairs(t, "accounts.credits >= 0", 1, map[string]report.Verdict{
		"trust/mysql_update_join_plan_safe":   report.Safe,
		"trust/mysql_update_join_plan_unsafe": report.Unsafe,
	})
}
