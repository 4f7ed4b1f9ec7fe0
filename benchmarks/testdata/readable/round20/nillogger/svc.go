// Package nillogger debits accounts from a service whose logger field the
// program's main sets: a replay's driver leaves it nil, and the handler
// logs before its first statement.
package nillogger

import (
	"database/sql"
	"log/slog"

	_ "modernc.org/sqlite"
)

// Service holds the dependencies main wires.
type Service struct {
	DB  *sql.DB
	Log *slog.Logger
}

// Debit takes amount from the account, checking a minimum the caller
// passes instead of the amount.
func (s *Service) Debit(id, amount, min int64) error {
	s.Log.Info("debit", "id", id, "amount", amount)
	if amount <= 0 || min < 0 {
		return nil
	}
	_, err := s.DB.Exec(`UPDATE accounts SET credits = credits - ? WHERE id = ? AND credits >= ?`, amount, id, min)
	return err
}
