// Package rules holds the redemption policy shared by the loyalty handlers.
package rules

import "errors"

const (
	// HandlingFee is charged in points on every redemption.
	HandlingFee = 10
	// MaxCost caps a single redemption.
	MaxCost = 100000
)

var ErrBadCost = errors.New("rules: reward cost out of range")

// ValidateCost rejects reward costs outside (0, MaxCost].
func ValidateCost(cost int64) error {
	if cost <= 0 || cost > MaxCost {
		return ErrBadCost
	}
	return nil
}

// Total is the number of points a redemption of cost debits.
func Total(cost int64) int64 { return cost + HandlingFee }

// CanAfford reports whether balance covers a redemption of cost.
func CanAfford(balance, cost int64) bool { return balance-Total(cost) >= 0 }
