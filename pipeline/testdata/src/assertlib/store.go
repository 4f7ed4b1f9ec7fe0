// Package assertlib keeps a Journal that a type of the module (*dbJournal,
// which writes the database) and types of the standard library
// (*bytes.Buffer, *strings.Builder) implement. The interface call
// through the field runs the module's method only (the model inlines
// the module's code), but that is no reason to exclude the library's
// types from a later assertion: the field may hold a *bytes.Buffer, and
// then the unguarded UPDATE runs.
package assertlib

import (
	"bytes"
	"context"
	"database/sql"
)

type Journal interface {
	WriteString(s string) (int, error)
}

type dbJournal struct{ db *sql.DB }

func (j *dbJournal) WriteString(s string) (int, error) {
	_, err := j.db.ExecContext(context.Background(), "INSERT INTO journal (line) VALUES (?)", s)
	return len(s), err
}

type Service struct {
	Journal Journal
	db      *sql.DB
}

// Take notes the take, then, when the journal is only a buffer (a
// dry run), takes qty without checking the stock.
func (s *Service) Take(ctx context.Context, id, qty int64) error {
	if _, err := s.Journal.WriteString("take"); err != nil {
		return err
	}
	if _, ok := s.Journal.(*bytes.Buffer); ok {
		_, err := s.db.ExecContext(ctx, "UPDATE stocks SET quantity = quantity - ? WHERE id = ?", qty, id)
		return err
	}
	return nil
}
