package schema

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/sqlparse/internal/rules"
	"github.com/dbverify/dbverify/sqlparse/internal/sqltest"
)

func TestLoadSchemaFixtures(t *testing.T) {
	tests := []struct{ path, want string }{
		{"testdata/schema.sql", `
accounts=accounts(id bigint unsigned NN, owner varchar(64) NN, email varchar(255), balance decimal(12, 2) NN, overdraft int NN, note text) keys[[id] [email] [owner email]] check[accounts_check1 on accounts: balance >= 0] check[overdraft_limit on accounts: overdraft >= 0 AND overdraft <= 1000] check[accounts_check2 on accounts: balance + overdraft >= 0]
stock=stock(sku varchar(32) NN, qty int NN, cap int NN) keys[[sku]] check[qty_range on stock: qty >= 0 AND qty <= cap]
`},
		// golang-migrate: numeric order 1, 2, 10; *.down.sql skipped.
		{"testdata/migrate", `
users=users(id serial NN, name text NN, quota integer NN, used integer NN, created_at timestamptz NN, email text NN) keys[[id] [name] [email]] check[used_le_quota on users: used <= quota + 5]
`},
		// goose: only "-- +goose Up" sections; StatementBegin/End blocks;
		// dollar-quoted function bodies; Postgres casts and = ANY (ARRAY[…]).
		{"testdata/goose", `
orders=orders(id bigserial NN, amount numeric(10,2) NN, discount numeric(10,2) NN, status text NN) keys[[id]] check[discount_le_amount on orders: discount <= amount] check[orders_check1 on orders: amount > 0] check[orders_status_check on orders: ` + "`status`" + ` = 'new' OR ` + "`status`" + ` = 'paid']
`},
		// pg_dump: schema-qualified names, (0)::numeric, quoted identifiers,
		// ALTER TABLE ONLY … ADD PRIMARY KEY, expression and partial unique
		// indexes (not keys).
		{"testdata/pgdump", `
wallets=wallets(id integer NN, ownerId integer NN, balance numeric(12,2) NN) keys[[id]] check[wallets_balance_check on wallets: balance >= 0] check[wallets_owner_check on wallets: ownerId > 0]
`},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			s, err := Load(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := sqltest.DescribeSchema(s), strings.TrimPrefix(tt.want, "\n"); got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

func TestSchemaCheckDetails(t *testing.T) {
	s, err := Load("testdata/schema.sql")
	if err != nil {
		t.Fatal(err)
	}
	acc := s.Tables["accounts"]
	c := acc.Checks[1]
	if c.Name != "overdraft_limit" || c.Text != "overdraft BETWEEN 0 AND 1000" || c.Table != "accounts" {
		t.Errorf("check = %+v", c)
	}
	if c := acc.Checks[0]; c.Text != "balance >= 0" || c.Name != "accounts_check1" {
		t.Errorf("column check = %+v", c)
	}
	s, err = Load("testdata/pgdump/dump.sql")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Tables["wallets"].Checks[0].Text; got != "(balance >= (0)::numeric)" {
		t.Errorf("Text = %q, want the CHECK as written", got)
	}
}

func TestParseSchemaStatements(t *testing.T) {
	tests := []struct{ name, ddl, want string }{
		{"column keys and checks", `
CREATE TABLE IF NOT EXISTS t (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  code TEXT CONSTRAINT code_u UNIQUE,
  n INT CONSTRAINT n_pos CHECK (n > 0) NOT NULL,
  m INT CHECK (m >= n)
)`, "t=t(id integer NN, code text, n int NN, m int) keys[[id] [code]] check[n_pos on t: n > 0] check[t_check1 on t: m >= n]\n"},
		{"composite primary key and unique index", `
CREATE TABLE t (a int, b int, c int, PRIMARY KEY (a, b), UNIQUE INDEX c_idx (c) USING BTREE);
CREATE UNIQUE INDEX t_bc ON t (b, c DESC);
CREATE INDEX t_c ON t (c);`, "t=t(a int NN, b int NN, c int) keys[[a b] [c] [b c]]\n"},
		{"uncertain keys left out", `
CREATE TABLE t (a text, b int, UNIQUE (b) DEFERRABLE INITIALLY DEFERRED, UNIQUE (a(10)));
CREATE UNIQUE INDEX t_lower ON t (lower(a));
CREATE UNIQUE INDEX t_part ON t (b) WHERE b > 0;`, "t=t(a text, b int) keys[[a]]\n"},
		{"duplicate keys merged", `CREATE TABLE t (a int PRIMARY KEY, UNIQUE (a))`, "t=t(a int NN) keys[[a]]\n"},
		{"drop constraint, rename column and table", `
CREATE TABLE t (a int CHECK (a > 0), b int CHECK (b > 0), UNIQUE (a));
ALTER TABLE t DROP CONSTRAINT t_check2;
ALTER TABLE t RENAME COLUMN a TO z;
ALTER TABLE t RENAME TO u;`, "u=u(z int, b int) keys[[z]] check[t_check1 on u: z > 0]\n"},
		{"drop column drops its keys and checks", `
CREATE TABLE t (a int, b int, c int, UNIQUE (a, b), CHECK (a < c), CHECK (c > 0));
ALTER TABLE t DROP COLUMN a;`, "t=t(b int, c int) keys[] check[t_check2 on t: c > 0]\n"},
		{"postgres default check names", `
CREATE TABLE t (a int CHECK (a > 0), b int, CHECK (b > 0), c int UNIQUE, d int PRIMARY KEY);
ALTER TABLE t DROP CONSTRAINT t_a_check, DROP CONSTRAINT t_c_key, DROP CONSTRAINT t_pkey;`,
			"t=t(a int, b int, c int, d int NN) keys[] check[t_check2 on t: b > 0]\n"},
		{"mysql alter forms", "CREATE TABLE `t` (`a` int, `b` int, KEY k (a), UNIQUE KEY bk (b));\n" +
			"ALTER TABLE t MODIFY COLUMN a bigint NOT NULL CHECK (a >= 0), CHANGE b bb int, ADD (c int, d int UNIQUE), DROP INDEX bk, ADD UNIQUE INDEX cd (c, d), DROP PRIMARY KEY;\n" +
			"ALTER TABLE t ADD CONSTRAINT c_pos CHECK (c > 0), DROP CHECK t_check1;",
			"t=t(a bigint NN, bb int, c int, d int) keys[[d] [c d]] check[c_pos on t: c > 0]\n"},
		{"postgres alter column", `
CREATE TABLE t (a int NOT NULL, b int);
ALTER TABLE ONLY public.t ALTER COLUMN a DROP NOT NULL, ALTER COLUMN b SET NOT NULL, ALTER COLUMN b TYPE bigint USING b::bigint, ALTER COLUMN a SET DEFAULT 1, OWNER TO me;`,
			"t=t(a int, b bigint NN) keys[]\n"},
		{"drop and rename tables", `
CREATE TABLE a (x int); CREATE TABLE b (y int); CREATE TABLE c (z int UNIQUE);
DROP TABLE IF EXISTS a, b CASCADE;
RENAME TABLE c TO d;
DROP INDEX z ON d;`, "d=d(z int) keys[]\n"},
		{"create table like and as", `
CREATE TABLE a (x int NOT NULL, CHECK (x > 0), PRIMARY KEY (x));
CREATE TABLE b LIKE a;
CREATE TABLE c (LIKE a INCLUDING ALL);
CREATE TABLE d AS SELECT * FROM a;`,
			"a=a(x int NN) keys[[x]] check[a_check1 on a: x > 0]\nb=b(x int NN) keys[[x]] check[a_check1 on b: x > 0]\nc=c(x int NN) keys[[x]] check[a_check1 on c: x > 0]\nd=d() keys[]\n"},
		{"mysql delimiter and triggers", `
DELIMITER //
CREATE TRIGGER trg BEFORE INSERT ON t FOR EACH ROW BEGIN SET NEW.a = 1; END//
DELIMITER ;
CREATE TABLE t (a int CHECK (a > 0));`, "t=t(a int) keys[] check[t_check1 on t: a > 0]\n"},
		{"other statements skipped", `
SET NAMES utf8; INSERT INTO x VALUES (1); CREATE VIEW v AS SELECT 1; GRANT ALL ON t TO u;
CREATE EXTENSION IF NOT EXISTS "uuid-ossp"; SELECT garbage (((;
CREATE TABLE t (id uuid DEFAULT uuid_generate_v4() NOT NULL, n int GENERATED ALWAYS AS IDENTITY, "Mixed" text);`,
			"t=t(id uuid NN, n int NN, Mixed text) keys[]\n"},
		{"enum and comments", `
/* header; with semicolon */
CREATE TABLE t (
  s ENUM('a', 'b;c') NOT NULL COMMENT 'the; state', # mysql comment
  n numeric(5, 2) -- trailing
);`, "t=t(s enum('a', 'b;c') NN, n numeric(5, 2)) keys[]\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse(tt.ddl)
			if err != nil {
				t.Fatal(err)
			}
			if got := sqltest.DescribeSchema(s); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestParseSchemaErrors(t *testing.T) {
	tests := []struct {
		name, ddl, msg string
	}{
		{"bad check", "CREATE TABLE t (\n  a int,\n  b int CHECK (b >=)\n);",
			`line 3: table t: CHECK (b >=): syntax error at column 5 (unexpected end of input)`},
		{"check in later line", "CREATE TABLE t (a int,\n CONSTRAINT c CHECK (\n  a >\n  = 1))",
			`line 4: table t: CHECK (a > = 1): syntax error near "="`},
		{"check on other table", "CREATE TABLE t (a int CHECK (u.a > 0))",
			`line 1: table t: CHECK (u.a > 0): constraint "u.a > 0" is over table u, not t`},
		{"check with placeholder", "CREATE TABLE t (a int CHECK (a > ?))",
			`line 1: table t: CHECK (a > ?): placeholders (?, :name) are not allowed in a constraint`},
		{"empty element", "\nCREATE TABLE t (a int,, b int)", "line 2: CREATE TABLE t: empty column definition"},
		{"unbalanced", "CREATE TABLE t (a int", "line 1: CREATE TABLE t: unbalanced parentheses"},
		{"no column list", "CREATE TABLE t;", "line 1: CREATE TABLE t: expected a column list"},
		{"no name", "CREATE TABLE (a int)", "line 1: CREATE TABLE: expected a table name"},
		{"check without parens", "CREATE TABLE t (a int);\nALTER TABLE t ADD CHECK a > 0;", "line 2: table t: CHECK without a parenthesised condition"},
		{"alter without action", "ALTER TABLE t", "line 1: ALTER TABLE t: no action"},
		{"bad postgres regex check", "\n\nALTER TABLE t ADD CONSTRAINT c CHECK (x ~* 'a' AND)", `line 3: table t: CHECK (x ~* 'a' AND): syntax error at column 3 near "~"`},
		{"unterminated string", "CREATE TABLE t (a text DEFAULT 'x)", "line 1: CREATE TABLE: unterminated string at offset 31"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.ddl)
			if err == nil {
				t.Fatal("no error")
			}
			if err.Error() != tt.msg {
				t.Errorf("error %q\n         want %q", err.Error(), tt.msg)
			}
			var se *Error
			if !errors.As(err, &se) || se.Line == 0 {
				t.Errorf("not a *Error with a line: %#v", err)
			}
		})
	}
}

func TestLoadSchemaErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("001_ok.up.sql", "CREATE TABLE t (a int);\n")
	write("002_bad.up.sql", "-- comment\nALTER TABLE t\n  ADD CONSTRAINT c CHECK (a >);\n")
	write("002_bad.down.sql", "garbage")
	write("README.md", "not sql")
	_, err := Load(dir)
	var se *Error
	if !errors.As(err, &se) {
		t.Fatalf("error %v is not a *Error", err)
	}
	if se.File != filepath.Join(dir, "002_bad.up.sql") || se.Line != 3 {
		t.Errorf("File %q Line %d", se.File, se.Line)
	}
	if want := filepath.Join(dir, "002_bad.up.sql") + ":3: table t: CHECK (a >): syntax error at column 4 (unexpected end of input)"; err.Error() != want {
		t.Errorf("error %q\n want %q", err.Error(), want)
	}

	if _, err := Load(filepath.Join(dir, "missing")); err == nil || !strings.Contains(err.Error(), "load schema") {
		t.Errorf("missing path: %v", err)
	}
	empty := t.TempDir()
	if _, err := Load(empty); err == nil || !strings.Contains(err.Error(), "no .sql files") {
		t.Errorf("empty dir: %v", err)
	}
}

func TestMigrationOrder(t *testing.T) {
	names := []string{"10_c.up.sql", "2_b.up.sql", "001_a.up.sql", "20240101_x.sql", "schema.sql", "9_z.sql"}
	want := []string{"001_a.up.sql", "2_b.up.sql", "9_z.sql", "10_c.up.sql", "20240101_x.sql", "schema.sql"}
	got := append([]string(nil), names...)
	for i := range got { // insertion sort with migrationLess
		for j := i; j > 0 && migrationLess(got[j], got[j-1]); j-- {
			got[j], got[j-1] = got[j-1], got[j]
		}
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("order %v, want %v", got, want)
	}
}

func TestSplitStatements(t *testing.T) {
	src := "a 'x;y' \"p;q\" `r;s`;\n-- c;\n/* d; */ b $$ e; $$ $tag$ f; $tag$;\n#g;\nc E'h\\';' ;;"
	var got []string
	for _, s := range splitStatements(src) {
		got = append(got, s.Text)
	}
	want := []string{"a 'x;y' \"p;q\" `r;s`", "b $$ e; $$ $tag$ f; $tag$", "c E'h\\';'"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestSchemaDefaults: DEFAULT clauses, serial types, identity and
// AUTO_INCREMENT columns. Each column is described as name=value: the
// constant default, "expr" for a default the row model leaves arbitrary,
// "seq" for a sequence, "-" for none.
func TestSchemaDefaults(t *testing.T) {
	tests := []struct{ name, ddl, want string }{
		{"postgres constants and casts", `
CREATE TABLE t (
  a integer NOT NULL DEFAULT 0,
  b numeric(10,2) DEFAULT '1.50'::numeric,
  c text DEFAULT 'new'::text NOT NULL,
  d boolean DEFAULT false,
  e bigint DEFAULT (-5),
  f character varying(20) DEFAULT NULL::character varying,
  g int,
  h timestamptz DEFAULT now(),
  i int DEFAULT 1 + 2,
  j boolean DEFAULT 't'
)`, "a=0 b=1.5 c='new' d=FALSE e=-5 f=- g=- h=expr i=expr j=TRUE"},
		{"mysql constants", "CREATE TABLE `t` (`a` INT NOT NULL DEFAULT '3', `b` VARCHAR(10) DEFAULT 'x' COMMENT 'c', " +
			"`c` TINYINT(1) NOT NULL DEFAULT TRUE, `d` DATETIME DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, " +
			"`e` INT DEFAULT NULL, `f` ENUM('a','b') NOT NULL DEFAULT 'a', `g` DECIMAL(5,2) DEFAULT -1.25, `h` DATE DEFAULT '2020-01-01')",
			"a=3 b='x' c=TRUE d=expr e=- f='a' g=-1.25 h=expr"},
		{"sequences", `
CREATE TABLE t (
  a bigserial PRIMARY KEY,
  b int GENERATED ALWAYS AS IDENTITY,
  c int GENERATED BY DEFAULT AS IDENTITY (START WITH 0),
  d int GENERATED BY DEFAULT AS IDENTITY (START WITH 100 INCREMENT BY 5),
  e int GENERATED ALWAYS AS (a * 2) STORED,
  f int NOT NULL DEFAULT nextval('t_f_seq'::regclass),
  g int IDENTITY(1,1),
  h int IDENTITY(0,1)
)`, "a=seq b=seq c=expr d=seq e=expr f=expr g=seq h=expr"},
		{"mysql auto_increment", "CREATE TABLE t (id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT, n INT, PRIMARY KEY (id))", "id=seq n=-"},
		{"alter set and drop default", `
CREATE TABLE t (a int DEFAULT 1, b int, c serial, d int DEFAULT 7, e int GENERATED ALWAYS AS IDENTITY);
ALTER TABLE t ALTER COLUMN a SET DEFAULT -2, ALTER COLUMN b SET DEFAULT 4, ALTER COLUMN c DROP DEFAULT, ALTER d DROP DEFAULT;
ALTER TABLE t ALTER COLUMN e RESTART WITH 0;`, "a=-2 b=4 c=- d=- e=expr"},
		{"mysql modify replaces the definition", `
CREATE TABLE t (a int DEFAULT 1, b int DEFAULT 2);
ALTER TABLE t MODIFY a bigint, CHANGE b bb int DEFAULT 3;`, "a=- bb=3"},
		{"like copies defaults only when asked", `
CREATE TABLE s (a int DEFAULT 1, b serial);
CREATE TABLE t (LIKE s);
CREATE TABLE u (LIKE s INCLUDING DEFAULTS);
CREATE TABLE v LIKE s;`, "a=1 b=seq | a=- b=- | a=1 b=seq | a=1 b=seq"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse(tt.ddl)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for k := range s.Tables {
				names = append(names, k)
			}
			sort.Strings(names)
			var tables []string
			for _, n := range names {
				var cols []string
				for _, c := range s.Tables[n].Columns {
					v := "-"
					switch {
					case c.AutoIncrement:
						v = "seq"
					case c.Default != nil:
						v = rules.Format(c.Default)
					case c.HasDefault:
						v = "expr"
					}
					cols = append(cols, c.Name+"="+v)
				}
				tables = append(tables, strings.Join(cols, " "))
			}
			if got := strings.Join(tables, " | "); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}
