package mysql

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/internal/rules"
	"github.com/dbverify/dbverify/sqlparse/internal/sqltest"
)

func TestParseStatements(t *testing.T) {
	tests := []struct {
		name, query, want string
	}{
		// UPDATE
		{"update", "UPDATE accounts SET balance = balance - ? WHERE id = ?",
			"UPDATE accounts SET balance = balance - $1 WHERE id = $2"},
		{"update no where", "update t set a = 1, b = 'x'", "UPDATE t SET a = 1, b = 'x'"},
		{"update trailing semicolon", "UPDATE t SET a = 1;", "UPDATE t SET a = 1"},
		{"update qualified db", "UPDATE bank.accounts SET balance = 0 WHERE bank.accounts.id = 7",
			"UPDATE accounts SET balance = 0 WHERE accounts.id = 7"},
		{"update mysql left-to-right SET", "UPDATE t SET a = a + 1, b = a * 2",
			"UPDATE t SET a = a + 1, b = (a + 1) * 2"},
		{"update order by limit 1", "UPDATE jobs SET state = 'taken' WHERE state = 'new' ORDER BY id, prio DESC LIMIT 1",
			"UPDATE jobs SET state = 'taken' WHERE state = 'new' FIRST BY id, prio DESC"},
		{"update limit", "UPDATE jobs SET state = 'taken' WHERE state = 'new' LIMIT 1",
			"UPDATE jobs SET state = 'taken' WHERE state = 'new' AND row chosen by limit 1"},
		{"update order by limit 2", "UPDATE jobs SET state = 'taken' WHERE state = 'new' ORDER BY id LIMIT 2",
			"UPDATE jobs SET state = 'taken' WHERE state = 'new' AND row chosen by limit 2"},
		{"multi-table update", "UPDATE accounts a JOIN users u ON a.user_id = u.id AND a.frozen = 0 SET a.balance = a.balance - u.fee WHERE u.name = ? AND a.balance > 0",
			"UPDATE accounts SET balance = accounts.balance - users.fee WHERE accounts.frozen = 0 AND accounts.balance > 0 AND joined with users where a.user_id = u.id and u.name = $1"},
		{"multi-table left join ON not used", "UPDATE a LEFT JOIN b ON a.x = 1 SET a.y = 2",
			"UPDATE a SET y = 2 WHERE joined with b"},

		// INSERT
		{"insert", "INSERT INTO accounts (id, balance) VALUES (?, ?)",
			"INSERT accounts (id, balance) VALUES ($1, $2)"},
		{"insert multi rows", "insert into t (a, b) values (1, -2.50), (?, NULL)",
			"INSERT t (a, b) VALUES (1, -2.5), ($1, NULL)"},
		{"insert no columns", "INSERT INTO t VALUES (1, 'a')", "INSERT t VALUES (1, 'a')"},
		{"insert set form", "INSERT INTO t SET a = 1, b = ?", "INSERT t (a, b) VALUES (1, $1)"},
		{"insert select", "INSERT INTO archive (id) SELECT id FROM t WHERE x < ?", "INSERT archive (id) SELECT"},
		{"on duplicate key", "INSERT INTO stock (sku, qty) VALUES (?, ?) ON DUPLICATE KEY UPDATE qty = qty + VALUES(qty)",
			"INSERT stock (sku, qty) VALUES ($1, $2) ON DUP qty = qty + $2"},
		{"on duplicate key multi-row VALUES()", "INSERT INTO s (k, q) VALUES (1, 2), (3, 4) ON DUPLICATE KEY UPDATE q = VALUES(q)",
			"INSERT s (k, q) VALUES (1, 2), (3, 4) ON DUP q = values(q)"},
		{"insert ignore", "INSERT IGNORE INTO t (a) VALUES (1)", "INSERT IGNORE t (a) VALUES (1)"},
		{"replace", "REPLACE INTO t (a) VALUES (1)", "INSERT REPLACE t (a) VALUES (1)"},
		{"insert default", "INSERT INTO t (a) VALUES (DEFAULT)", "INSERT t (a) VALUES (default)"},

		// DELETE
		{"delete", "DELETE FROM sessions WHERE expires < NOW()", "DELETE sessions WHERE expires < NOW()"},
		{"delete all", "delete from t", "DELETE t"},
		{"delete alias", "DELETE a FROM accounts AS a WHERE a.id = ?", "DELETE accounts WHERE accounts.id = $1"},
		{"delete limit", "DELETE FROM t WHERE a = 1 LIMIT ?", "DELETE t WHERE a = 1 AND row chosen by limit $1"},
		{"multi-table delete", "DELETE a FROM a JOIN b ON a.id = b.aid WHERE a.z = 1",
			"DELETE a WHERE a.z = 1 AND joined with b where a.id = b.aid"},

		// SELECT
		{"select", "SELECT balance FROM accounts WHERE id = ?", "SELECT balance FROM accounts WHERE id = $1"},
		{"select star", "select * from t", "SELECT STAR:* FROM t"},
		{"select t.star alias", "select a.* from accounts a", "SELECT STAR:accounts.* FROM accounts"},
		{"select aliases", "SELECT a.balance AS bal, a.id id FROM accounts AS a",
			"SELECT accounts.balance AS bal, accounts.id AS id FROM accounts"},
		{"select for update", "SELECT balance FROM accounts WHERE id = ? FOR UPDATE",
			"SELECT balance FROM accounts WHERE id = $1 FOR UPDATE"},
		{"select lock in share mode", "SELECT qty FROM stock WHERE sku = ? LOCK IN SHARE MODE",
			"SELECT qty FROM stock WHERE sku = $1 FOR SHARE"},
		{"select for update skip locked", "SELECT id FROM jobs WHERE state = 'new' LIMIT 1 FOR UPDATE SKIP LOCKED",
			"SELECT id FROM jobs WHERE state = 'new' FOR UPDATE"},
		{"select for share nowait", "SELECT id FROM jobs FOR SHARE NOWAIT", "SELECT id FROM jobs FOR SHARE"},
		{"select no from", "SELECT 1", "SELECT 1 FROM "},
		{"select join", "SELECT a.balance, u.name FROM accounts a JOIN users u ON a.user_id = u.id WHERE u.id = ?",
			"SELECT accounts.balance, users.name FROM  WHERE users.id = $1 COMPLEX(join) TABLES[accounts users]"},
		{"select comma join", "SELECT 1 FROM a, b", "SELECT 1 FROM  COMPLEX(join) TABLES[a b]"},
		{"select group by", "SELECT owner, SUM(balance) FROM accounts GROUP BY owner",
			"SELECT owner, SUM(balance) FROM accounts COMPLEX(GROUP BY, aggregate SUM) TABLES[accounts]"},
		{"select count", "SELECT COUNT(*) FROM accounts WHERE balance < 0",
			"SELECT COUNT(*) FROM accounts WHERE balance < 0 COMPLEX(aggregate COUNT) TABLES[accounts]"},
		{"select max min avg", "SELECT MAX(a), MIN(a), AVG(a) FROM t",
			"SELECT MAX(a), MIN(a), AVG(a) FROM t COMPLEX(aggregate MAX) TABLES[t]"},
		{"select distinct", "SELECT DISTINCT owner FROM accounts", "SELECT owner FROM accounts COMPLEX(DISTINCT) TABLES[accounts]"},
		{"select having", "SELECT owner FROM accounts GROUP BY owner HAVING COUNT(*) > 1",
			"SELECT owner FROM accounts COMPLEX(GROUP BY, HAVING) TABLES[accounts]"},
		{"select union", "SELECT id FROM a WHERE x = ? UNION SELECT id FROM b WHERE y = ?",
			"SELECT id FROM  COMPLEX(UNION) TABLES[a b]"},
		{"select derived table", "SELECT d.n FROM (SELECT COUNT(*) AS n FROM t) AS d",
			"SELECT d.n FROM  COMPLEX(subquery in FROM) TABLES[t]"},
		{"select subquery in where", "SELECT id FROM a WHERE x IN (SELECT x FROM b WHERE y = ?) AND z = ?",
			"SELECT id FROM a WHERE x in (select x from b where y = $1) AND z = $2 TABLES[a b]"},

		// transactions
		{"begin", "BEGIN", "TX BEGIN"},
		{"begin work", "begin work;", "TX BEGIN"},
		{"start transaction", "START TRANSACTION", "TX BEGIN"},
		{"start transaction read only", "START TRANSACTION READ ONLY", "TX BEGIN"},
		{"commit", "COMMIT", "TX COMMIT"},
		{"commit work", "COMMIT WORK", "TX COMMIT"},
		{"rollback", "ROLLBACK", "TX ROLLBACK"},
		{"rollback comment", "/* tx */ rollback -- done", "TX ROLLBACK"},

		// other
		{"create table", "CREATE TABLE t (a INT)", "OTHER CREATE TABLE t (a INT)"},
		{"create table with check", "CREATE TABLE t (a INT CHECK (a > 0))", "OTHER CREATE TABLE t (a INT CHECK (a > 0))"},
		{"alter", "ALTER TABLE t ADD COLUMN b INT", "OTHER ALTER TABLE t ADD COLUMN b INT"},
		{"drop", "DROP TABLE t", "OTHER DROP TABLE t"},
		{"truncate", "TRUNCATE TABLE t", "OTHER TRUNCATE TABLE t"},
		{"set", "SET autocommit = 0", "OTHER SET autocommit = 0"},
		{"set transaction", "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE", "OTHER SET TRANSACTION ISOLATION LEVEL SERIALIZABLE"},
		{"show", "SHOW TABLES", "OTHER SHOW TABLES"},
		{"use", "USE bank", "OTHER USE bank"},
		{"update ignore", "UPDATE IGNORE accounts SET balance = balance - ? WHERE id = ?", "UPDATE IGNORE accounts SET balance = balance - $1 WHERE id = $2"},
		{"update low_priority ignore", "update low_priority ignore accounts set id = 2 where id = 1", "UPDATE IGNORE accounts SET id = 2 WHERE id = 1"},
		{"update low_priority", "UPDATE LOW_PRIORITY accounts SET balance = 0", "UPDATE accounts SET balance = 0"},
		{"update named ignore column", "UPDATE accounts SET `ignore` = 1", "UPDATE accounts SET ignore = 1"},
		{"savepoint", "SAVEPOINT s1", "TX SAVEPOINT s1"},
		{"savepoint upper case", "SAVEPOINT Debit_1;", "TX SAVEPOINT debit_1"},
		{"release savepoint", "RELEASE SAVEPOINT s1", "TX RELEASE s1"},
		{"rollback to savepoint", "ROLLBACK TO SAVEPOINT s1", "TX ROLLBACK TO s1"},
		{"rollback work to", "rollback work to s1", "TX ROLLBACK TO s1"},
		{"lock tables", "LOCK TABLES t WRITE", "OTHER LOCK TABLES t WRITE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, err := parseStmt(tt.query)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.query, err)
			}
			if got := sqltest.Describe(st); got != tt.want {
				t.Errorf("Parse(%q)\n got %s\nwant %s", tt.query, got, tt.want)
			}
		})
	}
}

func TestParseExpressions(t *testing.T) {
	// Each condition is parsed as the WHERE of a SELECT on t.
	tests := []struct{ cond, want string }{
		{"a = 1 AND b <> 2 OR NOT c < 3", "a = 1 AND b <> 2 OR NOT c < 3"},
		{"a != 1", "a <> 1"},
		{"a <= 1 AND a >= 0 AND a > -1", "a <= 1 AND a >= 0 AND a > -1"},
		{"a <=> 1", "a <=> 1"},
		{"(a + b) * c - d / e % f", "(a + b) * c - d / e % f"},
		{"a DIV 2 = 1 AND b MOD 3 = 0", "a DIV 2 = 1 AND b % 3 = 0"},
		{"-a + -(b) = - -1", "-a + -b = 1"},
		{"+a = 1", "a = 1"},
		{"!a", "NOT a"},
		{"a = 1.50 AND b = 2e3 AND c = .5 AND d = 0x1F", "a = 1.5 AND b = 2000.0 AND c = 0.5 AND d = 31"},
		{"s = 'it''s' AND u = \"dq\"", "s = 'it''s' AND u = 'dq'"},
		{"a = TRUE AND b = false AND c = NULL", "a = TRUE AND b = FALSE AND c = NULL"},
		{"a IS NULL AND b IS NOT NULL", "a IS NULL AND b IS NOT NULL"},
		{"a IS TRUE", "CASE WHEN a THEN TRUE ELSE FALSE END"},
		{"a IS NOT TRUE", "CASE WHEN a THEN FALSE ELSE TRUE END"},
		{"a IS FALSE", "CASE WHEN NOT a THEN TRUE ELSE FALSE END"},
		{"a IS NOT FALSE", "CASE WHEN NOT a THEN FALSE ELSE TRUE END"},
		{"a BETWEEN 1 AND ?", "a >= 1 AND a <= $1"},
		{"a NOT BETWEEN 1 AND 2", "NOT (a >= 1 AND a <= 2)"},
		{"a IN (1, ?, 'x')", "a = 1 OR a = $1 OR a = 'x'"},
		{"a NOT IN (1, 2)", "NOT (a = 1 OR a = 2)"},
		{"(a, b) = (1, 2)", "a = 1 AND b = 2"},
		{"(a, b) <> (1, 2)", "NOT (a = 1 AND b = 2)"},
		{"(a, b) IN ((1, 2), (3, ?))", "a = 1 AND b = 2 OR a = 3 AND b = $1"},
		{"(a, b) < (1, 2)", "(a, b) < (1, 2)"},
		{"CASE WHEN a > 0 THEN 1 WHEN a < 0 THEN -1 END = 1", "CASE WHEN a > 0 THEN 1 WHEN a < 0 THEN -1 END = 1"},
		{"CASE a WHEN 1 THEN 'x' ELSE 'y' END = 'x'", "CASE WHEN a = 1 THEN 'x' ELSE 'y' END = 'x'"},
		{"COALESCE(a, b, 0) > 0", "CASE WHEN a IS NOT NULL THEN a WHEN b IS NOT NULL THEN b ELSE 0 END > 0"},
		{"IFNULL(a, 0) > 0", "CASE WHEN a IS NOT NULL THEN a ELSE 0 END > 0"},
		{"IF(a > 0, a, 0) = 1", "CASE WHEN a > 0 THEN a ELSE 0 END = 1"},
		{"NULLIF(a, 0) = 1", "CASE WHEN a = 0 THEN NULL ELSE a END = 1"},
		{"ABS(a) < 5", "CASE WHEN a < 0 THEN -a ELSE a END < 5"},
		{"GREATEST(a - ?, 0) >= 0", "CASE WHEN a - $1 IS NULL THEN NULL WHEN a - $1 >= 0 THEN a - $1 ELSE 0 END >= 0"},
		{"LEAST(a, b) = 1", "CASE WHEN a IS NULL OR b IS NULL THEN NULL WHEN a <= b THEN a ELSE b END = 1"},
		{"created < NOW() AND name LIKE ?", "created < NOW() AND name like $1"},
		{"a = @v AND b = @@autocommit", "a = @v AND b = @@autocommit"},
		{"a & 1 = 1", "(a & 1) = 1"},
		{"EXISTS (SELECT 1 FROM u WHERE u.x = ?)", "exists (select 1 from u where u.x = $1)"},
		{"a = CAST(? AS SIGNED)", "a = convert($1, signed)"},
	}
	for _, tt := range tests {
		t.Run(tt.cond, func(t *testing.T) {
			st, err := parseStmt("SELECT x FROM t WHERE " + tt.cond)
			if err != nil {
				t.Fatal(err)
			}
			got := rules.Format(st.(*sqlir.Select).Where)
			if got != tt.want {
				t.Errorf("WHERE %s\n got %s\nwant %s", tt.cond, got, tt.want)
			}
		})
	}
}

func TestPlaceholderNumbering(t *testing.T) {
	tests := []struct {
		name, query string
		n           int
		names       []string
		want        string
	}{
		{"positional in order", "UPDATE t SET a = ?, b = ? WHERE c = ? AND d = ?", 4, nil,
			"UPDATE t SET a = $1, b = $2 WHERE c = $3 AND d = $4"},
		{"inside unknown", "UPDATE t SET a = CONCAT(?, ?) WHERE b = ? AND c LIKE ?", 4, nil,
			"UPDATE t SET a = CONCAT($1, $2) WHERE b = $3 AND c like $4"},
		{"inside IN list", "DELETE FROM t WHERE a IN (?, 5, ?) AND b = ?", 3, nil,
			"DELETE t WHERE (a = $1 OR a = 5 OR a = $2) AND b = $3"},
		{"inside subquery", "SELECT a FROM t WHERE b = (SELECT MAX(b) FROM u WHERE c = ?) AND d = ?", 2, nil,
			"SELECT a FROM t WHERE b = (select MAX(b) from u where c = $1) AND d = $2 TABLES[t u]"},
		{"unused positions still counted", "SELECT a FROM t WHERE b = ? LIMIT ?", 2, nil,
			"SELECT a FROM t WHERE b = $1"},
		{"named first appearance", "UPDATE t SET a = :amount WHERE id = :id AND a >= :amount", 2, []string{"amount", "id"},
			"UPDATE t SET a = $1 WHERE id = $2 AND a >= $1"},
		{"named inside IN and unknown", "SELECT a FROM t WHERE b IN (:x, :y) AND c LIKE :y AND d = :z", 3, []string{"x", "y", "z"},
			"SELECT a FROM t WHERE (b = $1 OR b = $2) AND c like $2 AND d = $3"},
		{"named with dots", "SELECT a FROM t WHERE b = :user.id", 1, []string{"user.id"},
			"SELECT a FROM t WHERE b = $1"},
		{"question mark in string is not a placeholder", "SELECT a FROM t WHERE b = '?' AND c = ?", 1, nil,
			"SELECT a FROM t WHERE b = '?' AND c = $1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse(tt.query)
			if err != nil {
				t.Fatal(err)
			}
			if r.NumParams != tt.n {
				t.Errorf("NumParams = %d, want %d", r.NumParams, tt.n)
			}
			if !reflect.DeepEqual(r.ParamNames, tt.names) {
				t.Errorf("ParamNames = %q, want %q", r.ParamNames, tt.names)
			}
			if got := sqltest.Describe(r.Stmt); got != tt.want {
				t.Errorf("\n got %s\nwant %s", got, tt.want)
			}
		})
	}

	// The Params of an Unknown list its placeholders.
	st, err := parseStmt("UPDATE t SET a = f(?, b, ?) WHERE c = ? AND d LIKE CONCAT(?, '%', ?)")
	if err != nil {
		t.Fatal(err)
	}
	u := st.(*sqlir.Update)
	if unk, ok := u.Set[0].Value.(*sqlir.Unknown); !ok || !reflect.DeepEqual(unk.Params, []int{0, 1}) {
		t.Errorf("SET value = %#v, want Unknown with Params [0 1]", u.Set[0].Value)
	}
	like := u.Where.(*sqlir.Binary).Y.(*sqlir.Unknown)
	if !reflect.DeepEqual(like.Params, []int{3, 4}) {
		t.Errorf("LIKE params = %v, want [3 4]", like.Params)
	}
	// Named: a repeated name is one parameter in an Unknown.
	st, err = parseStmt("SELECT a FROM t WHERE b = :x AND c LIKE CONCAT(:y, :x, :y)")
	if err != nil {
		t.Fatal(err)
	}
	unk := st.(*sqlir.Select).Where.(*sqlir.Binary).Y.(*sqlir.Unknown)
	if !reflect.DeepEqual(unk.Params, []int{1, 0}) {
		t.Errorf("named LIKE params = %v, want [1 0]", unk.Params)
	}
}

func TestAliasResolution(t *testing.T) {
	st, err := parseStmt("SELECT a.balance, Accounts.owner, x.y FROM accounts AS a WHERE A.id = ? AND id > 0")
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*sqlir.Select)
	want := []sqlir.Expr{
		&sqlir.ColRef{Table: "accounts", Name: "balance"},
		&sqlir.ColRef{Table: "accounts", Name: "owner"},
		&sqlir.ColRef{Table: "x", Name: "y"}, // unknown qualifier kept as written
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
	if s.Table != "accounts" || !reflect.DeepEqual(s.Tables(), []string{"accounts"}) {
		t.Errorf("table = %q tables %v", s.Table, s.Tables())
	}

	// Table names keep their spelling; Tables() lower-cases.
	st, err = parseStmt("UPDATE `Accounts` acc SET acc.Balance = 0 WHERE acc.ID = 1")
	if err != nil {
		t.Fatal(err)
	}
	u := st.(*sqlir.Update)
	if u.Table != "Accounts" || u.Set[0].Col != "Balance" || !reflect.DeepEqual(u.Tables(), []string{"accounts"}) {
		t.Errorf("got %s tables %v", sqltest.Describe(u), u.Tables())
	}
	if c := u.Where.(*sqlir.Binary).X.(*sqlir.ColRef); c.Table != "Accounts" || c.Name != "ID" {
		t.Errorf("where column = %+v", c)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, query string
		offset      int
		msg         string
	}{
		{"typo keyword", "SELEC balance FROM accounts", 0, `syntax error at column 1 near "SELEC"`},
		{"junk at end", "SELECT a FROM t WHERE x >= 3 frm", 29, `syntax error at column 30 near "frm"`},
		{"end of input", "UPDATE t SET a =", 16, "syntax error at column 17 (unexpected end of input)"},
		{"postgres placeholder", "UPDATE t SET a = $1", 17, `syntax error at column 18 near "$"`},
		{"multi-line", "SELECT a\nFROM t\nWHERE a = = 1", 26, `syntax error at line 3, column 11 near "="`},
		{"unterminated string", "SELECT a FROM t WHERE b = 'abc", 26, `syntax error at column 27 near "abc"`},
		{"two statements", "UPDATE t SET a = 1; UPDATE t SET b = 2", 20, "more than one statement in one query at column 21"},
		{"insert column count", "INSERT INTO t (a, b) VALUES (1)", -1, "INSERT into t: row 1 has 1 values for 2 columns"},
		{"mixed placeholders", "UPDATE t SET a = ? WHERE b = :b", -1, "query mixes ? and :name placeholders"},
		{"empty", "  -- nothing\n", -1, "empty SQL query"},
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

	// Position gives line and column for the caller to add to the literal's position.
	_, err := parseStmt("SELECT a\n  FROM t WHERE\n    a = = 1")
	var pe *rules.ParseError
	if !errors.As(err, &pe) {
		t.Fatal(err)
	}
	if l, c := pe.Position(); l != 3 || c != 9 {
		t.Errorf("Position = %d:%d, want 3:9", l, c)
	}
}

func TestUnsupported(t *testing.T) {
	tests := []struct{ query, reason string }{
		{"ROLLBACK TO SAVEPOINT", "ROLLBACK TO without one savepoint name"},
		{"SAVEPOINT a b", "SAVEPOINT without one savepoint name"},
		{"UPDATE IGNORE a JOIN b ON a.id = b.id SET a.x = 1", "UPDATE IGNORE of a join"},
		{"CALL transfer(?, ?)", "stored procedure"},
		{"WITH x AS (SELECT 1) UPDATE t SET a = 1", "WITH"},
		{"UPDATE a, b SET a.x = 1, b.y = 2", "both a and b"},
		{"UPDATE a JOIN b ON a.id = b.id SET x = 1", "unqualified column x"},
		{"DELETE a, b FROM a JOIN b ON a.id = b.id", "several tables"},
	}
	for _, tt := range tests {
		_, err := parseStmt(tt.query)
		var ue *rules.UnsupportedError
		if !errors.As(err, &ue) {
			t.Errorf("Parse(%q) = %v, want *rules.UnsupportedError", tt.query, err)
			continue
		}
		if !strings.Contains(ue.Reason, tt.reason) {
			t.Errorf("Parse(%q) reason %q, want it to mention %q", tt.query, ue.Reason, tt.reason)
		}
	}
}

func TestSelectFields(t *testing.T) {
	st, err := parseStmt("SELECT u.id FROM users u LEFT JOIN orders o ON o.uid = u.id WHERE o.id IS NULL FOR UPDATE")
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*sqlir.Select)
	if !s.Complex || s.Reason != "join" || s.Table != "" || !s.ForUpdate ||
		!reflect.DeepEqual(s.AllTables, []string{"users", "orders"}) ||
		!reflect.DeepEqual(s.Tables(), []string{"users", "orders"}) {
		t.Errorf("got %+v", s)
	}
	if !sqltest.ExprEqual(s.Where, &sqlir.IsNull{X: &sqlir.ColRef{Table: "orders", Name: "id"}}) {
		t.Errorf("where %s", rules.Format(s.Where))
	}
	if !sqlir.IsWrite(mustParse(t, "DELETE FROM t")) || sqlir.IsWrite(s) {
		t.Error("IsWrite")
	}
}

func mustParse(t *testing.T, q string) sqlir.Statement {
	t.Helper()
	st, err := parseStmt(q)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// parseStmt is Parse without the placeholder facts.
func parseStmt(q string) (sqlir.Statement, error) {
	r, err := Parse(q)
	if err != nil {
		return nil, err
	}
	return r.Stmt, nil
}
