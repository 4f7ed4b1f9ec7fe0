package mysql

import (
	"errors"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/sqlparse/internal/rules"
)

// TestAmbiguousOnDupSelect: INSERT … SELECT from the target table itself
// whose ON DUPLICATE KEY UPDATE reads a column (outside VALUES()) that
// names both tables' column fails every run on MariaDB 10.11 (error 1052,
// adv19 usability 7): unsupported, never modelled as succeeding. The
// forms MariaDB runs (checked on 10.11.19) parse.
func TestAmbiguousOnDupSelect(t *testing.T) {
	const ins = "INSERT INTO cart_items (cart_id, sku, qty) "
	rejected := []string{
		ins + "SELECT 1, sku, qty FROM cart_items WHERE cart_id = 2 ON DUPLICATE KEY UPDATE qty = qty + VALUES(qty)",
		ins + "SELECT 1, sku, qty FROM cart_items WHERE cart_id = 2 ON DUPLICATE KEY UPDATE qty = cart_items.qty + 1",
		ins + "SELECT 1, sku, qty FROM cart_items WHERE cart_id = 2 ON DUPLICATE KEY UPDATE cart_items.qty = cart_items.qty + VALUES(qty)",
		ins + "SELECT 1, c.sku, c.qty FROM cart_items c WHERE c.cart_id = 2 ON DUPLICATE KEY UPDATE qty = qty + VALUES(qty)",
	}
	for _, q := range rejected {
		_, err := parseStmt(q)
		var ue *rules.UnsupportedError
		if !errors.As(err, &ue) || !strings.Contains(ue.Reason, "ambiguous") {
			t.Errorf("Parse(%q) = %v, want an unsupported statement naming the ambiguous column", q, err)
		}
	}
	accepted := []string{
		ins + "SELECT 1, sku, qty FROM cart_items WHERE cart_id = 2 ON DUPLICATE KEY UPDATE qty = VALUES(qty)",
		ins + "SELECT 1, sku, qty FROM cart_items WHERE cart_id = 2 ON DUPLICATE KEY UPDATE qty = 5",
		ins + "SELECT 1, c.sku, c.qty FROM cart_items c WHERE c.cart_id = 2 ON DUPLICATE KEY UPDATE qty = cart_items.qty + VALUES(qty)",
		ins + "SELECT 1, c.sku, c.qty FROM cart_items c WHERE c.cart_id = 2 ON DUPLICATE KEY UPDATE qty = VALUES(qty)",
		ins + "VALUES (1, 10, 3) ON DUPLICATE KEY UPDATE qty = qty + VALUES(qty)",
	}
	for _, q := range accepted {
		if _, err := parseStmt(q); err != nil {
			t.Errorf("Parse(%q) = %v, want it parsed", q, err)
		}
	}
}
