package postgres

import (
	"errors"
	"reflect"
	"testing"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/internal/rules"
	"github.com/dbverify/dbverify/sqlparse/internal/sqltest"
)

func TestSQLiteStatements(t *testing.T) {
	tests := []struct {
		q, want string
		params  int
	}{
		{"UPDATE accounts SET balance = balance - ? WHERE id = ?",
			"UPDATE accounts SET balance = balance - $1 WHERE id = $2", 2},
		{"UPDATE accounts SET balance = balance - ?2 WHERE id = ?1 AND balance >= ?2",
			"UPDATE accounts SET balance = balance - $2 WHERE id = $1 AND balance >= $2", 2},
		{`UPDATE "accounts" SET "balance" = [balance] - ? WHERE ` + "`id`" + ` == ?`,
			"UPDATE accounts SET balance = balance - $1 WHERE id = $2", 2},
		{"INSERT INTO stock (sku, qty) VALUES (?, ?) ON CONFLICT(sku) DO UPDATE SET qty = qty + excluded.qty",
			"INSERT stock (sku, qty) VALUES ($1, $2) ON DUP qty = qty + $2", 2},
		{"INSERT INTO stock (sku, qty) VALUES (?, ?) ON CONFLICT DO NOTHING",
			"INSERT IGNORE stock (sku, qty) VALUES ($1, $2)", 2},
		{"INSERT OR REPLACE INTO stock (sku, qty) VALUES (?, ?)",
			"INSERT REPLACE stock (sku, qty) VALUES ($1, $2)", 2},
		{"REPLACE INTO stock (sku, qty) VALUES (?, ?)",
			"INSERT REPLACE stock (sku, qty) VALUES ($1, $2)", 2},
		{"insert or ignore into stock (sku, qty) values (?, 0)",
			"INSERT IGNORE stock (sku, qty) VALUES ($1, 0)", 1},
		{"INSERT OR ABORT INTO stock (sku, qty) VALUES (?, ?)",
			"INSERT stock (sku, qty) VALUES ($1, $2)", 2},
		{"UPDATE stock SET qty = iif(qty > ?, qty - ?, 0) WHERE sku = ?",
			"UPDATE stock SET qty = CASE WHEN qty > $1 THEN qty - $2 ELSE 0 END WHERE sku = $3", 3},
		{"UPDATE stock SET qty = max(qty - ?, 0) WHERE sku = ?",
			"UPDATE stock SET qty = CASE WHEN qty - $1 IS NULL THEN NULL WHEN qty - $1 >= 0 THEN qty - $1 ELSE 0 END WHERE sku = $2", 2},
		{"UPDATE stock SET qty = ifnull(reserved, 0) WHERE sku = :sku",
			"UPDATE stock SET qty = CASE WHEN reserved IS NOT NULL THEN reserved ELSE 0 END WHERE sku = $1", 1},
		{"UPDATE stock SET qty = qty - s.n FROM shipments AS s WHERE s.sku = stock.sku AND stock.sku = ?",
			"", 1},
		{"DELETE FROM stock WHERE qty = 0 RETURNING sku", "DELETE stock WHERE qty = 0", 0},
		{"UPDATE stock SET qty = qty - $2 WHERE sku = $1", "UPDATE stock SET qty = qty - $2 WHERE sku = $1", 2},
		{"UPDATE stock SET qty = 0 WHERE sku IS ? AND note IS NOT 'x' AND bin IS NULL AND isle is not null",
			"UPDATE stock SET qty = 0 WHERE NOT CASE WHEN sku IS NULL THEN $1 IS NOT NULL WHEN $1 IS NULL THEN TRUE ELSE sku <> $1 END AND CASE WHEN note IS NULL THEN TRUE ELSE note <> 'x' END AND bin IS NULL AND isle IS NOT NULL", 1},
		{"UPDATE stock SET qty = 0 WHERE sku GLOB ?", "UPDATE stock SET qty = 0 WHERE sku LIKE $1", 1},
		{"BEGIN IMMEDIATE TRANSACTION", "", 0},
		{"PRAGMA foreign_keys = ON", "", 0},
		{"SAVEPOINT debit", "TX SAVEPOINT debit", 0},
		{"RELEASE debit", "TX RELEASE debit", 0},
		{"ROLLBACK TRANSACTION TO SAVEPOINT debit", "TX ROLLBACK TO debit", 0},
		{"SELECT max(qty, reserved) FROM stock WHERE sku = ?", "SELECT CASE WHEN qty IS NULL OR reserved IS NULL THEN NULL WHEN qty >= reserved THEN qty ELSE reserved END FROM stock WHERE sku = $1", 1},
		{"SELECT '?', \"a?\" FROM t -- ?\n WHERE x = ?", "SELECT '?', `a?` FROM t WHERE x = $1", 1},
	}
	for _, tt := range tests {
		r, err := ParseSQLite(tt.q)
		if err != nil {
			t.Errorf("parseSQLiteStmt(%q): %v", tt.q, err)
			continue
		}
		if got := sqltest.Describe(r.Stmt); tt.want != "" && got != tt.want {
			t.Errorf("parseSQLiteStmt(%q)\n got %s\nwant %s", tt.q, got, tt.want)
		}
		if r.NumParams != tt.params {
			t.Errorf("parseSQLiteStmt(%q): %d params, want %d", tt.q, r.NumParams, tt.params)
		}
	}
}

func TestSQLiteNamedParams(t *testing.T) {
	r, err := ParseSQLite("UPDATE t SET a = a - :amt WHERE id = @id AND a >= :amt")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"amt", "id"}; !reflect.DeepEqual(r.ParamNames, want) || r.NumParams != 2 {
		t.Errorf("names %v (%d params), want %v", r.ParamNames, r.NumParams, want)
	}
}

func TestSQLiteErrors(t *testing.T) {
	tests := []struct {
		q      string
		offset int
		unsup  bool
	}{
		{"UPDATE accounts SET balance = WHERE id = ?", 30, false},
		{"UPDATE t SET a = ?100 WHERE b = ? + frm x", 40, false},
		{"INSERT OR ROLLBACK INTO t (a) VALUES (?)", 0, true},
		{"UPDATE OR REPLACE t SET a = 1", 0, true},
	}
	for _, tt := range tests {
		_, err := parseSQLiteStmt(tt.q)
		var pe *rules.ParseError
		var ue *rules.UnsupportedError
		switch {
		case tt.unsup:
			if !errors.As(err, &ue) || ue.Query != tt.q {
				t.Errorf("parseSQLiteStmt(%q) = %v, want an rules.UnsupportedError", tt.q, err)
			}
		case !errors.As(err, &pe):
			t.Errorf("parseSQLiteStmt(%q) = %v, want a rules.ParseError", tt.q, err)
		case pe.Offset != tt.offset || pe.Query != tt.q:
			t.Errorf("parseSQLiteStmt(%q): error at %d (%v), want %d", tt.q, pe.Offset, pe, tt.offset)
		}
	}
}

func FuzzParseSQLite(f *testing.F) {
	for _, s := range []string{
		"INSERT INTO stock (sku, qty) VALUES (?1, max(?2, 0)) ON CONFLICT(sku) DO UPDATE SET qty = max(stock.qty + ?2, 0) RETURNING qty",
		"INSERT OR REPLACE INTO t (a, b) VALUES (:a, @b)",
		"UPDATE `t` SET [a] = iif(a IS ?, a, $2) WHERE b == ? -- ?\n",
		"REPLACE INTO t VALUES ('it''s ?', \"q?\")",
		"UPDATE OR IGNORE t SET a = a - 1 FROM u WHERE u.id = t.id",
		"BEGIN IMMEDIATE", "PRAGMA x", "SELECT ifnull(a, ?) FROM t WHERE c GLOB ?",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		r, err := ParseSQLite(q)
		var pe *rules.ParseError
		if errors.As(err, &pe) && (pe.Offset < 0 || pe.Offset > len(q) || pe.Query != q) {
			t.Fatalf("%q: error offset %d outside the query (%v)", q, pe.Offset, err)
		}
		if err != nil {
			return
		}
		if r.ParamNames != nil && len(r.ParamNames) != r.NumParams {
			t.Fatalf("%q: %d names for %d params", q, len(r.ParamNames), r.NumParams)
		}
		sqlir.RewriteStatement(r.Stmt, func(e sqlir.Expr) (sqlir.Expr, bool) {
			if p, ok := e.(*sqlir.Param); ok && (p.Index < 0 || p.Index >= r.NumParams) {
				t.Fatalf("%q: parameter index %d out of range (NumParams %d)", q, p.Index, r.NumParams)
			}
			return nil, false
		})
	})
}
