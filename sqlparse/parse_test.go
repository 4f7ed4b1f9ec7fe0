package sqlparse

import (
	"slices"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/internal/rules"
	"github.com/dbverify/dbverify/sqlparse/internal/sqltest"
)

func TestSQLiteKeepsOldValuesInSET(t *testing.T) {
	st, err := Parse(SQLite, "UPDATE t SET a = a + 1, b = a")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sqltest.Describe(st), "UPDATE t SET a = a + 1, b = a"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestDialects(t *testing.T) {
	for name, want := range map[string]Dialect{"mysql": MySQL, "MariaDB": MySQL, "sqlite3": SQLite, "postgresql": Postgres, "pg": Postgres} {
		d, err := ParseDialect(name)
		if err != nil || d != want {
			t.Errorf("ParseDialect(%q) = %v, %v; want %v", name, d, err, want)
		}
	}
	if _, err := ParseDialect("oracle"); err == nil {
		t.Error("ParseDialect(oracle) succeeded")
	}
	if MySQL.String() != "mysql" || Postgres.String() != "postgres" {
		t.Error("Dialect.String")
	}
	if st, err := Parse(Postgres, "SELECT 1"); err != nil || sqltest.Describe(st) != "SELECT 1 FROM " {
		t.Errorf("Parse(Postgres) = %v, %v", st, err)
	}
	if _, err := Parse(Dialect(42), "SELECT 1"); err == nil {
		t.Error("unknown dialect accepted")
	}
}

// TestSkipsRows: a read that returns no row says that no row matches
// only without OFFSET and with no LIMIT or a positive literal one; the
// row model relies on the flag (a QueryRow's sql.ErrNoRows).
func TestSkipsRows(t *testing.T) {
	for _, tc := range []struct {
		d     Dialect
		query string
		skips bool
	}{
		{Postgres, "SELECT a FROM t WHERE id = $1", false},
		{Postgres, "SELECT a FROM t WHERE id = $1 LIMIT 1", false},
		{Postgres, "SELECT a FROM t WHERE id = $1 LIMIT 1 FOR UPDATE", false},
		{Postgres, "SELECT a FROM t WHERE id = $1 LIMIT 0", true},
		{Postgres, "SELECT a FROM t WHERE id = $1 LIMIT $2", true},
		{Postgres, "SELECT a FROM t WHERE id = $1 OFFSET 1", true},
		{Postgres, "SELECT a FROM t LIMIT 1 OFFSET $1", true},
		{SQLite, "SELECT a FROM t WHERE id = ? LIMIT 1", false},
		{SQLite, "SELECT a FROM t WHERE id = ? LIMIT 1 OFFSET 2", true},
		{MySQL, "SELECT a FROM t WHERE id = ? LIMIT 1", false},
		{MySQL, "SELECT a FROM t WHERE id = ?", false},
		{MySQL, "SELECT a FROM t WHERE id = ? LIMIT 0", true},
		{MySQL, "SELECT a FROM t WHERE id = ? LIMIT ?", true},
		{MySQL, "SELECT a FROM t WHERE id = ? LIMIT 2, 1", true},
		{MySQL, "SELECT a FROM t WHERE id = ? LIMIT 1 OFFSET 3", true},
	} {
		st, err := Parse(tc.d, tc.query)
		if err != nil {
			t.Errorf("%s: %v", tc.query, err)
			continue
		}
		sel, ok := st.(*sqlir.Select)
		if !ok {
			t.Errorf("%s: parsed as %T", tc.query, st)
			continue
		}
		if sel.SkipsRows != tc.skips {
			t.Errorf("%v %s: SkipsRows = %v, want %v", tc.d, tc.query, sel.SkipsRows, tc.skips)
		}
	}
}

// TestOrderBy: a single-table SELECT keeps its ORDER BY terms (an
// output alias or position read as its item) and a literal LIMIT, which
// the row model uses for the first row of the order; a Complex one
// keeps none.
func TestOrderBy(t *testing.T) {
	for _, tc := range []struct {
		d     Dialect
		query string
		terms string
		limit int64
		skip  bool
	}{
		{Postgres, "SELECT qty FROM lots WHERE sku = $1 ORDER BY qty ASC LIMIT 1", "qty", 1, false},
		{Postgres, "SELECT qty AS q, id FROM lots ORDER BY q DESC, 2 LIMIT 3", "qty DESC, id", 3, false},
		{Postgres, "SELECT qty FROM lots ORDER BY qty NULLS FIRST LIMIT 1 OFFSET 1", "qty", 0, false},
		{Postgres, "SELECT id FROM lots ORDER BY qty LIMIT 1 FOR UPDATE SKIP LOCKED", "qty", 1, true},
		{Postgres, "SELECT min(qty) FROM lots ORDER BY 1", "", 0, false},
		{SQLite, "SELECT qty FROM lots WHERE sku = ? ORDER BY qty DESC LIMIT 1", "qty DESC", 1, false},
		{MySQL, "SELECT qty FROM lots WHERE sku = ? ORDER BY qty DESC LIMIT 1", "qty DESC", 1, false},
		{MySQL, "SELECT qty FROM lots ORDER BY 5 LIMIT 1 FOR UPDATE SKIP LOCKED", "ORDER BY position", 1, true},
		{MySQL, "SELECT qty FROM lots ORDER BY qty LIMIT 2, 1", "qty", 0, false},
	} {
		st, err := Parse(tc.d, tc.query)
		if err != nil {
			t.Errorf("%s: %v", tc.query, err)
			continue
		}
		sel := st.(*sqlir.Select)
		var terms []string
		for _, o := range sel.OrderBy {
			s := rules.Format(o.Expr)
			if u, ok := o.Expr.(*sqlir.Unknown); ok {
				s = u.Text
			}
			if o.Desc {
				s += " DESC"
			}
			terms = append(terms, s)
		}
		if got := strings.Join(terms, ", "); got != tc.terms || sel.Limit != tc.limit || sel.SkipLocked != tc.skip {
			t.Errorf("%v %s: ORDER BY %q LIMIT %d skip locked %v, want %q %d %v", tc.d, tc.query, got, sel.Limit, sel.SkipLocked, tc.terms, tc.limit, tc.skip)
		}
	}
}

// TestJoinedUpdate: an UPDATE that joins exactly one other base table
// keeps, besides its approximated reading, the exact one (the joined
// table's conjuncts apart, its columns named); outer joins, several
// tables and self-joins keep none.
func TestJoinedUpdate(t *testing.T) {
	for _, tc := range []struct {
		d                   Dialect
		query               string
		table, where, other string
		set                 string
	}{
		{Postgres, "UPDATE wallets w SET points = w.points - p.cost FROM prices p WHERE p.sku = $2 AND w.user_id = $1 AND w.points >= p.cost",
			"prices", "prices.sku = $2", "wallets.user_id = $1 AND wallets.points >= prices.cost", "points = wallets.points - prices.cost"},
		{SQLite, "UPDATE wallets SET points = points - prices.cost FROM prices WHERE prices.sku = ?2 AND wallets.user_id = ?1",
			"prices", "prices.sku = $2", "wallets.user_id = $1", "points = points - prices.cost"},
		{MySQL, "UPDATE wallets w JOIN prices p ON p.sku = ? SET w.points = w.points - p.cost WHERE w.user_id = ?",
			"prices", "prices.sku = $1", "wallets.user_id = $2", "points = wallets.points - prices.cost"},
		{MySQL, "UPDATE wallets w, prices p SET w.points = w.points - p.cost WHERE p.sku = ? AND w.user_id = ?",
			"prices", "prices.sku = $1", "wallets.user_id = $2", "points = wallets.points - prices.cost"},
		{MySQL, "UPDATE wallets w LEFT JOIN prices p ON p.sku = ? SET w.points = w.points - 1 WHERE w.user_id = ?", "", "", "", ""},
		{Postgres, "UPDATE wallets w SET points = 0 FROM prices p, tiers t WHERE p.sku = $1", "", "", "", ""},
		// A self-join (adv12 m11): the joined instance keeps its alias.
		{Postgres, "UPDATE wallets w SET points = o.points FROM wallets o WHERE o.user_id = $1",
			"wallets as o", "o.user_id = $1", "TRUE", "points = o.points"},
		{Postgres, "UPDATE accounts a SET balance = a.balance - $3 FROM accounts b WHERE a.id = $1 AND b.id = $2 AND b.balance >= $3",
			"accounts as b", "b.id = $2 AND b.balance >= $3", "accounts.id = $1", "balance = accounts.balance - $3"},
		{SQLite, "UPDATE accounts AS a SET balance = a.balance + b.balance FROM accounts AS b WHERE a.id = ?1 AND b.id = ?2",
			"accounts as b", "b.id = $2", "accounts.id = $1", "balance = accounts.balance + b.balance"},
		{Postgres, "UPDATE accounts a SET balance = 0 FROM accounts WHERE accounts.id = $1", "", "", "", ""},
	} {
		st, err := Parse(tc.d, tc.query)
		if err != nil {
			t.Errorf("%s: %v", tc.query, err)
			continue
		}
		j := st.(*sqlir.Update).Join
		if j == nil {
			if tc.table != "" {
				t.Errorf("%v %s: no joined reading", tc.d, tc.query)
			}
			continue
		}
		var set []string
		for _, a := range j.Set {
			set = append(set, a.Col+" = "+rules.Format(a.Value))
		}
		table := j.Table
		if j.Alias != "" {
			table += " as " + j.Alias
		}
		got := []string{table, rules.Format(j.Where), rules.Format(j.TargetWhere), strings.Join(set, ", ")}
		want := []string{tc.table, tc.where, tc.other, tc.set}
		if !slices.Equal(got, want) {
			t.Errorf("%v %s:\n got %q\nwant %q", tc.d, tc.query, got, want)
		}
	}
}

// INSERT … SELECT keeps its SELECT (the source row the model evaluates
// the select list on), in every dialect, and the INSERT's own scope:
// EXCLUDED / VALUES() of the conflict clause and RETURNING still refer to
// the inserted row.
func TestInsertSelectSource(t *testing.T) {
	for _, tt := range []struct {
		d          Dialect
		q          string
		items      []string
		where, dup string
	}{
		{Postgres, "INSERT INTO lines (order_id, price) SELECT $1, p.price - $3 FROM products p WHERE p.sku = $2 ON CONFLICT (order_id) DO UPDATE SET price = EXCLUDED.price",
			[]string{"$1", "products.price - $3"}, "products.sku = $2", "price = excluded.price"},
		{MySQL, "INSERT INTO lines (order_id, price) SELECT ?, price - ? FROM products WHERE sku = ? ON DUPLICATE KEY UPDATE price = price + 1",
			[]string{"$1", "price - $2"}, "sku = $3", "price = price + 1"},
		{SQLite, "INSERT INTO lines (order_id, price) SELECT ?, price FROM products WHERE sku = ?",
			[]string{"$1", "price"}, "sku = $2", ""},
	} {
		st, err := Parse(tt.d, tt.q)
		if err != nil {
			t.Fatalf("%s: %v", tt.q, err)
		}
		ins, ok := st.(*sqlir.Insert)
		if !ok || !ins.FromSelect || ins.Source == nil {
			t.Fatalf("%s: %#v, want an INSERT … SELECT with its source", tt.q, st)
		}
		src := ins.Source
		if src.Table != "products" || src.Complex || len(src.Columns) != len(tt.items) {
			t.Fatalf("%s: source %s", tt.q, sqltest.Describe(src))
		}
		for i, it := range src.Columns {
			if got := rules.Format(it.Expr); got != tt.items[i] {
				t.Errorf("%s: item %d = %s, want %s", tt.q, i+1, got, tt.items[i])
			}
		}
		if got := rules.Format(src.Where); got != tt.where {
			t.Errorf("%s: WHERE %s, want %s", tt.q, got, tt.where)
		}
		if tt.dup != "" && (len(ins.OnConflict) != 1 || ins.OnConflict[0].Col+" = "+rules.Format(ins.OnConflict[0].Value) != tt.dup) {
			t.Errorf("%s: conflict clause %s, want %s", tt.q, sqltest.Describe(ins), tt.dup)
		}
		if ins.Table != "lines" {
			t.Errorf("%s: table %s", tt.q, ins.Table)
		}
	}
}
