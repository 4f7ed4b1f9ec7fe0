package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestFindingFormats: a finding is a warning of its class in every
// format: "pos: warning[class]: message" in text, "findings" in JSON, a
// result of its class's rule at the statement with the related location
// in SARIF (tx-escape DBV004 with the BEGIN, lost-update DBV005 with the
// read, check-then-insert DBV006 with the read that found no row,
// order-dependence DBV007 with the other request's write; the driver
// lists the four rules), a ::warning annotation for GitHub.
func TestFindingFormats(t *testing.T) {
	rep := &Report{Results: []*Result{}, Findings: []Finding{{Class: FindingTxEscape, Entry: "m.Debit", Position: "store.go:32",
		Related: "store.go:17", Message: `"INSERT INTO audit …" runs on the pool while the transaction begun at store.go:17 is open`},
		{Class: FindingLostUpdate, Entry: "m.Reserve", Position: "stock.go:31", Related: "stock.go:25",
			Message: `"UPDATE products SET stock = $1 WHERE id = $2" writes back products.stock computed in Go from "SELECT stock FROM products WHERE id = $1" at stock.go:25`},
		{Class: FindingCheckInsert, Entry: "m.Redeem", Position: "coupon.go:40", Related: "coupon.go:33",
			Message: `"INSERT INTO redemptions (user_id, coupon_id) VALUES ($1, $2)" inserts a redemptions row after "SELECT count(*) FROM redemptions WHERE user_id = $1 AND coupon_id = $2" at coupon.go:33 found none`},
		{Class: FindingOrderDependence, Entry: "m.Deposit", Position: "store.go:26", Related: "store.go:46",
			Message: `Store.Deposit (id = 1, amount = 1) and Store.Double (id = 1) do not commute on accounts.balance`}}}
	want := map[Format][]string{
		Text: {"store.go:32: warning[tx-escape]: \"INSERT INTO audit …\" runs on the pool",
			"stock.go:31: warning[lost-update]: \"UPDATE products SET stock = $1 WHERE id = $2\" writes back products.stock",
			"coupon.go:40: warning[check-then-insert]: \"INSERT INTO redemptions",
			"store.go:26: warning[order-dependence]: Store.Deposit (id = 1, amount = 1) and Store.Double"},
		JSON: {`"findings": [`, `"class": "tx-escape"`, `"related": "store.go:17"`, `"class": "lost-update"`, `"related": "stock.go:25"`},
		SARIF: {`"id": "DBV004"`, `"ruleId": "DBV004"`, `"ruleIndex": 3`, `"relatedLocations"`, `"startLine": 32`,
			`"id": "DBV005"`, `"name": "LostUpdate"`, `"ruleId": "DBV005"`, `"ruleIndex": 4`, `"startLine": 31`, `"text": "the read whose value is written back"`,
			`"id": "DBV007"`, `"name": "OrderDependence"`, `"ruleId": "DBV007"`, `"ruleIndex": 6`, `"startLine": 46`, `"text": "the other request's write"`},
		GitHub: {"store.go,line=32,title=dbverify tx-escape::\"INSERT INTO audit", "stock.go,line=31,title=dbverify lost-update::\"UPDATE products",
			"coupon.go,line=40,title=dbverify check-then-insert::\"INSERT INTO redemptions",
			"store.go,line=26,title=dbverify order-dependence::Store.Deposit"},
	}
	for _, f := range Formats() {
		var b bytes.Buffer
		if err := f.Writer(Options{})(&b, rep); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, w := range want[f] {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s output lacks %q:\n%s", f, w, b.String())
			}
		}
	}
}
