package schema

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/sqlir"
)

// describeFKs renders the foreign keys of every table, one per line:
// "child(cols) -> parent(cols) [name] ON DELETE a ON UPDATE b [DEFERRABLE]".
func describeFKs(s *sqlir.Schema) string {
	var lines []string
	for _, t := range s.Tables {
		for _, fk := range t.ForeignKeys {
			l := fmt.Sprintf("%s(%s) -> %s(%s)", t.Name, strings.Join(fk.Columns, ", "), fk.RefTable, strings.Join(fk.RefColumns, ", "))
			if fk.Name != "" {
				l += " " + fk.Name
			}
			l += fmt.Sprintf(" ON DELETE %s ON UPDATE %s", fk.OnDelete, fk.OnUpdate)
			if fk.Deferrable {
				l += " DEFERRABLE"
			}
			if fk.Inline {
				l += " INLINE"
			}
			lines = append(lines, l)
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// The DDL of each case runs as written on its engine (PostgreSQL 15,
// MariaDB 10.11, SQLite 3), and the keys it leaves are the ones wanted
// (pg_constraint, information_schema.REFERENTIAL_CONSTRAINTS, PRAGMA
// foreign_key_list).
func TestForeignKeys(t *testing.T) {
	tests := []struct {
		name, ddl, want string
	}{
		{"Postgres column REFERENCES, options after NOT NULL", `
CREATE TABLE users (id bigserial PRIMARY KEY, name text NOT NULL);
CREATE TABLE orders (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  reviewer bigint CONSTRAINT orders_reviewer_fk REFERENCES users ON DELETE SET NULL ON UPDATE RESTRICT,
  qty int NOT NULL CHECK (qty > 0)
);`, `
orders(reviewer) -> users() orders_reviewer_fk ON DELETE SET NULL ON UPDATE RESTRICT INLINE
orders(user_id) -> users(id) ON DELETE CASCADE ON UPDATE NO ACTION INLINE`},
		{"pg_dump: ALTER TABLE ONLY … ADD CONSTRAINT, schema-qualified, deferrable", `
CREATE TABLE public.accounts (id integer NOT NULL, balance numeric NOT NULL);
CREATE TABLE public.entries (id integer NOT NULL, account_id integer, amount numeric);
ALTER TABLE ONLY public.entries
    ADD CONSTRAINT entries_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(id) MATCH FULL ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;`, `
entries(account_id) -> accounts(id) entries_account_id_fkey ON DELETE NO ACTION ON UPDATE CASCADE DEFERRABLE`},
		{"MySQL SHOW CREATE TABLE, composite key, DROP FOREIGN KEY", "\n" +
			"CREATE TABLE `warehouses` (`region` varchar(8) NOT NULL, `code` int NOT NULL, PRIMARY KEY (`region`, `code`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;\n" +
			"CREATE TABLE `stock` (\n" +
			"  `id` int NOT NULL AUTO_INCREMENT,\n" +
			"  `region` varchar(8) NOT NULL,\n" +
			"  `wh` int NOT NULL,\n" +
			"  `owner` int DEFAULT NULL,\n" +
			"  PRIMARY KEY (`id`),\n" +
			"  KEY `stock_wh` (`region`, `wh`),\n" +
			"  CONSTRAINT `stock_ibfk_1` FOREIGN KEY (`region`, `wh`) REFERENCES `warehouses` (`region`, `code`) ON DELETE RESTRICT ON UPDATE CASCADE,\n" +
			"  CONSTRAINT `stock_owner` FOREIGN KEY `idx_owner` (`owner`) REFERENCES `users` (`id`) ON DELETE SET NULL\n" +
			") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;\n" +
			"ALTER TABLE `stock` DROP FOREIGN KEY `stock_owner`;", `
stock(region, wh) -> warehouses(region, code) stock_ibfk_1 ON DELETE RESTRICT ON UPDATE CASCADE`},
		{"MySQL ALTER TABLE ADD FOREIGN KEY gets the engine's default name", `
CREATE TABLE parent (id INT PRIMARY KEY);
CREATE TABLE child (id INT PRIMARY KEY, parent_id INT);
ALTER TABLE child ADD FOREIGN KEY (parent_id) REFERENCES parent (id) ON DELETE NO ACTION;
ALTER TABLE child ADD COLUMN other_id INT, ADD CONSTRAINT child_other FOREIGN KEY (other_id) REFERENCES parent (id);
ALTER TABLE child DROP FOREIGN KEY child_ibfk_1;`, `
child(other_id) -> parent(id) child_other ON DELETE NO ACTION ON UPDATE NO ACTION`},
		{"SQLite column and table constraints", `
CREATE TABLE artist (artistid INTEGER PRIMARY KEY, artistname TEXT);
CREATE TABLE track (
  trackid     INTEGER PRIMARY KEY,
  trackartist INTEGER REFERENCES artist(artistid) ON UPDATE CASCADE ON DELETE SET DEFAULT,
  album       TEXT,
  disc        INTEGER,
  FOREIGN KEY(album, disc) REFERENCES album(name, disc) DEFERRABLE INITIALLY DEFERRED
);`, `
track(album, disc) -> album(name, disc) ON DELETE NO ACTION ON UPDATE NO ACTION DEFERRABLE
track(trackartist) -> artist(artistid) ON DELETE SET DEFAULT ON UPDATE CASCADE INLINE`},
		{"renames follow the key; DROP CONSTRAINT and DROP COLUMN remove it", `
CREATE TABLE users (id int PRIMARY KEY, email text);
CREATE TABLE orders (id int PRIMARY KEY, user_id int REFERENCES users (id), coupon int REFERENCES users (id));
ALTER TABLE users RENAME COLUMN id TO user_id;
ALTER TABLE users RENAME TO customers;
ALTER TABLE orders RENAME COLUMN user_id TO customer_id;
ALTER TABLE orders DROP COLUMN coupon;`, `
orders(customer_id) -> customers(user_id) ON DELETE NO ACTION ON UPDATE NO ACTION INLINE`},
		{"Postgres DROP CONSTRAINT by default name; DROP TABLE CASCADE", `
CREATE TABLE a (id int PRIMARY KEY);
CREATE TABLE b (id int PRIMARY KEY, a_id int REFERENCES a (id), a2 int REFERENCES a (id));
CREATE TABLE c (id int PRIMARY KEY, b_id int REFERENCES b (id));
ALTER TABLE b DROP CONSTRAINT b_a_id_fkey;
DROP TABLE a CASCADE;`, `
c(b_id) -> b(id) ON DELETE NO ACTION ON UPDATE NO ACTION INLINE`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse(tt.ddl)
			if err != nil {
				t.Fatal(err)
			}
			want := strings.TrimPrefix(tt.want, "\n")
			if got := describeFKs(s); got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// A migration directory (golang-migrate layout, Postgres): the keys added
// by ALTER TABLE in later files are recorded, the .down.sql files ignored.
func TestForeignKeysMigrations(t *testing.T) {
	s, err := Load("testdata/simplebank")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.TrimPrefix(`
accounts(owner) -> users(username) ON DELETE NO ACTION ON UPDATE NO ACTION
entries(account_id) -> accounts(id) ON DELETE NO ACTION ON UPDATE NO ACTION
transfers(from_account_id) -> accounts(id) ON DELETE NO ACTION ON UPDATE NO ACTION
transfers(to_account_id) -> accounts(id) ON DELETE NO ACTION ON UPDATE NO ACTION`, "\n")
	if got := describeFKs(s); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// A FOREIGN KEY the reader cannot follow is skipped with a warning, never
// silently and never failing the whole schema.
func TestForeignKeyNotUnderstood(t *testing.T) {
	s, err := Parse(`CREATE TABLE t (id int PRIMARY KEY, p int, FOREIGN KEY (lower(p)) REFERENCES parent (id));`)
	if err != nil {
		t.Fatal(err)
	}
	if got := describeFKs(s); got != "" {
		t.Errorf("foreign keys: %s", got)
	}
	if len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], "FOREIGN KEY not understood") {
		t.Errorf("warnings: %q", s.Warnings)
	}
}

// TestTableEngine: MySQL's ENGINE table option is recorded (MyISAM
// enforces no foreign key); none when not given.
func TestTableEngine(t *testing.T) {
	s, err := Parse("CREATE TABLE a (id INT PRIMARY KEY) ENGINE=MyISAM DEFAULT CHARSET=utf8mb4;\n" +
		"CREATE TABLE b (id INT PRIMARY KEY) DEFAULT CHARSET=utf8mb4 ENGINE InnoDB;\nCREATE TABLE c (id INT PRIMARY KEY);")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"a": "myisam", "b": "innodb", "c": ""} {
		if got := s.Tables[name].Engine; got != want {
			t.Errorf("table %s: engine %q, want %q", name, got, want)
		}
	}
}
