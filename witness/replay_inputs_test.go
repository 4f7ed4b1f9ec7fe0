package witness

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
)

func TestHTTPInputs(t *testing.T) {
	tests := []struct {
		name  string
		in    map[string]string
		steps []CexStep
		want  map[string]string
	}{
		{
			name: "path value and JSON body",
			in:   map[string]string{`PathValue(_, "id")`: "2", `ParseInt(PathValue(_, "id"), 10, 64).0`: "2"},
			steps: []CexStep{{Kind: "call", Text: "if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Amount <= 0 {",
				Values: map[string]string{"req.Amount": "1", "req.AccountID": "7"}}},
			want: map[string]string{"$http.path.id": "2", "$http.body": `{"AccountID":7,"Amount":1,"account_id":7}`,
				"$http.json.AccountID": "7", "$http.json.Amount": "1"},
		},
		{
			name: "json.Unmarshal",
			steps: []CexStep{{Kind: "call", Text: "if err := json.Unmarshal(body, &in); err != nil {",
				Values: map[string]string{"in.Qty": "3"}}},
			want: map[string]string{"$http.body": `{"Qty":3}`, "$http.json.Qty": "3"},
		},
		{
			name: "the parsed value wins over the text",
			in: map[string]string{`Param(_, "id")`: "2", `QueryParam(_, "points")`: "0",
				`ParseInt(QueryParam(_, "points"), 10, 64).0`: "-1", `ParseInt(QueryParam(_, "points"), 10, 64).1`: "true"},
			want: map[string]string{"$http.path.id": "2", "$http.query.points": "-1"},
		},
		{
			name: "fiber params, query and body",
			in:   map[string]string{`Params(_, "id")`: "2", `Query(_, "plan")`: "1", `ParseInt(Params(_, "id"), 10, 64).0`: "2"},
			steps: []CexStep{{Kind: "call", Text: "if err := c.BodyParser(&req); err != nil {",
				Values: map[string]string{"req.Qty": "3"}}},
			want: map[string]string{"$http.path.id": "2", "$http.query.plan": "1", "$http.body": `{"Qty":3}`, "$http.json.Qty": "3"},
		},
		{
			name: "mux vars, query and form",
			in:   map[string]string{`Vars(_)["id"]`: "4", `Get(_, "amt")`: "1", `PostForm(_, "amount")`: "3", "amount": "9"},
			want: map[string]string{"$http.path.id": "4", "$http.query.amt": "1", "$http.form.amount": "3"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := HTTPInputs(tc.in, tc.steps)
			if body, ok := got["$http.body"]; ok {
				var v any
				if err := json.Unmarshal([]byte(body), &v); err != nil {
					t.Errorf("body %q is not JSON: %v", body, err)
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("HTTPInputs = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestParsedInputs(t *testing.T) {
	steps := []CexStep{{Kind: "call", Text: "if _, err := fmt.Sscan(amountField, &amt); err != nil {", Values: map[string]string{"amt": "1"}}}
	in := map[string]string{"amountField": "0", "id": "2", "s": "x", "Atoi(s).0": "5"}
	want := map[string]string{"amountField": "1", "s": "5"}
	if got := ParsedInputs(in, steps); !reflect.DeepEqual(got, want) {
		t.Errorf("ParsedInputs = %v, want %v", got, want)
	}
}

// TestDriverInputsPassTextAsPrinted: a text input the trace prints as a
// Go string that parses to its parsed value is passed as printed (the
// program compared "00" with "0" before parsing it), and an integer
// input whose value is the code of a canonical number string stays a
// number (AddLine(db, orderID int64, q string) with `q == "0"`, adv9 m12).
func TestDriverInputsPassTextAsPrinted(t *testing.T) {
	cex := &Counterexample{Inputs: map[string]string{
		"orderID": "0", "q": `"00"`, "ParseInt(q, 10, 64).0": "0", "ParseInt(q, 10, 64).1": "false",
		`FormValue(_, "qty")`: `"007"`, `ParseInt(FormValue(_, "qty"), 10, 64).0`: "7",
		"s": `"x"`, "Atoi(s).0": "5",
	}}
	got := DriverInputs(cex, []string{"0", "x"})
	for k, want := range map[string]string{"orderID": "0", "q": `"00"`, "$http.query.qty": `"007"`, "s": "5"} {
		if got[k] != want {
			t.Errorf("input %s = %s, want %s (all: %v)", k, got[k], want, got)
		}
	}
}

func TestReplayInputsKeepsMapKeys(t *testing.T) {
	got := replayInputs(map[string]string{`Vars(_)["id"]`: "2", "len(Vars(_))": "0", `ParseInt(Vars(_)["id"], 10, 64).0`: "2"})
	if got[`Vars(_)["id"]`] != "2" || got[`ParseInt(Vars(_)["id"], 10, 64).0`] != "2" {
		t.Errorf("replayInputs = %v: a map's key read as a slice element", got)
	}
}

func TestOmittedRows(t *testing.T) {
	accounts := &Schema{Tables: map[string]*sqlir.Table{
		"accounts": {Name: "accounts", Columns: []sqlir.Column{{Name: "id"}, {Name: "balance"}}, Keys: [][]string{{"id"}}},
	}}
	products := &Schema{Tables: map[string]*sqlir.Table{
		"products": {Name: "products", Columns: []sqlir.Column{{Name: "sku", Type: "VARCHAR(255)"}, {Name: "stock"}}},
	}}
	reservations := &Schema{Tables: map[string]*sqlir.Table{
		"reservations": {Name: "reservations", Columns: []sqlir.Column{{Name: "id", Type: "bigserial"}, {Name: "item_id", Type: "bigint"}, {Name: "qty", Type: "bigint"}}, Keys: [][]string{{"id"}}},
	}}
	release := "DELETE FROM reservations WHERE id = $1 RETURNING item_id, qty"
	take := "UPDATE reservations SET qty = qty - $1 WHERE id = $2 RETURNING item_id, qty"
	debit := "UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?"
	ship := "UPDATE products SET stock = stock - ? WHERE sku = ? AND stock >= ?"
	tests := []struct {
		name   string
		s      *Schema
		steps  []CexStep
		seeded []Row
		ran    []Statement
		want   []Row
	}{
		{
			name:   "the sender row of a transfer",
			s:      accounts,
			steps:  []CexStep{{Kind: "sql", Text: debit, Position: "t.go:3", Values: map[string]string{"rowsAffected": "1", "err": "false"}}},
			seeded: []Row{{Table: "accounts", Values: map[string]string{"id": "4", "balance": "0"}}},
			ran:    []Statement{{SQL: "BEGIN"}, {SQL: "UPDATE accounts\n\tSET balance = balance - ? WHERE id = ? AND balance >= ?", Args: []string{"-1", "2", "-1"}}},
			want:   []Row{{Table: "accounts", Values: map[string]string{"id": "2", "balance": "0"}}},
		},
		{
			name:   "a second row with the key of a table without one",
			s:      products,
			steps:  []CexStep{{Kind: "sql", Text: ship, Values: map[string]string{"rowsAffected": "1"}}},
			seeded: []Row{{Table: "products", Values: map[string]string{"sku": "2", "stock": "0"}}},
			ran:    []Statement{{SQL: ship, Args: []string{"1", "2", "1"}}},
			want:   []Row{{Table: "products", Values: map[string]string{"sku": "2", "stock": "1"}}},
		},
		{
			name:   "a row the seeded rows already key",
			s:      accounts,
			steps:  []CexStep{{Kind: "sql", Text: debit, Values: map[string]string{"rowsAffected": "1"}}},
			seeded: []Row{{Table: "accounts", Values: map[string]string{"id": "2", "balance": "0"}}},
			ran:    []Statement{{SQL: debit, Args: []string{"5", "2", "5"}}},
		},
		{
			name:   "no row affected",
			s:      accounts,
			steps:  []CexStep{{Kind: "sql", Text: debit, Values: map[string]string{"rowsAffected": "0"}}},
			seeded: []Row{{Table: "accounts", Values: map[string]string{"id": "4", "balance": "0"}}},
			ran:    []Statement{{SQL: debit, Args: []string{"1", "2", "1"}}},
		},
		{
			name: "an UPDATE … RETURNING whose Scan found a row",
			s:    accounts,
			steps: []CexStep{
				{Kind: "sql", Text: "-- name: Add :one\nUPDATE accounts SET balance = balance + $1 WHERE id = $2 RETURNING balance"},
				{Kind: "sql", Text: "err := row.Scan(", Values: map[string]string{"err": "false"}},
			},
			seeded: []Row{{Table: "accounts", Values: map[string]string{"id": "14", "balance": "0"}}},
			ran:    []Statement{{SQL: "-- name: Add :one\nUPDATE accounts SET balance = balance + $1 WHERE id = $2 RETURNING balance", Args: []string{"1", "13"}}},
			want:   []Row{{Table: "accounts", Values: map[string]string{"id": "13", "balance": "0"}}},
		},
		{
			// The deleted row holds what its RETURNING handed to the
			// Scan (the trace's values), not zeros: the run adds qty
			// to another table's row.
			name: "a DELETE … RETURNING row with the values the Scan read",
			s:    reservations,
			steps: []CexStep{
				{Kind: "sql", Position: "r.go:26", Text: release, Values: map[string]string{"err": "false"}},
				{Kind: "sql", Position: "r.go:26", Text: "err = tx.QueryRowContext(ctx, \"" + release + "\", id).Scan(&item, &qty)",
					Values: map[string]string{"err": "false", "item": "3", "qty": "16"}},
			},
			ran:  []Statement{{SQL: "BEGIN"}, {SQL: release, Args: []string{"7"}}},
			want: []Row{{Table: "reservations", Values: map[string]string{"id": "7", "item_id": "3", "qty": "16"}}},
		},
		{
			// sqlc's form: the Scan on its own line, into fields; an
			// UPDATE's RETURNING gives a column the SET leaves as it
			// was, and one it adds to as it is after the addition.
			name: "an UPDATE … RETURNING row with the values before its SET",
			s:    reservations,
			steps: []CexStep{
				{Kind: "sql", Position: "q.go:20", Text: take},
				{Kind: "sql", Position: "q.go:22", Text: "err := row.Scan(&i.ItemID, &i.Qty)", Values: map[string]string{"err": "false", "i.ItemID": "5", "i.Qty": "2"}},
			},
			ran:  []Statement{{SQL: take, Args: []string{"1", "9"}}},
			want: []Row{{Table: "reservations", Values: map[string]string{"id": "9", "item_id": "5", "qty": "3"}}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := sqlparse.MySQL
			if strings.Contains(tc.steps[0].Text, "$1") {
				d = sqlparse.Postgres
			}
			cex := &Counterexample{Steps: tc.steps}
			got, notes := cex.OmittedRows(d, tc.s, tc.seeded, tc.ran)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("OmittedRows = %v, want %v", got, tc.want)
			}
			if len(notes) != len(tc.want) {
				t.Errorf("notes = %v, want one per row", notes)
			}
		})
	}
}

func TestSQLiteSeeding(t *testing.T) {
	s := &Schema{Tables: map[string]*sqlir.Table{
		"stock": {Name: "stock", Columns: []sqlir.Column{{Name: "sku", Type: "TEXT"}, {Name: "qty", Type: "INTEGER"}, {Name: "note"}}},
	}}
	r := Row{Table: "stock", Values: map[string]string{"sku": "007", "qty": "-3", "note": "1/2"}}
	if got, want := InsertSQLFor(sqlparse.SQLite, s, r), `INSERT INTO "stock" ("note", "qty", "sku") VALUES (0.5000000000, -3, '007')`; got != want {
		t.Errorf("SQLite INSERT = %q, want %q", got, want)
	}
	if got, want := InsertSQLFor(sqlparse.MySQL, s, r), "INSERT INTO `stock` (`note`, `qty`, `sku`) VALUES ('0.5000000000', '-3', '007')"; got != want {
		t.Errorf("MySQL INSERT = %q, want %q", got, want)
	}
}

func TestDDLForMySQLRewritesSerial(t *testing.T) {
	s := &Schema{DDL: "CREATE TABLE returns (id BIGSERIAL PRIMARY KEY, n serial);"}
	if got, want := s.DDLFor(sqlparse.MySQL), "CREATE TABLE returns (id BIGINT AUTO_INCREMENT UNIQUE PRIMARY KEY, n BIGINT AUTO_INCREMENT UNIQUE);"; got != want {
		t.Errorf("DDLFor(mysql) = %q, want %q", got, want)
	}
	if got := s.DDLFor(sqlparse.Postgres); got != s.DDL {
		t.Errorf("DDLFor(postgres) changed the DDL: %q", got)
	}
}

func TestSplitClosure(t *testing.T) {
	tests := []struct {
		key, outer string
		n          int
		err        bool
	}{
		{"makeWithdraw$1", "makeWithdraw", 1, false},
		{"(*Server).routes$2", "(*Server).routes", 2, false},
		{"(*Store).Close", "(*Store).Close", 0, false},
		{"F$1$1", "", 0, true},
	}
	for _, tc := range tests {
		outer, n, err := splitClosure(tc.key)
		if (err != nil) != tc.err || outer != tc.outer || n != tc.n {
			t.Errorf("splitClosure(%q) = %q, %d, %v", tc.key, outer, n, err)
		}
	}
}

func TestSynthesizePostgresPlaceholderTypes(t *testing.T) {
	st, err := sqlparse.Parse(sqlparse.Postgres, "INSERT INTO stock_movements (warehouse_id, sku, delta, reason) VALUES ($1, $2, $3, CASE WHEN $3 > 0 THEN 'received' ELSE 'damaged' END)")
	if err != nil {
		t.Fatal(err)
	}
	s := Synthesize(sqlparse.Postgres, []sqlir.Statement{st}, nil, nil, nil, false)
	// $3 > 0 makes PostgreSQL type $3 integer: delta must be INTEGER;
	// reason holds the CASE's strings.
	for _, want := range []string{"delta INTEGER", "reason VARCHAR(255)", "warehouse_id BIGINT"} {
		if !strings.Contains(s.DDL, want) {
			t.Errorf("DDL lacks %q:\n%s", want, s.DDL)
		}
	}
}

func TestSynthesizeSQLiteKey(t *testing.T) {
	st, err := sqlparse.Parse(sqlparse.SQLite, "UPDATE balances SET cents = cents - ? WHERE id = ?")
	if err != nil {
		t.Fatal(err)
	}
	s := Synthesize(sqlparse.SQLite, []sqlir.Statement{st}, nil, nil, nil, false)
	if !strings.Contains(s.DDL, "id INTEGER PRIMARY KEY") || strings.Contains(s.DDL, "AUTO_INCREMENT") {
		t.Errorf("SQLite DDL without the rowid key:\n%s", s.DDL)
	}
}

// TestSeedingQuotes: the replay's own SQL names a table or column by a
// reserved word (MySQL's `order`) or with capitals (a PostgreSQL table
// declared "ordersDetails") as the schema created it.
func TestSeedingQuotes(t *testing.T) {
	s := &Schema{DDL: `CREATE TABLE "ordersDetails" ("orderId" INT, qty INT); CREATE TABLE Items (id INT)`, Tables: map[string]*sqlir.Table{
		"ordersdetails": {Name: "ordersDetails", Columns: []sqlir.Column{{Name: "orderId", Type: "int"}, {Name: "qty", Type: "int"}}},
		"items":         {Name: "Items", Columns: []sqlir.Column{{Name: "id", Type: "int"}}},
		"order":         {Name: "order", Columns: []sqlir.Column{{Name: "id", Type: "int"}}},
	}}
	r := Row{Table: "ordersdetails", Values: map[string]string{"orderid": "1", "qty": "2"}}
	if got, want := InsertSQLFor(sqlparse.Postgres, s, r), `INSERT INTO "ordersDetails" ("orderId", "qty") VALUES ('1', '2')`; got != want {
		t.Errorf("PostgreSQL INSERT = %q, want %q", got, want)
	}
	if got, want := s.TableSQL(sqlparse.Postgres, "items"), `"items"`; got != want {
		t.Errorf("an unquoted PostgreSQL name is folded: %q, want %q", got, want)
	}
	if got, want := s.TableSQL(sqlparse.MySQL, "ORDER"), "`order`"; got != want {
		t.Errorf("MySQL table = %q, want %q", got, want)
	}
	if got, want := s.TableSQL(sqlparse.Postgres, "shop.product_amount"), `"shop"."product_amount"`; got != want {
		t.Errorf("a qualified name = %q, want %q", got, want)
	}
}

// TestUnsetInputs: the counterexample's inputs the driver's call does not
// read are named with what the run used instead; slices' elements and
// lengths, pointers' nil-ness, request accessors and the harness's own
// inputs are not; nor is a pointer's "!= nil" true where the driver sets
// its fields (adv18: "could not set req != nil" of a request it passed).
func TestUnsetInputs(t *testing.T) {
	spec := &EntrySpec{
		Key:      "Handler$1",
		Inputs:   []Input{{Path: "ids[]", Kind: KindInt}, {Path: "req.Qty", Kind: KindInt}, {Path: "p != nil", Kind: KindBool}, {Path: "p", Kind: KindInt}},
		Captured: map[string]string{"minKeep": "Handler"},
		Approximations: []string{
			"opts (map[string]int) left at its zero value: a map[string]int",
		},
	}
	cex := &Counterexample{Inputs: map[string]string{
		"len(ids)": "2", "ids[i]": "3", "ids[1]": "4", "req.Qty": "1", "p != nil": "true", "*p": "5",
		`Get(_, "amount")`: `"1"`, `ParseInt(Get(_, "amount"), 10, 64).0`: "1", "$http.body": "{}",
		"minKeep": "-1", "opts": "0", "limit": "7",
		"req != nil": "true",                  // (set by setting req.Qty)
		"cfg != nil": "false", "cfg.Max": "1", // (cfg is no input the driver sets)
	}}
	var got []string
	for _, u := range spec.unsetInputs(cex) {
		got = append(got, u.String())
	}
	want := []string{
		"cfg != nil (the driver's call does not read it): ran with the value the call gives it",
		"cfg.Max (the driver's call does not read it): ran with the value the call gives it",
		"limit (the driver's call does not read it): ran with the value the call gives it",
		"minKeep (captured by Handler$1): ran with the value Handler gives it",
		"opts (map[string]int, a map[string]int): ran with its zero value",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("unset inputs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
