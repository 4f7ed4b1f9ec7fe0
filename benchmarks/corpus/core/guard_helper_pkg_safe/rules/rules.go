// Package rules holds the account business rules shared by the handlers.
package rules

const (
	// MinBalance is the lowest balance an account may reach.
	MinBalance = 0
	// MaxWithdrawal caps a single withdrawal.
	MaxWithdrawal = 5000
)

// CanWithdraw reports whether amount may be taken from an account that
// holds balance.
func CanWithdraw(balance, amount int64) bool {
	if amount <= 0 || amount > MaxWithdrawal {
		return false
	}
	return balance-amount >= MinBalance
}
