// Code in the style of sqlc (sql_package: pgx/v5).

package shop

import (
	"context"
)

const getProductForUpdate = `-- name: GetProductForUpdate :one
SELECT id, name, stock FROM products
WHERE id = $1 LIMIT 1
FOR NO KEY UPDATE
`

type Product struct {
	ID    int64
	Name  string
	Stock int32
}

func (q *Queries) GetProductForUpdate(ctx context.Context, id int64) (Product, error) {
	row := q.db.QueryRow(ctx, getProductForUpdate, id)
	var i Product
	err := row.Scan(&i.ID, &i.Name, &i.Stock)
	return i, err
}

const takeStock = `-- name: TakeStock :execrows
UPDATE products SET stock = stock - $2
WHERE id = $1
`

type TakeStockParams struct {
	ID       int64
	Quantity int32
}

func (q *Queries) TakeStock(ctx context.Context, arg TakeStockParams) (int64, error) {
	result, err := q.db.Exec(ctx, takeStock, arg.ID, arg.Quantity)
	if err != nil {
		return 0, err
	}
	return result.RowsAffected(), nil
}

const createReservation = `-- name: CreateReservation :one
INSERT INTO reservations (product_id, quantity) VALUES ($1, $2)
RETURNING id
`

type CreateReservationParams struct {
	ProductID int64
	Quantity  int32
}

func (q *Queries) CreateReservation(ctx context.Context, arg CreateReservationParams) (int64, error) {
	row := q.db.QueryRow(ctx, createReservation, arg.ProductID, arg.Quantity)
	var id int64
	err := row.Scan(&id)
	return id, err
}
