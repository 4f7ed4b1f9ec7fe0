package schema

import "testing"

// TestRowidAlias: the column an INSERT may omit to get a new SQLite rowid
// is the only PRIMARY KEY column declared INTEGER, in a rowid table.
func TestRowidAlias(t *testing.T) {
	cases := []struct{ ddl, want string }{
		{"CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)", "id"},
		{"CREATE TABLE t (id integer primary key autoincrement, n INTEGER)", "id"},
		{"CREATE TABLE t (n INTEGER, Id INTEGER, PRIMARY KEY (Id))", "Id"},
		{"CREATE TABLE t (id INT PRIMARY KEY, n INTEGER)", ""},
		{"CREATE TABLE t (id BIGINT PRIMARY KEY, n INTEGER)", ""},
		{"CREATE TABLE t (id INTEGER UNIQUE, n INTEGER)", ""},
		{"CREATE TABLE t (a INTEGER, b INTEGER, PRIMARY KEY (a, b))", ""},
		{"CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER) WITHOUT ROWID", ""},
	}
	for _, c := range cases {
		s, err := Parse(c.ddl)
		if err != nil {
			t.Fatalf("%s: %v", c.ddl, err)
		}
		if got := s.Tables["t"].RowidAlias; got != c.want {
			t.Errorf("%s: rowid alias %q, want %q", c.ddl, got, c.want)
		}
	}
}

// TestNotNullByKey: a PRIMARY KEY column without NOT NULL written is
// marked (SQLite lets it hold NULL), unless the table is WITHOUT ROWID.
func TestNotNullByKey(t *testing.T) {
	cases := []struct {
		ddl  string
		want bool
	}{
		{"CREATE TABLE t (c TEXT PRIMARY KEY, n INTEGER)", true},
		{"CREATE TABLE t (c TEXT, n INTEGER, PRIMARY KEY (c))", true},
		{"CREATE TABLE t (c TEXT NOT NULL PRIMARY KEY, n INTEGER)", false},
		{"CREATE TABLE t (c TEXT PRIMARY KEY NOT NULL, n INTEGER)", false},
		{"CREATE TABLE t (c TEXT NOT NULL, n INTEGER, PRIMARY KEY (c))", false},
		{"CREATE TABLE t (c TEXT PRIMARY KEY, n INTEGER) WITHOUT ROWID", false},
	}
	for _, c := range cases {
		s, err := Parse(c.ddl)
		if err != nil {
			t.Fatalf("%s: %v", c.ddl, err)
		}
		col := s.Tables["t"].Columns[0]
		if !col.NotNull || col.NotNullByKey != c.want {
			t.Errorf("%s: NotNull %v, NotNullByKey %v, want true, %v", c.ddl, col.NotNull, col.NotNullByKey, c.want)
		}
	}
}
