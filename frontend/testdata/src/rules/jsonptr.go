package rules

import (
	"database/sql"
	"encoding/json"
	"net/http"
)

type ptrBody struct {
	Account int64  `json:"account"`
	Amount  *int64 `json:"amount"`
	Fee     *int64 `json:"fee"`
}

// JSONPointerSafe: a *int64 field of a decoded JSON body binds what it
// points to; the checks of it hold for the value the UPDATE debits.
func JSONPointerSafe(db *sql.DB, r *http.Request) error {
	var b ptrBody
	if err := json.NewDecoder(r.Body).Decode(&b); err != nil || b.Amount == nil || *b.Amount <= 0 {
		return nil
	}
	_, err := db.Exec("UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?", b.Amount, b.Account, b.Amount)
	return err
}

// JSONPointerNullUnsafe: a fee the body lacks (or sends as null) is NULL:
// the guard adds 0 for it, the debit 5.
func JSONPointerNullUnsafe(db *sql.DB, r *http.Request) error {
	var b ptrBody
	if err := json.NewDecoder(r.Body).Decode(&b); err != nil || b.Amount == nil || *b.Amount <= 0 {
		return nil
	}
	if b.Fee != nil && *b.Fee < 0 {
		return nil
	}
	_, err := db.Exec("UPDATE accounts SET balance = balance - ? - COALESCE(?, 5) WHERE id = ? AND balance >= ? + COALESCE(?, 0)",
		b.Amount, b.Fee, b.Account, b.Amount, b.Fee)
	return err
}
