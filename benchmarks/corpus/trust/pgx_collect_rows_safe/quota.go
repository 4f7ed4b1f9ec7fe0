// Package pgx_collect_rows_safe charges API usage against a plan's quota.
// The plan is read with pgx.CollectRows into structs and the charge is
// made only where it stays within the quota: the quota holds.
package pgx_collect_rows_safe

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// ErrOverQuota is returned when a charge would pass the plan's quota.
var ErrOverQuota = errors.New("quota: over the plan's quota")

// Plan is a row of plans.
type Plan struct {
	Used  int64 `db:"used"`
	Quota int64 `db:"quota"`
}

// Meter is the usage store.
type Meter struct{ pool *pgxpool.Pool }

// Charge adds units to the plan's usage when it stays within its quota.
func (m *Meter) Charge(ctx context.Context, plan, units int64) error {
	if units <= 0 || units > 10_000 {
		return errors.New("quota: bad units")
	}
	rows, err := m.pool.Query(ctx, `SELECT used, quota FROM plans WHERE id = $1`, plan)
	if err != nil {
		return err
	}
	plans, err := pgx.CollectRows(rows, pgx.RowToStructByName[Plan])
	if err != nil {
		return err
	}
	for _, p := range plans {
		if p.Used+units > p.Quota {
			return ErrOverQuota
		}
		_, err := m.pool.Exec(ctx, `UPDATE plans SET used = used + $1 WHERE id = $2`, units, plan)
		return err
	}
	return errors.New("quota: no such plan")
}
