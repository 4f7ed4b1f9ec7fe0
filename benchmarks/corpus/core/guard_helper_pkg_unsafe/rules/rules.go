// Package rules holds the account business rules shared by the handlers.
package rules

const (
	// Overdraft is the courtesy overdraft granted to every account.
	Overdraft = 100
	// MaxWithdrawal caps a single withdrawal.
	MaxWithdrawal = 5000
)

// CanWithdraw reports whether amount may be taken from an account that
// holds balance.
func CanWithdraw(balance, amount int64) bool {
	if amount <= 0 || amount > MaxWithdrawal {
		return false
	}
	return balance+Overdraft >= amount
}
