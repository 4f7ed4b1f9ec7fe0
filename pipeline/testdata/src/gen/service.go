// Package gen has sqlc-generated queries, one called by the service and
// one called by no one.
package gen

import (
	"context"
	"errors"
)

// Service pays through the generated queries.
type Service struct{ Q *Queries }

// Pay credits a positive amount.
func (s *Service) Pay(ctx context.Context, id, amount int64) error {
	if amount <= 0 {
		return errors.New("pay: amount must be positive")
	}
	return s.Q.AddBalance(ctx, id, amount)
}
