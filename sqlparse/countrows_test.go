package sqlparse

import (
	"testing"

	"github.com/dbverify/dbverify/sqlir"
)

// TestCountRows: SELECT COUNT(*) (or COUNT of a constant) of one table
// with a plain WHERE is marked for the row model's count; other
// aggregates, joins, grouping, DISTINCT and LIMIT are not.
func TestCountRows(t *testing.T) {
	for _, tc := range []struct {
		d     Dialect
		query string
		count bool
	}{
		{SQLite, "SELECT COUNT(*) FROM orders WHERE customer_id = ?", true},
		{Postgres, "SELECT count(1) FROM orders WHERE customer_id = $1", true},
		{MySQL, "SELECT COUNT(*) FROM orders WHERE customer_id = ?", true},
		{MySQL, "SELECT COUNT(1) AS n FROM orders", true},
		{Postgres, "SELECT COUNT(note) FROM orders WHERE customer_id = $1", false},
		{Postgres, "SELECT COUNT(NULL) FROM orders", false},
		{Postgres, "SELECT COUNT(DISTINCT customer_id) FROM orders", false},
		{Postgres, "SELECT COUNT(*), SUM(total) FROM orders", false},
		{Postgres, "SELECT COUNT(*) FROM orders o JOIN customers c ON c.id = o.customer_id", false},
		{Postgres, "SELECT COUNT(*) FROM orders GROUP BY customer_id", false},
		{Postgres, "SELECT COUNT(*) FROM orders WHERE customer_id IN (SELECT id FROM customers)", false},
		{Postgres, "SELECT COUNT(*) FROM orders OFFSET 1", false},
		{Postgres, "SELECT COUNT(*) FILTER (WHERE total > 0) FROM orders", false},
		{MySQL, "SELECT COUNT(note) FROM orders", false},
		{MySQL, "SELECT COUNT(*) FROM orders LIMIT 0", false},
		{SQLite, "SELECT total FROM orders WHERE id = ?", false},
	} {
		st, err := Parse(tc.d, tc.query)
		if err != nil {
			t.Errorf("%s: %v", tc.query, err)
			continue
		}
		if sel := st.(*sqlir.Select); sel.CountRows != tc.count {
			t.Errorf("%v %s: CountRows = %v, want %v", tc.d, tc.query, sel.CountRows, tc.count)
		}
	}
}

// TestExistsRows: SELECT EXISTS (SELECT … FROM t WHERE w) of a plain
// single-table subquery names t and w for the row model; anything around
// it, or a subquery that joins, groups, or may skip rows, does not.
func TestExistsRows(t *testing.T) {
	for _, tc := range []struct {
		d      Dialect
		query  string
		exists bool
	}{
		{SQLite, "SELECT EXISTS(SELECT 1 FROM orders WHERE customer_id = ?)", true},
		{MySQL, "SELECT EXISTS (SELECT 1 FROM orders WHERE customer_id = ? AND total >= ?)", true},
		{MySQL, "SELECT EXISTS (SELECT 1 FROM orders WHERE customer_id = ?) FROM DUAL", true},
		{MySQL, "SELECT NOT EXISTS (SELECT 1 FROM orders WHERE customer_id = ?)", false},
		{MySQL, "SELECT EXISTS (SELECT 1 FROM orders WHERE customer_id = ?), 2", false},
		{MySQL, "SELECT EXISTS (SELECT 1 FROM orders o JOIN customers c ON c.id = o.customer_id)", false},
		{MySQL, "SELECT EXISTS (SELECT 1 FROM orders WHERE customer_id = ? LIMIT 1, 1)", false},
		{MySQL, "SELECT EXISTS (SELECT 1 FROM orders) FROM customers", false},
		{MySQL, "SELECT EXISTS (SELECT 1 FROM orders WHERE customer_id = ?) FOR UPDATE", false},
		{Postgres, "SELECT EXISTS (SELECT * FROM orders WHERE customer_id = $1 AND total > 0 LIMIT 1)", true},
		{Postgres, "SELECT NOT EXISTS (SELECT 1 FROM orders WHERE customer_id = $1)", false},
		{Postgres, "SELECT EXISTS (SELECT 1 FROM orders WHERE customer_id = $1), 2", false},
		{Postgres, "SELECT EXISTS (SELECT 1 FROM orders o JOIN customers c ON c.id = o.customer_id)", false},
		{Postgres, "SELECT EXISTS (SELECT 1 FROM orders WHERE customer_id = $1 OFFSET 1)", false},
		{Postgres, "SELECT EXISTS (SELECT customer_id FROM orders GROUP BY customer_id)", false},
		{Postgres, "SELECT EXISTS (SELECT 1 FROM orders WHERE customer_id IN (SELECT id FROM customers))", false},
		{Postgres, "SELECT EXISTS (SELECT 1 FROM orders) FROM customers", false},
	} {
		st, err := Parse(tc.d, tc.query)
		if err != nil {
			t.Errorf("%s: %v", tc.query, err)
			continue
		}
		sel := st.(*sqlir.Select)
		if sel.ExistsRows != tc.exists {
			t.Errorf("%v %s: ExistsRows = %v, want %v", tc.d, tc.query, sel.ExistsRows, tc.exists)
			continue
		}
		if tc.exists && (sel.Table != "orders" || !sel.Complex || sel.Where == nil) {
			t.Errorf("%s: table %q, complex %v, where %v: want orders, the subquery's WHERE", tc.query, sel.Table, sel.Complex, sel.Where)
		}
	}
}
