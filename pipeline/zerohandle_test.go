package pipeline

import (
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestZeroHandleField: a service builds its repository as
// NewRepo(s.pool) = &Repo{pool: pool}, leaving the transaction field out,
// and the repository's helpers branch on r.tx != nil (adv18 leftover).
// The left-out field is nil, so only the pool branch runs: the guarded
// withdrawal is SAFE and the one that only refuses a negative balance
// UNSAFE. Before, r.tx's nil-ness was unknown and the transaction branch
// ran Exec on a handle the analysis could not trace: both UNKNOWN.
func TestZeroHandleField(t *testing.T) {
	checkCorpusPairs(t, "wallets.balance >= 0", 1, map[string]report.Verdict{
		"pgx/zerotx_repo_safe":   report.Safe,
		"pgx/zerotx_repo_unsafe": report.Unsafe,
	})
}
