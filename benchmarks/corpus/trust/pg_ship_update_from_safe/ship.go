// Package pg_ship_update_from_safe updates stock from a joined shipment row
// (PostgreSQL UPDATE … FROM) through pgx.
package pg_ship_update_from_safe

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"
)

type Warehouse struct{ pool *pgxpool.Pool }

func NewWarehouse(pool *pgxpool.Pool) *Warehouse { return &Warehouse{pool: pool} }

// Ship takes one unit of the shipment's item off the shelf, if one is left.
func (w *Warehouse) Ship(ctx context.Context, shipmentID int64) error {
	_, err := w.pool.Exec(ctx, `UPDATE stock s SET qty = s.qty - 1 FROM shipments sh WHERE sh.id = $1 AND sh.sku = s.sku AND s.qty >= 1`, shipmentID)
	return err
}

// ShipAll takes the whole shipped quantity off the shelf when the shelf
// holds it: the guard relates the joined shipment row.
func (w *Warehouse) ShipAll(ctx context.Context, shipmentID int64) error {
	_, err := w.pool.Exec(ctx, `UPDATE stock s SET qty = s.qty - sh.qty FROM shipments sh WHERE sh.id = $1 AND sh.sku = s.sku AND s.qty >= sh.qty`, shipmentID)
	return err
}
