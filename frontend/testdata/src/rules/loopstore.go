package rules

import (
	"context"
	"database/sql"
)

type loopDebit struct {
	ID, Amount int64
}

type loopDebits struct {
	Items []loopDebit
}

// FieldLoopStoreUnknown fills a struct's slice field in one loop and
// loopDebits its items in another: the field's content is stored around a
// loop, which the model does not track (it read the literal's length 0
// after the loop: no loopDebit, a wrong SAFE).
func FieldLoopStoreUnknown(ctx context.Context, db *sql.DB, req []loopDebit) error {
	d := loopDebits{Items: []loopDebit{}}
	for _, it := range req {
		d.Items = append(d.Items, it)
	}
	for _, it := range d.Items {
		if _, err := db.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ?", it.Amount, it.ID); err != nil {
			return err
		}
	}
	return nil
}
