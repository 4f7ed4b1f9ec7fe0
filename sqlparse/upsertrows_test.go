package sqlparse

import (
	"testing"

	"github.com/dbverify/dbverify/sqlir"
)

// TestMultiRowUpsertExcluded: the DO UPDATE of a multi-row VALUES upsert
// reads each row's own values for EXCLUDED.col (the row model runs row i's
// conflict with OnConflictRows[i]); a one-row upsert keeps them in
// OnConflict as before.
func TestMultiRowUpsertExcluded(t *testing.T) {
	for _, tc := range []struct {
		d       Dialect
		query   string
		rows    int
		guarded bool
	}{
		{Postgres, "INSERT INTO stock (sku, qty) VALUES ($1, $2), ($3, $4) ON CONFLICT (sku) DO UPDATE SET qty = stock.qty + excluded.qty", 2, false},
		{SQLite, "INSERT INTO stock (sku, qty) VALUES (?, ?), (?, ?), (?, ?) ON CONFLICT (sku) DO UPDATE SET qty = stock.qty + excluded.qty WHERE excluded.qty > 0", 3, true},
		{Postgres, "INSERT INTO stock (sku, qty) VALUES ($1, $2) ON CONFLICT (sku) DO UPDATE SET qty = stock.qty + excluded.qty", 0, false},
	} {
		st, err := Parse(tc.d, tc.query)
		if err != nil {
			t.Fatalf("%s: %v", tc.query, err)
		}
		q := st.(*sqlir.Insert)
		if len(q.OnConflictRows) != tc.rows || q.ConflictGuarded != tc.guarded {
			t.Fatalf("%s: %d row assignments (guarded %v), want %d (%v)", tc.query, len(q.OnConflictRows), q.ConflictGuarded, tc.rows, tc.guarded)
		}
		for i, set := range q.OnConflictRows {
			// qty = stock.qty + <row i's second value>, the placeholder 2i+1.
			if !mentionsParam(set[0].Value, 2*i+1) || sqlir.HasUnknown(set[0].Value) {
				t.Errorf("%s: row %d assigns %#v, want its own qty placeholder", tc.query, i, set[0].Value)
			}
		}
		if tc.rows > 1 && !sqlir.HasUnknown(q.OnConflict[0].Value) {
			t.Errorf("%s: OnConflict names EXCLUDED of no row in particular, got %#v", tc.query, q.OnConflict[0].Value)
		}
	}
}

func mentionsParam(e sqlir.Expr, i int) bool {
	found := false
	sqlir.Rewrite(e, func(x sqlir.Expr) (sqlir.Expr, bool) {
		if p, ok := x.(*sqlir.Param); ok && p.Index == i {
			found = true
		}
		return nil, false
	})
	return found
}
