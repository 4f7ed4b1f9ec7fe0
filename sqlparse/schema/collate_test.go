package schema

import "testing"

// TestCollations: a column's COLLATE (or CHARACTER SET binary) and a
// table's default collation are kept, lower case, without quotes.
func TestCollations(t *testing.T) {
	s, err := Parse(`
CREATE TABLE a (h VARCHAR(32) COLLATE utf8mb4_bin NOT NULL PRIMARY KEY, n TEXT COLLATE NOCASE, c CHAR(8) CHARACTER SET binary, p TEXT COLLATE "C", d VARCHAR(8)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_AI_CI;
CREATE TABLE b (h VARCHAR(8) PRIMARY KEY) CHARSET binary;
CREATE TABLE c (h TEXT PRIMARY KEY);`)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"h": "utf8mb4_bin", "n": "nocase", "c": "binary", "p": "c", "d": ""}
	for _, col := range s.Tables["a"].Columns {
		if col.Collate != want[col.Name] {
			t.Errorf("a.%s: collate %q, want %q", col.Name, col.Collate, want[col.Name])
		}
	}
	if s.Tables["a"].Columns[0].Type != "varchar(32)" {
		t.Errorf("a.h: type %q", s.Tables["a"].Columns[0].Type)
	}
	for table, coll := range map[string]string{"a": "utf8mb4_0900_ai_ci", "b": "binary", "c": ""} {
		if got := s.Tables[table].Collate; got != coll {
			t.Errorf("table %s: collate %q, want %q", table, got, coll)
		}
	}
}
