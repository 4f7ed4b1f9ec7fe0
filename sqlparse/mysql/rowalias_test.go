package mysql

import (
	"testing"

	"github.com/dbverify/dbverify/sqlparse/internal/sqltest"
)

func TestMySQLRowAlias(t *testing.T) {
	tests := []struct{ q, want string }{
		{"INSERT INTO stock (sku, qty) VALUES (?, ?) AS new ON DUPLICATE KEY UPDATE qty = stock.qty + new.qty",
			"INSERT stock (sku, qty) VALUES ($1, $2) ON DUP qty = stock.qty + $2"},
		{"INSERT INTO stock (sku, qty) VALUES (?, ?) AS n(s, q) ON DUPLICATE KEY UPDATE qty = qty + q",
			"INSERT stock (sku, qty) VALUES ($1, $2) ON DUP qty = qty + $2"},
		{"INSERT INTO `stock` (`sku`, `qty`) VALUES (?, ?) as `new` on duplicate key update `qty` = `qty` + `new`.`qty`, note = 'new.qty'",
			"INSERT stock (sku, qty) VALUES ($1, $2) ON DUP qty = qty + $2, note = 'new.qty'"},
	}
	for _, tt := range tests {
		st, err := parseStmt(tt.q)
		if err != nil {
			t.Errorf("parseStmt(%q): %v", tt.q, err)
			continue
		}
		if got := sqltest.Describe(st); got != tt.want {
			t.Errorf("parseStmt(%q)\n got %s\nwant %s", tt.q, got, tt.want)
		}
	}
}
