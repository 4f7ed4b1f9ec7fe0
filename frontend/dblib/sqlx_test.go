package dblib

import (
	"reflect"
	"testing"
)

func TestCompileNamed(t *testing.T) {
	tests := []struct {
		query  string
		dollar bool
		want   string
		names  []string
	}{
		{"INSERT INTO t (a, b) VALUES (:a, :b)", false, "INSERT INTO t (a, b) VALUES (?, ?)", []string{"a", "b"}},
		{"INSERT INTO t (a, b) VALUES (:a, :b)", true, "INSERT INTO t (a, b) VALUES ($1, $2)", []string{"a", "b"}},
		{"UPDATE t SET x = x - :amount_cents WHERE id = :id", true, "UPDATE t SET x = x - $1 WHERE id = $2", []string{"amount_cents", "id"}},
		{"SELECT * FROM t WHERE id = :id", false, "SELECT * FROM t WHERE id = ?", []string{"id"}},
		// `::` is sqlx's escaped colon; `:=` is kept.
		{"SELECT a::text FROM t WHERE b = :b", true, "SELECT a:text FROM t WHERE b = $1", []string{"b"}},
		{"SET @x := :v", false, "SET @x := ?", []string{"v"}},
		{"SELECT 1", false, "SELECT 1", nil},
	}
	for _, tt := range tests {
		got, names := CompileNamed(tt.query, tt.dollar)
		if got != tt.want || !reflect.DeepEqual(names, tt.names) {
			t.Errorf("CompileNamed(%q, %v) = %q, %q; want %q, %q", tt.query, tt.dollar, got, names, tt.want, tt.names)
		}
	}
}

func TestRebindDollar(t *testing.T) {
	tests := []struct{ in, want string }{
		{"UPDATE t SET a = a - ? WHERE id = ?", "UPDATE t SET a = a - $1 WHERE id = $2"},
		{"SELECT '?' FROM t WHERE id = ?", "SELECT '?' FROM t WHERE id = $1"},
		{"SELECT 1", "SELECT 1"},
	}
	for _, tt := range tests {
		if got := RebindDollar(tt.in); got != tt.want {
			t.Errorf("RebindDollar(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRewriteAtNames(t *testing.T) {
	tests := []struct {
		in, want string
		names    []string
		ok       bool
	}{
		{"UPDATE a SET b = b - @amount WHERE id = @id AND b >= @amount", "UPDATE a SET b = b - $1 WHERE id = $2 AND b >= $1", []string{"amount", "id"}, true},
		{"SELECT '@x', \"@y\" FROM t -- @z\nWHERE id = @id_2", "SELECT '@x', \"@y\" FROM t -- @z\nWHERE id = $1", []string{"id_2"}, true},
		{"SELECT @1, a @ b FROM t /* @c */", "SELECT @1, a @ b FROM t /* @c */", nil, true},
		{"SELECT $$@x$$", "", nil, false},
	}
	for _, tt := range tests {
		got, names, ok := RewriteAtNames(tt.in)
		if ok != tt.ok || ok && (got != tt.want || !reflect.DeepEqual(names, tt.names)) {
			t.Errorf("RewriteAtNames(%q) = %q, %q, %v; want %q, %q, %v", tt.in, got, names, ok, tt.want, tt.names, tt.ok)
		}
	}
}
