// Package rewards redeems rewards against loyalty points.
package rewards

import (
	"context"
	"errors"

	"example.com/replaymod/points/repo"
)

// Service redeems rewards.
type Service struct {
	Repo *repo.Repo
}

// Redeem spends the reward's cost; it checks the cost, not the member's
// points.
func (s *Service) Redeem(ctx context.Context, memberID, cost int64) error {
	if cost <= 0 {
		return errors.New("rewards: cost must be positive")
	}
	return s.Repo.Spend(ctx, memberID, cost)
}
