// Package entrysel is the program of TestEntrySelection: a function and a
// method named Transfer, and the getters of a TransferRequest type, which
// --entry Transfer must not select (adv18: the pattern matched the
// receiver's type name).
package entrysel

import "database/sql"

// TransferRequest is a request body with getters.
type TransferRequest struct {
	From, To, Amount int64
}

// GetAmount returns the amount (0 for a nil request).
func (r *TransferRequest) GetAmount() int64 {
	if r == nil {
		return 0
	}
	return r.Amount
}

// GetFrom returns the account debited.
func (r *TransferRequest) GetFrom() int64 {
	if r == nil {
		return 0
	}
	return r.From
}

// Transfer moves a positive amount between two accounts.
func Transfer(db *sql.DB, req *TransferRequest) error {
	if req.GetAmount() <= 0 {
		return nil
	}
	if _, err := db.Exec("UPDATE accounts SET balance = balance + ? WHERE id = ?", req.GetAmount(), req.To); err != nil {
		return err
	}
	return nil
}

// Ledger records transfers.
type Ledger struct{ db *sql.DB }

// Transfer credits a positive amount.
func (l *Ledger) Transfer(to, amount int64) error {
	if amount <= 0 {
		return nil
	}
	_, err := l.db.Exec("UPDATE accounts SET balance = balance + ? WHERE id = ?", amount, to)
	return err
}
