// Package sqlite_json_bytes_body_unsafe takes a request's raw JSON body
// as a []byte and decodes it with json.Unmarshal.
package sqlite_json_bytes_body_unsafe

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"

	_ "modernc.org/sqlite"
)

// WithdrawRequest is the body Withdraw decodes.
type WithdrawRequest struct {
	AccountID int64 `json:"account_id"`
	Amount    int64 `json:"amount"`
}

// Withdraw debits the body's amount. Bug: it asks for a positive amount
// but not for a balance that covers it.
func Withdraw(ctx context.Context, db *sql.DB, raw []byte) error {
	var req WithdrawRequest
	if err := json.Unmarshal(raw, &req); err != nil {
		return err
	}
	if req.Amount <= 0 {
		return errors.New("amount must be positive")
	}
	_, err := db.ExecContext(ctx, `UPDATE accounts SET balance = balance - ? WHERE id = ?`, req.Amount, req.AccountID)
	return err
}
