// Package pg_ship_update_from_unsafe updates stock from a joined shipment row
// (PostgreSQL UPDATE … FROM) through pgx.
package pg_ship_update_from_unsafe

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"
)

type Warehouse struct{ pool *pgxpool.Pool }

func NewWarehouse(pool *pgxpool.Pool) *Warehouse { return &Warehouse{pool: pool} }

// Ship takes the shipped quantity off the shelf. Bug: nothing checks that
// the shelf holds that many.
func (w *Warehouse) Ship(ctx context.Context, shipmentID int64) error {
	_, err := w.pool.Exec(ctx, `UPDATE stock s SET qty = s.qty - sh.qty FROM shipments sh WHERE sh.id = $1 AND sh.sku = s.sku`, shipmentID)
	return err
}
