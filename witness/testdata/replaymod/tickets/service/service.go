// Package service sells tickets through package store.
package service

import (
	"context"

	"example.com/replaymod/tickets/store"
)

// Tickets is the ticket service.
type Tickets struct{ st *store.Store }

// New returns the service over st.
func New(st *store.Store) *Tickets { return &Tickets{st: st} }

// Cancel returns n tickets of the event; n comes from the client and is
// not checked against the tickets sold.
func (t *Tickets) Cancel(ctx context.Context, eventID, n int64) error {
	tx, err := t.st.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := t.st.AddSold(ctx, tx, eventID, -n); err != nil {
		return err
	}
	return tx.Commit()
}
