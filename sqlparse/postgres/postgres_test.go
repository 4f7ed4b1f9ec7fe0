package postgres

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/internal/rules"
	"github.com/dbverify/dbverify/sqlparse/internal/sqltest"
)

// describePG is describe plus the Postgres-only parts: RETURNING and the
// ON CONFLICT target.
func describePG(st sqlir.Statement) string {
	var b strings.Builder
	b.WriteString(sqltest.Describe(st))
	var ret []sqlir.SelectItem
	switch s := st.(type) {
	case *sqlir.Update:
		ret = s.Returning
	case *sqlir.Delete:
		ret = s.Returning
	case *sqlir.Insert:
		ret = s.Returning
		if s.ConflictColumns != nil {
			fmt.Fprintf(&b, " CONFLICT(%s)", strings.Join(s.ConflictColumns, ", "))
		}
		if s.ConflictWhere != nil {
			fmt.Fprintf(&b, " WHERE %s", rules.Format(s.ConflictWhere))
		}
		if s.ConflictConstraint != "" {
			fmt.Fprintf(&b, " CONFLICT ON %s", s.ConflictConstraint)
		}
	}
	if len(ret) > 0 {
		var items []string
		for _, it := range ret {
			x := rules.Format(it.Expr)
			if it.Star {
				x = "STAR:" + x
			}
			if it.Alias != "" {
				x += " AS " + it.Alias
			}
			items = append(items, x)
		}
		fmt.Fprintf(&b, " RETURNING %s", strings.Join(items, ", "))
	}
	return b.String()
}

func mustParsePG(t *testing.T, q string) *rules.Result {
	t.Helper()
	r, err := Parse(q)
	if err != nil {
		t.Fatalf("parseStmt(%q): %v", q, err)
	}
	return r
}

func TestPostgresStatements(t *testing.T) {
	tests := []struct {
		name, query, want string
	}{
		// UPDATE
		{"update", "UPDATE accounts SET balance = balance - $1 WHERE id = $2",
			"UPDATE accounts SET balance = balance - $1 WHERE id = $2"},
		{"update no where", "update t set a = 1, b = 'x'", "UPDATE t SET a = 1, b = 'x'"},
		{"update trailing semicolon", "UPDATE t SET a = 1;", "UPDATE t SET a = 1"},
		{"update keeps old values in SET", "UPDATE t SET a = a + 1, b = a * 2", "UPDATE t SET a = a + 1, b = a * 2"},
		{"update schema-qualified", "UPDATE public.accounts SET balance = 0 WHERE public.accounts.id = 7",
			"UPDATE accounts SET balance = 0 WHERE accounts.id = 7"},
		{"update alias", "UPDATE accounts AS a SET balance = a.balance + $1 WHERE a.id = $2",
			"UPDATE accounts SET balance = accounts.balance + $1 WHERE accounts.id = $2"},
		{"update row assignment", "UPDATE accounts SET (balance, owner) = ($1, $2) WHERE id = $3",
			"UPDATE accounts SET balance = $1, owner = $2 WHERE id = $3"},
		{"update row assignment from subquery", "UPDATE t SET (a, b) = (SELECT x, y FROM u WHERE u.id = $1) WHERE id = $2",
			"UPDATE t SET a = column 1 of (SELECT x, y FROM u WHERE u.id = $1), b = column 2 of (SELECT x, y FROM u WHERE u.id = $1) WHERE id = $2"},
		{"update array element", "UPDATE t SET tags[1] = $1 WHERE id = $2", "UPDATE t SET tags = tags[…] := $1 WHERE id = $2"},
		{"update default", "UPDATE t SET a = DEFAULT", "UPDATE t SET a = DEFAULT"},
		// A data-modifying WITH whose SELECT lists its RETURNING's columns
		// (ctewrite.go).
		{"with update returning read back", "WITH d AS (UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1 RETURNING id, balance AS remaining) SELECT remaining, d.id FROM d",
			"UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1 RETURNING balance AS remaining, id"},
		{"with delete returning star read back", "WITH gone AS (DELETE FROM holds WHERE id = $1 RETURNING *) SELECT wallet_id, amount FROM gone",
			"DELETE holds WHERE id = $1 RETURNING wallet_id, amount"},
		{"with insert returning read back whole", "WITH n AS (INSERT INTO t (a) VALUES ($1) RETURNING id, a) SELECT * FROM n",
			"INSERT t (a) VALUES ($1) RETURNING id, a"},
		{"update returning", "UPDATE accounts SET balance = balance + $1 WHERE id = $2 RETURNING id, balance AS new_balance, balance * 2",
			"UPDATE accounts SET balance = balance + $1 WHERE id = $2 RETURNING id, balance AS new_balance, balance * 2"},
		{"update returning star", "UPDATE accounts a SET balance = 0 RETURNING *, a.*",
			"UPDATE accounts SET balance = 0 RETURNING STAR:*, STAR:accounts.*"},
		{"update from", "UPDATE accounts SET balance = accounts.balance + t.amount FROM transfers t WHERE accounts.id = t.to_account_id AND t.id = $1 AND accounts.balance >= 0",
			"UPDATE accounts SET balance = accounts.balance + transfers.amount WHERE accounts.balance >= 0 AND joined with transfers where accounts.id = t.to_account_id and t.id = $1"},
		{"update from unqualified columns are unknown", "UPDATE accounts a SET balance = balance + t.amount FROM transfers t WHERE a.id = t.to_id AND balance > 0",
			"UPDATE accounts SET balance = balance + transfers.amount WHERE joined with transfers where a.id = t.to_id and balance > 0"},
		{"update from join", "UPDATE a SET x = 1 FROM b JOIN c ON b.id = c.bid WHERE a.id = b.aid",
			"UPDATE a SET x = 1 WHERE joined with b, c where b.id = c.bid and a.id = b.aid"},
		{"update from self", "UPDATE accounts SET balance = a2.balance FROM accounts a2 WHERE accounts.id = $1 AND a2.id = $2",
			"UPDATE accounts SET balance = a2.balance WHERE accounts.id = $1 AND joined with accounts where a2.id = $2"},
		{"update from subquery", "UPDATE t SET a = s.v FROM (SELECT 1 AS v) s",
			"UPDATE t SET a = s.v WHERE joined with a derived table"},
		{"update current of", "UPDATE t SET a = 1 WHERE CURRENT OF c", "UPDATE t SET a = 1 WHERE CURRENT OF c"},
		{"update with read-only CTE", "WITH x AS (SELECT id FROM u) UPDATE t SET a = 0 WHERE id IN (SELECT id FROM x)",
			"UPDATE t SET a = 0 WHERE id IN (SELECT id FROM x)"},

		// INSERT
		{"insert", "INSERT INTO accounts (owner, balance, currency) VALUES ($1, $2, $3)",
			"INSERT accounts (owner, balance, currency) VALUES ($1, $2, $3)"},
		{"insert multi rows", "insert into t (a, b) values (1, -2.50), ($1, NULL)",
			"INSERT t (a, b) VALUES (1, -2.5), ($1, NULL)"},
		{"insert default value", "INSERT INTO t (a, b) VALUES (DEFAULT, $1)", "INSERT t (a, b) VALUES (DEFAULT, $1)"},
		{"insert default values", "INSERT INTO t DEFAULT VALUES", "INSERT t VALUES ()"},
		{"insert no columns", "INSERT INTO t VALUES (1, 'a')", "INSERT t VALUES (1, 'a')"},
		{"insert select", "INSERT INTO archive (id) SELECT id FROM t WHERE x < $1", "INSERT archive (id) SELECT"},
		{"insert values with order by", "INSERT INTO t (a) VALUES (1), (2) LIMIT 1", "INSERT t (a) SELECT"},
		{"insert returning", "INSERT INTO t (a) VALUES ($1) RETURNING id, a, created_at",
			"INSERT t (a) VALUES ($1) RETURNING id, a, created_at"},
		{"insert alias", "INSERT INTO stock AS s (sku, qty) VALUES ($1, $2) RETURNING s.qty",
			"INSERT stock (sku, qty) VALUES ($1, $2) RETURNING stock.qty"},
		{"on conflict do update", "INSERT INTO stock (sku, qty) VALUES ($1, $2) ON CONFLICT (sku) DO UPDATE SET qty = stock.qty + EXCLUDED.qty",
			"INSERT stock (sku, qty) VALUES ($1, $2) ON DUP qty = stock.qty + $2 CONFLICT(sku)"},
		{"on conflict unqualified and alias", "INSERT INTO stock AS s (sku, qty) VALUES ($1, $2) ON CONFLICT (sku) DO UPDATE SET qty = s.qty + excluded.qty, updated = now()",
			"INSERT stock (sku, qty) VALUES ($1, $2) ON DUP qty = stock.qty + $2, updated = now() CONFLICT(sku)"},
		{"on conflict where", "INSERT INTO stock (sku, qty) VALUES ($1, $2) ON CONFLICT (sku) DO UPDATE SET qty = EXCLUDED.qty WHERE stock.locked = false",
			"INSERT stock (sku, qty) VALUES ($1, $2) ON DUP qty = CASE WHEN stock.locked = FALSE THEN $2 ELSE qty END CONFLICT(sku)"},
		{"on conflict excluded default", "INSERT INTO stock (sku) VALUES ($1) ON CONFLICT (sku) DO UPDATE SET qty = EXCLUDED.qty",
			"INSERT stock (sku) VALUES ($1) ON DUP qty = excluded.qty CONFLICT(sku)"},
		{"on conflict multi-row excluded", "INSERT INTO s (k, q) VALUES (1, 2), (3, 4) ON CONFLICT ON CONSTRAINT s_pkey DO UPDATE SET q = EXCLUDED.q",
			"INSERT s (k, q) VALUES (1, 2), (3, 4) ON DUP q = excluded.q CONFLICT ON s_pkey"},
		{"on conflict row assignment", "INSERT INTO s (k, a, b) VALUES ($1, $2, $3) ON CONFLICT (k) DO UPDATE SET (a, b) = (EXCLUDED.a, s.b + 1)",
			"INSERT s (k, a, b) VALUES ($1, $2, $3) ON DUP a = $2, b = s.b + 1 CONFLICT(k)"},
		{"on conflict do nothing", "INSERT INTO t (a) VALUES ($1) ON CONFLICT DO NOTHING", "INSERT IGNORE t (a) VALUES ($1)"},
		{"on conflict expression target", "INSERT INTO t (a) VALUES ($1) ON CONFLICT (lower(a)) DO NOTHING RETURNING *",
			"INSERT IGNORE t (a) VALUES ($1) RETURNING STAR:*"},
		{"on conflict insert select", "INSERT INTO t (a, b) SELECT a, b FROM u ON CONFLICT (a) DO UPDATE SET b = EXCLUDED.b",
			"INSERT t (a, b) SELECT ON DUP b = excluded.b CONFLICT(a)"},
		{"on conflict partial index", "INSERT INTO stock (sku, qty) VALUES ($1, $2) ON CONFLICT (sku) WHERE NOT archived AND qty >= $3 DO UPDATE SET qty = EXCLUDED.qty",
			"INSERT stock (sku, qty) VALUES ($1, $2) ON DUP qty = $2 CONFLICT(sku) WHERE NOT archived AND qty >= $3"},
		{"on conflict expression partial index", "INSERT INTO t (a) VALUES ($1) ON CONFLICT (lower(a)) WHERE b DO NOTHING",
			"INSERT IGNORE t (a) VALUES ($1)"},

		// DELETE
		{"delete", "DELETE FROM sessions WHERE expires < now()", "DELETE sessions WHERE expires < now()"},
		{"delete all", "delete from t", "DELETE t"},
		{"delete alias returning", "DELETE FROM accounts AS a WHERE a.id = $1 RETURNING a.id, a.balance",
			"DELETE accounts WHERE accounts.id = $1 RETURNING accounts.id, accounts.balance"},
		{"delete using", "DELETE FROM accounts a USING owners o WHERE a.owner = o.name AND o.banned AND a.id > $1 RETURNING a.*, o.name, *",
			"DELETE accounts WHERE accounts.id > $1 AND joined with owners where a.owner = o.name and o.banned RETURNING STAR:accounts.*, owners.name, *"},
		{"truncate", "TRUNCATE TABLE accounts RESTART IDENTITY", "DELETE accounts"},

		// SELECT
		{"select", "SELECT balance FROM accounts WHERE id = $1", "SELECT balance FROM accounts WHERE id = $1"},
		{"select star", "select * from t", "SELECT STAR:* FROM t"},
		{"select t.star alias", "select a.* from accounts a", "SELECT STAR:accounts.* FROM accounts"},
		{"select aliases", "SELECT a.balance AS bal, a.id id FROM public.accounts AS a",
			"SELECT accounts.balance AS bal, accounts.id AS id FROM accounts"},
		{"select limit order offset", "SELECT id FROM accounts WHERE owner = $1 ORDER BY id LIMIT $2 OFFSET $3",
			"SELECT id FROM accounts WHERE owner = $1"},
		{"select fetch first", "SELECT id FROM accounts FETCH FIRST 1 ROW ONLY", "SELECT id FROM accounts"},
		{"select for update", "SELECT balance FROM accounts WHERE id = $1 FOR UPDATE",
			"SELECT balance FROM accounts WHERE id = $1 FOR UPDATE"},
		{"select for no key update", "SELECT balance FROM accounts WHERE id = $1 FOR NO KEY UPDATE",
			"SELECT balance FROM accounts WHERE id = $1 FOR UPDATE"},
		{"select for update of nowait", "SELECT balance FROM accounts a WHERE id = $1 FOR UPDATE OF a NOWAIT",
			"SELECT balance FROM accounts WHERE id = $1 FOR UPDATE"},
		{"select for share", "SELECT qty FROM stock WHERE sku = $1 FOR SHARE", "SELECT qty FROM stock WHERE sku = $1 FOR SHARE"},
		{"select for key share skip locked", "SELECT id FROM jobs WHERE state = 'new' LIMIT 1 FOR KEY SHARE SKIP LOCKED",
			"SELECT id FROM jobs WHERE state = 'new'"}, // FOR KEY SHARE: no lock in the model
		{"select no from", "SELECT 1", "SELECT 1 FROM "},
		{"values", "VALUES ($1, 2)", "SELECT $1, 2 FROM "},
		{"select function", "SELECT now()", "SELECT now() FROM "},
		{"select join", "SELECT a.balance, u.name FROM accounts a JOIN users u ON a.user_id = u.id WHERE u.id = $1",
			"SELECT accounts.balance, users.name FROM  WHERE users.id = $1 COMPLEX(join) TABLES[accounts users]"},
		{"select comma join", "SELECT 1 FROM a, b", "SELECT 1 FROM  COMPLEX(join) TABLES[a b]"},
		{"select group by", "SELECT owner, sum(balance) FROM accounts GROUP BY owner",
			"SELECT owner, sum(balance) FROM accounts COMPLEX(GROUP BY, aggregate SUM) TABLES[accounts]"},
		{"select count", "SELECT count(*) FROM accounts WHERE balance < 0",
			"SELECT count(*) FROM accounts WHERE balance < 0 COMPLEX(aggregate COUNT) TABLES[accounts]"},
		{"select having", "SELECT owner FROM accounts GROUP BY owner HAVING count(*) > 1",
			"SELECT owner FROM accounts COMPLEX(GROUP BY, HAVING) TABLES[accounts]"},
		{"select distinct", "SELECT DISTINCT owner FROM accounts", "SELECT owner FROM accounts COMPLEX(DISTINCT) TABLES[accounts]"},
		{"select distinct on", "SELECT DISTINCT ON (owner) owner, id FROM accounts ORDER BY owner, id",
			"SELECT owner, id FROM accounts COMPLEX(DISTINCT) TABLES[accounts]"},
		{"select window", "SELECT id, row_number() OVER (ORDER BY id) FROM a",
			"SELECT id, row_number() OVER (ORDER BY id) FROM a COMPLEX(window function) TABLES[a]"},
		{"select union", "SELECT id FROM a WHERE x = $1 UNION SELECT id FROM b WHERE y = $2",
			"SELECT id FROM  COMPLEX(UNION) TABLES[a b]"},
		{"select except", "SELECT id FROM a EXCEPT SELECT id FROM b", "SELECT id FROM  COMPLEX(EXCEPT) TABLES[a b]"},
		{"select union with subquery and cte", "(WITH x AS (SELECT id FROM c) SELECT id FROM x) UNION ALL SELECT id FROM b WHERE id IN (SELECT id FROM d) FOR UPDATE",
			"SELECT id FROM  FOR UPDATE COMPLEX(UNION) TABLES[b d c]"},
		{"select cte", "WITH x AS (SELECT id FROM accounts WHERE balance > 0) SELECT * FROM x",
			"SELECT STAR:* FROM  COMPLEX(WITH, subquery in FROM) TABLES[accounts]"},
		{"select cte single table", "WITH x AS (SELECT 1) SELECT id FROM accounts",
			"SELECT id FROM  COMPLEX(WITH) TABLES[accounts]"},
		{"select derived table", "SELECT d.n FROM (SELECT count(*) AS n FROM t) AS d",
			"SELECT d.n FROM  COMPLEX(subquery in FROM) TABLES[t]"},
		{"select function in from", "SELECT g FROM generate_series(1, $1) g", "SELECT g FROM  COMPLEX(function in FROM) TABLES[]"},
		{"select subquery in where", "SELECT id FROM a WHERE x IN (SELECT x FROM b WHERE y = $1) AND z = $2",
			"SELECT id FROM a WHERE x IN (SELECT x FROM b WHERE y = $1) AND z = $2 TABLES[a b]"},

		// transactions
		{"begin", "BEGIN", "TX BEGIN"},
		{"begin isolation", "BEGIN ISOLATION LEVEL SERIALIZABLE;", "TX BEGIN"},
		{"start transaction", "START TRANSACTION READ WRITE", "TX BEGIN"},
		{"commit", "COMMIT", "TX COMMIT"},
		{"end", "END", "TX COMMIT"},
		{"rollback", "ROLLBACK", "TX ROLLBACK"},
		{"abort", "ABORT", "TX ROLLBACK"},
		{"rollback comment", "/* tx */ rollback -- done", "TX ROLLBACK"},

		// other
		{"create table", "CREATE TABLE t (a int CHECK (a > 0))", "OTHER CREATE TABLE t (a int CHECK (a > 0))"},
		{"alter", "ALTER TABLE t ADD COLUMN b int;", "OTHER ALTER TABLE t ADD COLUMN b int"},
		{"drop", "DROP TABLE t", "OTHER DROP TABLE t"},
		{"set", "SET search_path = public", "OTHER SET search_path = public"},
		{"set transaction", "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE", "OTHER SET TRANSACTION ISOLATION LEVEL SERIALIZABLE"},
		{"show", "SHOW search_path", "OTHER SHOW search_path"},
		{"savepoint", "SAVEPOINT s1", "TX SAVEPOINT s1"},
		{"release savepoint", "RELEASE SAVEPOINT s1", "TX RELEASE s1"},
		{"release", "RELEASE s1", "TX RELEASE s1"},
		{"rollback to savepoint", "ROLLBACK TO SAVEPOINT s1", "TX ROLLBACK TO s1"},
		{"rollback transaction to", "ROLLBACK TRANSACTION TO s1", "TX ROLLBACK TO s1"},
		{"savepoint quoted", `SAVEPOINT "Sp"`, "TX SAVEPOINT Sp"},
		{"lock", "LOCK TABLE accounts IN EXCLUSIVE MODE", "OTHER LOCK TABLE accounts IN EXCLUSIVE MODE"},
		{"copy to", "COPY accounts TO STDOUT", "OTHER COPY accounts TO STDOUT"},
		{"explain", "EXPLAIN UPDATE t SET a = 1", "OTHER EXPLAIN UPDATE t SET a = 1"},
		{"explain analyze select", "EXPLAIN ANALYZE SELECT * FROM t", "OTHER EXPLAIN ANALYZE SELECT * FROM t"},
		{"select into", "SELECT * INTO t2 FROM t", "OTHER SELECT * INTO t2 FROM t"},
		{"prepare", "PREPARE p AS UPDATE t SET a = $1", "OTHER PREPARE p AS UPDATE t SET a = $1"},
		{"notify", "NOTIFY jobs, 'x'", "OTHER NOTIFY jobs, 'x'"},
		{"other without leading comment", "-- name: SetPath :exec\n/* x */ SET search_path = app;", "OTHER SET search_path = app"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := mustParsePG(t, tt.query)
			if got := describePG(r.Stmt); got != tt.want {
				t.Errorf("parseStmt(%q)\n got %s\nwant %s", tt.query, got, tt.want)
			}
		})
	}
}

// The shapes sqlc generates for Postgres (here from the simple_bank schema).
func TestPostgresSQLC(t *testing.T) {
	tests := []struct {
		query string
		n     int
		want  string
	}{
		{"-- name: AddAccountBalance :one\nUPDATE accounts\nSET balance = balance + $1\nWHERE id = $2\nRETURNING id, owner, balance, currency, created_at\n", 2,
			"UPDATE accounts SET balance = balance + $1 WHERE id = $2 RETURNING id, owner, balance, currency, created_at"},
		{"-- name: GetAccountForUpdate :one\nSELECT id, owner, balance, currency, created_at FROM accounts\nWHERE id = $1 LIMIT 1\nFOR NO KEY UPDATE\n", 1,
			"SELECT id, owner, balance, currency, created_at FROM accounts WHERE id = $1 FOR UPDATE"},
		{"-- name: CreateTransfer :one\nINSERT INTO transfers (\n  from_account_id,\n  to_account_id,\n  amount\n) VALUES (\n  $1, $2, $3\n) RETURNING id, from_account_id, to_account_id, amount, created_at\n", 3,
			"INSERT transfers (from_account_id, to_account_id, amount) VALUES ($1, $2, $3) RETURNING id, from_account_id, to_account_id, amount, created_at"},
		{"-- name: GetAccount :one\nSELECT id, owner, balance, currency, created_at FROM accounts\nWHERE id = $1 LIMIT 1\n", 1,
			"SELECT id, owner, balance, currency, created_at FROM accounts WHERE id = $1"},
		{"-- name: ListAccounts :many\nSELECT id, owner, balance, currency, created_at FROM accounts\nWHERE owner = $1\nORDER BY id\nLIMIT $2\nOFFSET $3\n", 3,
			"SELECT id, owner, balance, currency, created_at FROM accounts WHERE owner = $1"},
		{"-- name: UpdateAccount :one\nUPDATE accounts\nSET balance = $2\nWHERE id = $1\nRETURNING id, owner, balance, currency, created_at\n", 2,
			"UPDATE accounts SET balance = $2 WHERE id = $1 RETURNING id, owner, balance, currency, created_at"},
		{"-- name: DeleteAccount :exec\nDELETE FROM accounts\nWHERE id = $1\n", 1, "DELETE accounts WHERE id = $1"},
		{"-- name: CreateEntry :one\nINSERT INTO entries (account_id, amount) VALUES ($1, $2) RETURNING *", 2,
			"INSERT entries (account_id, amount) VALUES ($1, $2) RETURNING STAR:*"},
		{"-- name: UpdateUser :one\nUPDATE users\nSET\n  hashed_password = COALESCE(sqlc.narg(hashed_password), hashed_password),\n  full_name = COALESCE($1, full_name)\nWHERE username = $2\nRETURNING *", 2,
			"UPDATE users SET hashed_password = CASE WHEN sqlc.narg(hashed_password) IS NOT NULL THEN sqlc.narg(hashed_password) ELSE hashed_password END, full_name = CASE WHEN $1 IS NOT NULL THEN $1 ELSE full_name END WHERE username = $2 RETURNING STAR:*"},
		{"-- name: UpdateUserNarg :one\nUPDATE users SET full_name = COALESCE($1::text, full_name) WHERE username = $2::varchar RETURNING username", 2,
			"UPDATE users SET full_name = CASE WHEN $1 IS NOT NULL THEN $1 ELSE full_name END WHERE username = $2 RETURNING username"},
	}
	for _, tt := range tests {
		r := mustParsePG(t, tt.query)
		if r.NumParams != tt.n || r.ParamNames != nil {
			t.Errorf("%q: NumParams %d names %v, want %d", tt.query, r.NumParams, r.ParamNames, tt.n)
		}
		if got := describePG(r.Stmt); got != tt.want {
			t.Errorf("%q\n got %s\nwant %s", tt.query, got, tt.want)
		}
	}
}

func TestPostgresExpressions(t *testing.T) {
	// Each condition is parsed as the WHERE of a SELECT on t.
	tests := []struct{ cond, want string }{
		{"a = 1 AND b <> 2 OR NOT c < 3", "a = 1 AND b <> 2 OR NOT c < 3"},
		{"a != 1", "a <> 1"},
		{"a <= 1 AND a >= 0 AND a > -1", "a <= 1 AND a >= 0 AND a > -1"},
		{"(a + b) * c - d / e % f = 0", "(a + b) * c - d / e % f = 0"},
		{"-a + -(b) = - -1 AND +c = 1", "-a + -b = 1 AND c = 1"},
		{"a = 1.50 AND b = 2e3 AND c = .5 AND d = 0x1F AND e = 1_000 AND f = 10000000000",
			"a = 1.5 AND b = 2000.0 AND c = 0.5 AND d = 31 AND e = 1000 AND f = 10000000000"},
		{"s = 'it''s' AND u = E'a\\tb' AND v = $$x$$", "s = 'it''s' AND u = 'a\tb' AND v = 'x'"},
		{"a = TRUE AND b = false AND c = NULL", "a = TRUE AND b = FALSE AND c = NULL"},
		{"a IS NULL AND b IS NOT NULL AND c ISNULL AND d NOTNULL", "a IS NULL AND b IS NOT NULL AND c IS NULL AND d IS NOT NULL"},
		{"ROW(a, b) IS NULL", "a IS NULL AND b IS NULL"},
		{"a IS TRUE", "CASE WHEN a THEN TRUE ELSE FALSE END"},
		{"a IS NOT TRUE", "CASE WHEN a THEN FALSE ELSE TRUE END"},
		{"a IS FALSE", "CASE WHEN NOT a THEN TRUE ELSE FALSE END"},
		{"a IS NOT FALSE", "CASE WHEN NOT a THEN FALSE ELSE TRUE END"},
		{"a IS UNKNOWN AND b IS NOT UNKNOWN", "a IS NULL AND b IS NOT NULL"},
		{"a BETWEEN 1 AND $1", "a >= 1 AND a <= $1"},
		{"a NOT BETWEEN 1 AND 2", "NOT (a >= 1 AND a <= 2)"},
		{"a BETWEEN SYMMETRIC 5 AND 1", "a >= 5 AND a <= 1 OR a >= 1 AND a <= 5"},
		{"a IN (1, $1, 'x')", "a = 1 OR a = $1 OR a = 'x'"},
		{"a NOT IN (1, 2)", "NOT (a = 1 OR a = 2)"},
		{"(a, b) = ($1, 2)", "a = $1 AND b = 2"},
		{"(a, b) <> (1, 2)", "NOT (a = 1 AND b = 2)"},
		{"(a, b) IN ((1, 2), (3, $1))", "a = 1 AND b = 2 OR a = 3 AND b = $1"},
		{"(a, b) < (1, 2)", "(a, b) < (1, 2)"},
		{"a = ANY (ARRAY[1, $1])", "a = 1 OR a = $1"},
		{"a <> ALL (ARRAY[1, 2])", "a <> 1 AND a <> 2"},
		{"a = ANY ($1::bigint[])", "a = ANY($1::bigint[])"},
		{"a IS DISTINCT FROM $1", "CASE WHEN a IS NULL THEN $1 IS NOT NULL WHEN $1 IS NULL THEN TRUE ELSE a <> $1 END"},
		{"a IS NOT DISTINCT FROM b", "NOT CASE WHEN a IS NULL THEN b IS NOT NULL WHEN b IS NULL THEN TRUE ELSE a <> b END"},
		{"a IS DISTINCT FROM 1 AND 2 IS NOT DISTINCT FROM b AND 1 IS DISTINCT FROM 2",
			"CASE WHEN a IS NULL THEN TRUE ELSE a <> 1 END AND NOT CASE WHEN b IS NULL THEN TRUE ELSE b <> 2 END AND 1 <> 2"},
		{"CASE WHEN a > 0 THEN 1 WHEN a < 0 THEN -1 END = 1", "CASE WHEN a > 0 THEN 1 WHEN a < 0 THEN -1 END = 1"},
		{"CASE a WHEN 1 THEN 'x' ELSE 'y' END = 'x'", "CASE WHEN a = 1 THEN 'x' ELSE 'y' END = 'x'"},
		{"COALESCE(a, b, 0) > 0", "CASE WHEN a IS NOT NULL THEN a WHEN b IS NOT NULL THEN b ELSE 0 END > 0"},
		{"NULLIF(a, 0) = 1", "CASE WHEN a = 0 THEN NULL ELSE a END = 1"},
		{"abs(a) < 5", "CASE WHEN a < 0 THEN -a ELSE a END < 5"},
		// Postgres GREATEST/LEAST ignore NULL arguments.
		{"GREATEST(a - $1, 0) >= 0", "CASE WHEN a - $1 IS NULL THEN 0 WHEN a - $1 >= 0 THEN a - $1 ELSE 0 END >= 0"},
		{"LEAST(a, b) = 1", "CASE WHEN a IS NULL THEN b WHEN b IS NULL THEN a WHEN a <= b THEN a ELSE b END = 1"},
		// Casts.
		{"a = $1::bigint AND b = CAST($2 AS numeric(10,2)) AND c = $3::timestamptz", "a = $1 AND b = $2 AND c = $3"},
		{"a::numeric > 1.5 AND b::text = 'x' AND c::bigint = 1 AND d::order_status = 'new'", "a > 1.5 AND b = 'x' AND c = 1 AND d = 'new'"},
		{"a = '5'::int AND b = '1.25'::numeric AND c = 5::numeric AND d = 'x'::text AND e = 't'::bool AND f = 'new'::order_status AND g = NULL::int",
			"a = 5 AND b = 1.25 AND c = 5.0 AND d = 'x' AND e = TRUE AND f = 'new' AND g = NULL"},
		{"a = 2.5::int", "a = ((2.5)::int)"},
		{"a = 'x'::varchar(3) AND b::date = $1", "a = ('x'::varchar(3)) AND (b::date) = $1"},
		{"created_at > '2024-01-01'::date", "created_at > ('2024-01-01'::date)"},
		{"a COLLATE \"C\" = 'x'", "a = 'x'"},
		// Unknown.
		{"created < now() AND name LIKE $1", "created < now() AND name LIKE $1"},
		{"name ILIKE $1 || '%' AND s ~ $2 AND s ~* 'x' AND s !~ 'y'", "name ILIKE $1 || '%' AND s ~ $2 AND s ~* 'x' AND s !~ 'y'"},
		{"lower(e) = lower($1) AND created > now() - $2::interval", "lower(e) = lower($1) AND created > now() - $2"},
		{"EXISTS (SELECT 1 FROM u WHERE u.x = $1)", "EXISTS (SELECT 1 FROM u WHERE u.x = $1)"},
		{"a = (SELECT max(b) FROM u WHERE c = $1)", "a = (SELECT max(b) FROM u WHERE c = $1)"},
		{"a = current_timestamp AND b = random()", "a = current_timestamp AND b = random()"},
		{"a & 1 = 1 AND b ^ 2 = 4", "(a & 1) = 1 AND (b ^ 2) = 4"},
		{"tags @> ARRAY['x']", "tags @> ARRAY['x']"},
	}
	for _, tt := range tests {
		t.Run(tt.cond, func(t *testing.T) {
			r := mustParsePG(t, "SELECT x FROM t WHERE "+tt.cond)
			got := rules.Format(r.Stmt.(*sqlir.Select).Where)
			if got != tt.want {
				t.Errorf("WHERE %s\n got %s\nwant %s", tt.cond, got, tt.want)
			}
		})
	}
}

// Format prints what the Postgres path produces so that the Postgres path
// reads it back as the same expression (for expressions without Unknown
// parts and with plain identifiers).
func TestPostgresFormatRoundTrip(t *testing.T) {
	conds := []string{
		"a = 1 AND b <> 2 OR NOT c < 3",
		"(a + b) * (c - d) % 7 <> 0 AND a / (b * c) > 0",
		"a - (b - c) = d AND -(a + b) < 0",
		"a BETWEEN $1 AND $2 OR a IN (1, 2, 3)",
		"COALESCE(a, 0) >= 0 AND GREATEST(a - 5, 0) >= 0",
		"a IS NULL OR b IS NOT NULL OR c IS TRUE",
		"CASE WHEN a > 0 THEN a ELSE -a END >= 0",
		"s = 'it''s' AND t.a >= t.b AND x = 1.25 AND y = 1000000000000000000000",
		"a IS DISTINCT FROM b",
	}
	for _, c := range conds {
		r1 := mustParsePG(t, "SELECT x FROM t WHERE "+c)
		e1 := r1.Stmt.(*sqlir.Select).Where
		s1 := rules.Format(e1)
		r2 := mustParsePG(t, "SELECT x FROM t WHERE "+s1)
		e2 := r2.Stmt.(*sqlir.Select).Where
		if !sqltest.ExprEqual(e1, e2) {
			t.Errorf("%s: round trip changed the expression:\n  in  %s\n  out %s", c, s1, rules.Format(e2))
		}
	}
}

func TestPostgresPlaceholders(t *testing.T) {
	tests := []struct {
		name, query string
		n           int
		want        string
	}{
		{"in order", "UPDATE t SET a = $1, b = $2 WHERE c = $3 AND d = $4", 4,
			"UPDATE t SET a = $1, b = $2 WHERE c = $3 AND d = $4"},
		{"repeated", "UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1", 2,
			"UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1"},
		{"out of order", "UPDATE t SET a = $2 WHERE id = $1", 2, "UPDATE t SET a = $2 WHERE id = $1"},
		{"gap", "SELECT a FROM t WHERE b = $3", 3, "SELECT a FROM t WHERE b = $3"},
		{"only in limit", "SELECT a FROM t WHERE b = $1 LIMIT $2", 2, "SELECT a FROM t WHERE b = $1"},
		{"only in returning", "UPDATE t SET a = 1 RETURNING a + $1", 1, "UPDATE t SET a = 1 RETURNING a + $1"},
		{"inside subquery", "SELECT a FROM t WHERE b = (SELECT max(b) FROM u WHERE c = $1) AND d = $2", 2,
			"SELECT a FROM t WHERE b = (SELECT max(b) FROM u WHERE c = $1) AND d = $2 TABLES[t u]"},
		{"dollar in string is not a placeholder", "SELECT a FROM t WHERE b = '$1' AND c = $1", 1,
			"SELECT a FROM t WHERE b = '$1' AND c = $1"},
		{"none", "SELECT 1", 0, "SELECT 1 FROM "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := mustParsePG(t, tt.query)
			if r.NumParams != tt.n || r.ParamNames != nil {
				t.Errorf("NumParams = %d, ParamNames = %v; want %d, nil", r.NumParams, r.ParamNames, tt.n)
			}
			if got := describePG(r.Stmt); got != tt.want {
				t.Errorf("\n got %s\nwant %s", got, tt.want)
			}
		})
	}

	// A repeated $1 is one Param; Unknown nodes list their placeholders in
	// the order of the text, once each.
	r := mustParsePG(t, "UPDATE t SET a = f($2, b, $1, $2) WHERE c = $3 AND d LIKE concat($5, '%', $4) AND e = $1")
	u := r.Stmt.(*sqlir.Update)
	if unk, ok := u.Set[0].Value.(*sqlir.Unknown); !ok || !reflect.DeepEqual(unk.Params, []int{1, 0}) || unk.Text != "f($2, b, $1, $2)" {
		t.Errorf("SET value = %#v, want Unknown with Params [1 0]", u.Set[0].Value)
	}
	w := u.Where.(*sqlir.Binary)
	like := w.X.(*sqlir.Binary).Y.(*sqlir.Unknown)
	if !reflect.DeepEqual(like.Params, []int{4, 3}) {
		t.Errorf("LIKE params = %v, want [4 3]", like.Params)
	}
	if !sqltest.ExprEqual(w.Y, &sqlir.Binary{Op: sqlir.OpEq, X: &sqlir.ColRef{Name: "e"}, Y: &sqlir.Param{Index: 0}}) {
		t.Errorf("e = $1 is %s", rules.Format(w.Y))
	}
	// UPDATE … FROM: the Unknown join conjunct keeps the placeholders of the
	// conditions it replaces.
	r = mustParsePG(t, "UPDATE a SET x = $1 FROM b WHERE a.id = b.aid AND b.k = $3 AND a.y > $2")
	u = r.Stmt.(*sqlir.Update)
	join := u.Where.(*sqlir.Binary).Y.(*sqlir.Unknown)
	if !reflect.DeepEqual(join.Params, []int{2}) {
		t.Errorf("join params = %v, want [2]", join.Params)
	}
}

func TestPostgresReturning(t *testing.T) {
	r := mustParsePG(t, "UPDATE accounts AS a SET balance = balance + $1 WHERE id = $2 RETURNING a.id, balance AS bal, balance - $1, *, a.*")
	u := r.Stmt.(*sqlir.Update)
	want := []sqlir.SelectItem{
		{Expr: &sqlir.ColRef{Table: "accounts", Name: "id"}},
		{Expr: &sqlir.ColRef{Name: "balance"}, Alias: "bal"},
		{Expr: &sqlir.Binary{Op: sqlir.OpSub, X: &sqlir.ColRef{Name: "balance"}, Y: &sqlir.Param{Index: 0}}},
		{Expr: &sqlir.ColRef{Name: "*"}, Star: true},
		{Expr: &sqlir.ColRef{Table: "accounts", Name: "*"}, Star: true},
	}
	if len(u.Returning) != len(want) {
		t.Fatalf("Returning = %v", u.Returning)
	}
	for i, w := range want {
		g := u.Returning[i]
		if g.Alias != w.Alias || g.Star != w.Star || !sqltest.ExprEqual(g.Expr, w.Expr) {
			t.Errorf("item %d = {%s %q %v}, want {%s %q %v}", i, rules.Format(g.Expr), g.Alias, g.Star, rules.Format(w.Expr), w.Alias, w.Star)
		}
	}
	// Without RETURNING the list is nil.
	for _, q := range []string{"UPDATE t SET a = 1", "DELETE FROM t", "INSERT INTO t (a) VALUES (1)"} {
		switch s := mustParsePG(t, q).Stmt.(type) {
		case *sqlir.Update:
			if s.Returning != nil {
				t.Errorf("%s: Returning %v", q, s.Returning)
			}
		case *sqlir.Delete:
			if s.Returning != nil {
				t.Errorf("%s: Returning %v", q, s.Returning)
			}
		case *sqlir.Insert:
			if s.Returning != nil {
				t.Errorf("%s: Returning %v", q, s.Returning)
			}
		}
	}
}

func TestPostgresOnConflict(t *testing.T) {
	r := mustParsePG(t, "INSERT INTO stock (sku, qty) VALUES ($1, $2) ON CONFLICT (sku) DO UPDATE SET qty = stock.qty + EXCLUDED.qty RETURNING qty")
	ins := r.Stmt.(*sqlir.Insert)
	if !ins.HasOnConflict || ins.OnConflictNothing || !reflect.DeepEqual(ins.ConflictColumns, []string{"sku"}) || ins.ConflictConstraint != "" {
		t.Errorf("flags: %+v", ins)
	}
	wantSet := &sqlir.Binary{Op: sqlir.OpAdd, X: &sqlir.ColRef{Table: "stock", Name: "qty"}, Y: &sqlir.Param{Index: 1}}
	if len(ins.OnConflict) != 1 || ins.OnConflict[0].Col != "qty" || !sqltest.ExprEqual(ins.OnConflict[0].Value, wantSet) {
		t.Errorf("OnConflict = %v", ins.OnConflict)
	}
	// EXCLUDED is replaced by a copy, not shared with Rows.
	if ins.OnConflict[0].Value.(*sqlir.Binary).Y == ins.Rows[0][1] {
		t.Error("EXCLUDED value shares the row's node")
	}
	if len(ins.Returning) != 1 || !sqltest.ExprEqual(ins.Returning[0].Expr, &sqlir.ColRef{Name: "qty"}) {
		t.Errorf("Returning = %v", ins.Returning)
	}

	r = mustParsePG(t, "INSERT INTO t (a) VALUES ($1) ON CONFLICT ON CONSTRAINT t_a_key DO NOTHING")
	ins = r.Stmt.(*sqlir.Insert)
	if ins.HasOnConflict || !ins.OnConflictNothing || ins.ConflictColumns != nil || ins.ConflictConstraint != "t_a_key" || ins.OnConflict != nil {
		t.Errorf("DO NOTHING: %+v", ins)
	}

	// EXCLUDED of a column not inserted (its default) or of several rows is
	// Unknown.
	r = mustParsePG(t, "INSERT INTO t (a, b) VALUES (1, 2), ($1, 3) ON CONFLICT (a) DO UPDATE SET b = EXCLUDED.b + $2")
	ins = r.Stmt.(*sqlir.Insert)
	sum := ins.OnConflict[0].Value.(*sqlir.Binary)
	if u, ok := sum.X.(*sqlir.Unknown); !ok || u.Text != "excluded.b" {
		t.Errorf("multi-row EXCLUDED = %#v", sum.X)
	}
	if r.NumParams != 2 {
		t.Errorf("NumParams = %d", r.NumParams)
	}
}

func TestPostgresAliasResolution(t *testing.T) {
	r := mustParsePG(t, `SELECT a.balance, Accounts.owner, x.y, "A".z FROM accounts AS a WHERE A.id = $1 AND id > 0`)
	s := r.Stmt.(*sqlir.Select)
	want := []sqlir.Expr{
		&sqlir.ColRef{Table: "accounts", Name: "balance"},
		&sqlir.ColRef{Table: "accounts", Name: "owner"}, // unquoted names fold to lower case
		&sqlir.ColRef{Table: "x", Name: "y"},            // unknown qualifier kept as written
		&sqlir.ColRef{Table: "A", Name: "z"},            // quoted: another name
	}
	for i, w := range want {
		if !sqltest.ExprEqual(s.Columns[i].Expr, w) {
			t.Errorf("column %d = %s, want %s", i, rules.Format(s.Columns[i].Expr), rules.Format(w))
		}
	}
	wantWhere := &sqlir.Binary{Op: sqlir.OpAnd,
		X: &sqlir.Binary{Op: sqlir.OpEq, X: &sqlir.ColRef{Table: "accounts", Name: "id"}, Y: &sqlir.Param{Index: 0}},
		Y: &sqlir.Binary{Op: sqlir.OpGt, X: &sqlir.ColRef{Name: "id"}, Y: &sqlir.Num{Val: sqltest.RatInt(0), IsInt: true}}}
	if !sqltest.ExprEqual(s.Where, wantWhere) {
		t.Errorf("where = %s, want %s", rules.Format(s.Where), rules.Format(wantWhere))
	}
	if s.Table != "accounts" || !reflect.DeepEqual(s.Tables(), []string{"accounts"}) || s.Complex {
		t.Errorf("table = %q tables %v", s.Table, s.Tables())
	}

	r = mustParsePG(t, `UPDATE "Accounts" acc SET "Balance" = 0 WHERE acc."ID" = 1`)
	u := r.Stmt.(*sqlir.Update)
	if u.Table != "Accounts" || u.Set[0].Col != "Balance" || !reflect.DeepEqual(u.Tables(), []string{"accounts"}) {
		t.Errorf("got %s tables %v", sqltest.Describe(u), u.Tables())
	}
	if c := u.Where.(*sqlir.Binary).X.(*sqlir.ColRef); c.Table != "Accounts" || c.Name != "ID" {
		t.Errorf("where column = %+v", c)
	}
}

func TestPostgresErrors(t *testing.T) {
	tests := []struct {
		name, query string
		offset      int
		msg         string
	}{
		{"typo keyword", "SELEC balance FROM accounts", 0, `syntax error at column 1 near "SELEC"`},
		{"junk at end", "SELECT a FROM t WHERE x >= 3 frm", 29, `syntax error at column 30 near "frm"`},
		{"end of input", "UPDATE t SET a =", 16, "syntax error at column 17 (unexpected end of input)"},
		{"multi-line", "SELECT a\nFROM t\nWHERE a = = 1", 26, `syntax error at line 3, column 11 near "="`},
		{"unterminated string", "SELECT a FROM t WHERE b = 'abc", 26, `unterminated quoted string at column 27 near "'abc"`},
		{"multibyte before the error", "SELECT 'é', 'ü' frm frm", 22, `syntax error at column 23 near "frm"`},
		{"mysql placeholder", "SELECT a FROM t WHERE b = ? AND c = 1", 28, `syntax error at column 29 near "AND"`},
		{"two statements", "UPDATE t SET a = 1;  UPDATE t SET b = 2", 21, "more than one statement in one query at column 22"},
		{"two statements after comment", "SELECT 1; -- x\n/* y */ SELECT 2", 23, "more than one statement in one query at line 2, column 9"},
		{"NUL byte", "SELECT 1\x00; DROP TABLE t", 8, "NUL byte in query at column 9"},
		{"insert column count", "INSERT INTO t (a, b) VALUES (1, 2), (3)", -1, "INSERT into t: row 2 has 1 values for 2 columns"},
		{"empty", "  -- nothing\n", -1, "empty SQL query"},
		{"only semicolons", " ; ;", -1, "empty SQL query"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseStmt(tt.query)
			if err == nil {
				t.Fatalf("Parse(%q) succeeded", tt.query)
			}
			if err.Error() != tt.msg {
				t.Errorf("error %q, want %q", err.Error(), tt.msg)
			}
			var pe *rules.ParseError
			if tt.offset < 0 {
				if errors.As(err, &pe) {
					t.Errorf("got a *rules.ParseError, want another error")
				}
				return
			}
			if !errors.As(err, &pe) {
				t.Fatalf("error %T is not a *rules.ParseError", err)
			}
			if pe.Offset != tt.offset || pe.Query != tt.query {
				t.Errorf("offset %d query %q, want %d %q", pe.Offset, pe.Query, tt.offset, tt.query)
			}
		})
	}

	_, err := parseStmt("SELECT a\n  FROM t WHERE\n    a = = 1")
	var pe *rules.ParseError
	if !errors.As(err, &pe) {
		t.Fatal(err)
	}
	if l, c := pe.Position(); l != 3 || c != 9 {
		t.Errorf("Position = %d:%d, want 3:9", l, c)
	}
}

func TestPostgresUnsupported(t *testing.T) {
	tests := []struct {
		query, reason string
		tables        []string
	}{
		{"COMMIT AND CHAIN", "AND CHAIN", nil},
		{"PREPARE TRANSACTION 'x'", "two-phase", nil},
		{"COMMIT PREPARED 'x'", "two-phase", nil},
		{"CALL transfer($1, $2)", "stored procedure", nil},
		{"DO $$ BEGIN UPDATE t SET a = 1; END $$", "DO statement", nil},
		{"EXECUTE p(1)", "prepared statement", nil},
		{"WITH x AS (UPDATE accounts SET balance = 0 RETURNING id) SELECT * FROM x WHERE id > 1", "data-modifying", []string{"accounts"}},
		{"WITH x AS (UPDATE accounts SET balance = 0 RETURNING id) SELECT count(*) FROM x", "data-modifying", []string{"accounts"}},
		{"WITH x AS (UPDATE accounts SET balance = 0 RETURNING id) SELECT balance FROM x", "data-modifying", []string{"accounts"}},
		{"WITH x AS (UPDATE accounts SET balance = 0 RETURNING id) SELECT x.id FROM x, y", "data-modifying", []string{"accounts"}},
		{"WITH d AS (DELETE FROM a RETURNING id) INSERT INTO b (id) SELECT id FROM d", "data-modifying", []string{"a"}},
		{"WITH x AS (INSERT INTO t (a) VALUES (1) RETURNING a) UPDATE u SET b = 1", "data-modifying", []string{"t"}},
		{"COPY accounts FROM STDIN", "COPY FROM", []string{"accounts"}},
		{"COPY (DELETE FROM t RETURNING *) TO STDOUT", "COPY of a data-modifying", []string{"t"}},
		{"TRUNCATE a, b", "several tables", []string{"a", "b"}},
		{"TRUNCATE a CASCADE", "CASCADE", []string{"a"}},
		{"EXPLAIN ANALYZE UPDATE t SET a = 1", "EXPLAIN ANALYZE", []string{"t"}},
		{"EXPLAIN (ANALYZE, BUFFERS) DELETE FROM t", "EXPLAIN ANALYZE", []string{"t"}},
		{"MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET a = s.a", "MERGE", []string{"t"}},
		{"CREATE TABLE n AS WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d", "data-modifying", []string{"t"}},
	}
	for _, tt := range tests {
		_, err := parseStmt(tt.query)
		var ue *rules.UnsupportedError
		if !errors.As(err, &ue) {
			t.Errorf("Parse(%q) = %v, want *rules.UnsupportedError", tt.query, err)
			continue
		}
		if !strings.Contains(ue.Reason, tt.reason) || ue.Query != tt.query {
			t.Errorf("Parse(%q) reason %q, want it to mention %q", tt.query, ue.Reason, tt.reason)
		}
		if !reflect.DeepEqual(ue.Tables, tt.tables) {
			t.Errorf("Parse(%q) tables %v, want %v", tt.query, ue.Tables, tt.tables)
		}
	}
}

func TestPostgresTablesAndWrites(t *testing.T) {
	tests := []struct {
		query  string
		tables []string
		write  bool
	}{
		{"UPDATE Accounts SET a = 1", []string{"accounts"}, true},
		{`UPDATE "Accounts" SET a = 1`, []string{"accounts"}, true},
		{"INSERT INTO t (a) SELECT a FROM u", []string{"t"}, true},
		{"DELETE FROM t USING u WHERE t.id = u.id", []string{"t"}, true},
		{"TRUNCATE t", []string{"t"}, true},
		{"SELECT 1 FROM a JOIN b ON true WHERE EXISTS (SELECT 1 FROM c)", []string{"a", "b", "c"}, false},
		{"WITH x AS (SELECT * FROM a), y AS (SELECT * FROM x JOIN b ON true) SELECT * FROM y", []string{"a", "b"}, false},
		{"SELECT 1", nil, false},
	}
	for _, tt := range tests {
		st := mustParsePG(t, tt.query).Stmt
		if got := st.Tables(); !reflect.DeepEqual(got, tt.tables) {
			t.Errorf("%s: Tables() = %v, want %v", tt.query, got, tt.tables)
		}
		if sqlir.IsWrite(st) != tt.write {
			t.Errorf("%s: IsWrite = %v", tt.query, !tt.write)
		}
	}
}

func FuzzParsePostgres(f *testing.F) {
	for _, s := range []string{
		"UPDATE accounts a SET balance = a.balance - $1 WHERE a.id = $2 RETURNING *",
		"INSERT INTO t (a, b) VALUES ($1, $2) ON CONFLICT (a) DO UPDATE SET b = EXCLUDED.b + $1 WHERE t.c > $3",
		"INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4) ON CONFLICT DO NOTHING RETURNING a",
		"DELETE FROM a USING b WHERE a.id = b.id AND b.x IN ($1, $2)",
		"UPDATE a SET (x, y) = (SELECT 1, $2) FROM b WHERE a.id = b.id AND a.z = $1",
		"SELECT count(*), x FROM t WHERE y BETWEEN $1 AND $2 GROUP BY x FOR NO KEY UPDATE SKIP LOCKED",
		"SELECT GREATEST(a, $1, b) FROM t WHERE (a, b) IN (($2, 1), (2, $3)) AND c IS DISTINCT FROM $4::int",
		"WITH x AS (SELECT 1) SELECT * FROM x", "ROLLBACK", "COMMIT", "SET x = 1", "TRUNCATE t",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		r, err := Parse(q)
		if err != nil {
			var pe *rules.ParseError
			if errors.As(err, &pe) && (pe.Offset < 0 || pe.Offset > len(q)) {
				t.Fatalf("%q: offset %d out of range", q, pe.Offset)
			}
			return
		}
		n := r.NumParams
		items := func(list []sqlir.SelectItem) {
			for _, it := range list {
				sqltest.CheckParams(t, q, it.Expr, n)
				_ = rules.Format(it.Expr)
			}
		}
		switch s := r.Stmt.(type) {
		case *sqlir.Update:
			for _, a := range s.Set {
				sqltest.CheckParams(t, q, a.Value, n)
			}
			sqltest.CheckParams(t, q, s.Where, n)
			items(s.Returning)
		case *sqlir.Insert:
			for _, row := range s.Rows {
				if s.Columns != nil && len(row) != len(s.Columns) {
					t.Fatalf("%q: row of %d values for %d columns", q, len(row), len(s.Columns))
				}
				for _, v := range row {
					sqltest.CheckParams(t, q, v, n)
				}
			}
			for _, a := range s.OnConflict {
				sqltest.CheckParams(t, q, a.Value, n)
			}
			items(s.Returning)
		case *sqlir.Delete:
			sqltest.CheckParams(t, q, s.Where, n)
			items(s.Returning)
		case *sqlir.Select:
			items(s.Columns)
			sqltest.CheckParams(t, q, s.Where, n)
			_ = s.Tables()
		}
	})
}

// parseStmt is Parse without the placeholder facts.
func parseStmt(q string) (sqlir.Statement, error) {
	r, err := Parse(q)
	if err != nil {
		return nil, err
	}
	return r.Stmt, nil
}

// parseSQLiteStmt is ParseSQLite without the placeholder facts.
func parseSQLiteStmt(q string) (sqlir.Statement, error) {
	r, err := ParseSQLite(q)
	if err != nil {
		return nil, err
	}
	return r.Stmt, nil
}
