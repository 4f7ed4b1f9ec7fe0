package sqlparse

import (
	"math/big"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/internal/sqltest"
)

// Round trip: parse a condition, print it, parse the printed text: the
// expression must be the same, and printing must be stable.
func TestFormatRoundTrip(t *testing.T) {
	conds := []string{
		"a = 1",
		"a - (b - c) = d",
		"a - b - c = d",
		"a / (b * c) > 0",
		"(a + b) * (c - d) % 7 <> 0",
		"a DIV 3 = 1",
		"a * -b >= -2.25",
		"-(a + b) < 0",
		"- -a = a",
		"NOT a = 1 AND NOT (b = 1 OR c = 2)",
		"NOT NOT a",
		"a OR b AND c",
		"(a OR b) AND c",
		"a AND (b AND c)",
		"a OR (b OR c)",
		"(a = 1) = (b = 2)",
		"(NOT a) = b",
		"a IS NULL OR b IS NOT NULL",
		"(a = 1) IS NULL",
		"(a + 1) IS NOT NULL",
		"CASE WHEN a > 0 THEN a ELSE -a END >= 0",
		"CASE WHEN a THEN 1 END = 1",
		"s = 'it''s' AND t = 'back\\\\slash' AND u = ''",
		"x = TRUE OR y = FALSE OR z = NULL",
		"a BETWEEN 1 AND 10",
		"a IN (1, 2, 3)",
		"COALESCE(a, 0) >= 0",
		"GREATEST(a - 5, 0) >= 0",
		"t.a >= t.b",
		"`order` > 0 AND `select` < 1 AND `weird col` = 2",
		"1.5 + 0.125 + 2e3 + 1000000000000000000000 > a",
		"NOW() > created AND LENGTH(name) > 0",
		"a LIKE 'x%' OR b <=> c",
		"(a & 1) = 0",
		"a >= (b - 1) * 2",
	}
	for _, c := range conds {
		t.Run(c, func(t *testing.T) {
			c1, err := ParseConstraint(c, "t")
			if err != nil {
				t.Fatal(err)
			}
			s1 := Format(c1.Expr)
			c2, err := ParseConstraint(s1, "t")
			if err != nil {
				t.Fatalf("reparse %q: %v", s1, err)
			}
			if !sqltest.ExprEqual(c1.Expr, c2.Expr) {
				t.Errorf("round trip changed the expression:\n  in  %s\n  out %s", s1, Format(c2.Expr))
			}
			if s2 := Format(c2.Expr); s2 != s1 {
				t.Errorf("unstable: %q then %q", s1, s2)
			}
		})
	}
}

// Statements round-trip too when their placeholders appear in index order:
// "$N" is printed, which the MySQL parser reads back as "?" after a rename.
func TestFormatRoundTripWithParams(t *testing.T) {
	queries := []string{
		"UPDATE t SET a = a - ? WHERE id = ? AND a >= ?",
		"DELETE FROM t WHERE a IN (?, ?) AND b BETWEEN 1 AND ?",
	}
	for _, q := range queries {
		st1 := mustParse(t, q)
		d1 := sqltest.Describe(st1)
		// Back to SQL with "?" placeholders.
		back := d1
		for i := 9; i >= 1; i-- {
			back = strings.ReplaceAll(back, "$"+string(rune('0'+i)), "?")
		}
		back = strings.Replace(back, "DELETE t", "DELETE FROM t", 1)
		st2 := mustParse(t, back)
		if d2 := sqltest.Describe(st2); d2 != d1 {
			t.Errorf("%q:\n  %s\n  %s", q, d1, d2)
		}
	}
}

func TestFormatDirect(t *testing.T) {
	col := func(n string) sqlir.Expr { return &sqlir.ColRef{Name: n} }
	num := func(n, d int64, isInt bool) sqlir.Expr { return &sqlir.Num{Val: big.NewRat(n, d), IsInt: isInt} }
	tests := []struct {
		e    sqlir.Expr
		want string
	}{
		{nil, "TRUE"},
		{&sqlir.Param{Index: 0}, "$1"},
		{&sqlir.Binary{Op: sqlir.OpSub, X: col("a"), Y: &sqlir.Binary{Op: sqlir.OpAdd, X: col("b"), Y: &sqlir.Param{Index: 2}}}, "a - (b + $3)"},
		{&sqlir.Binary{Op: sqlir.OpMul, X: &sqlir.Binary{Op: sqlir.OpAdd, X: col("a"), Y: col("b")}, Y: col("c")}, "(a + b) * c"},
		{&sqlir.Unary{Op: sqlir.OpNeg, X: num(-3, 1, true)}, "-(-3)"},
		{&sqlir.Unary{Op: sqlir.OpNeg, X: &sqlir.Unary{Op: sqlir.OpNeg, X: col("a")}}, "-(-a)"},
		{&sqlir.Binary{Op: sqlir.OpSub, X: col("a"), Y: num(-1, 1, true)}, "a - -1"},
		{num(1, 3, false), "1 / 3"},
		{&sqlir.Binary{Op: sqlir.OpMul, X: col("a"), Y: num(1, 3, false)}, "a * (1 / 3)"},
		{num(-5, 4, false), "-1.25"},
		{num(7, 1, false), "7.0"},
		{&sqlir.Str{Val: `a'b\c`}, `'a''b\\c'`},
		{&sqlir.Null{}, "NULL"},
		{&sqlir.ColRef{Table: "accounts", Name: "balance"}, "accounts.balance"},
		{&sqlir.ColRef{Table: "t", Name: "*"}, "t.*"},
		{&sqlir.Unknown{Text: "f(x)"}, "f(x)"},
		{&sqlir.Binary{Op: sqlir.OpAdd, X: &sqlir.Unknown{Text: "a | b"}, Y: num(1, 1, true)}, "(a | b) + 1"},
		{&sqlir.Binary{Op: sqlir.OpAdd, X: &sqlir.Unknown{Text: "(select 1)"}, Y: num(1, 1, true)}, "(select 1) + 1"},
		{&sqlir.Binary{Op: sqlir.OpAdd, X: &sqlir.Unknown{Text: "f(a) + g(b)"}, Y: num(1, 1, true)}, "(f(a) + g(b)) + 1"},
		{&sqlir.IsNull{X: &sqlir.Unary{Op: sqlir.OpNot, X: col("a")}, Not: true}, "(NOT a) IS NOT NULL"},
		{&sqlir.Case{Whens: []sqlir.When{{Cond: col("c"), Val: num(1, 1, true)}}}, "CASE WHEN c THEN 1 END"},
	}
	for _, tt := range tests {
		if got := Format(tt.e); got != tt.want {
			t.Errorf("Format = %q, want %q", got, tt.want)
		}
	}
}

func mustParse(t *testing.T, q string) sqlir.Statement {
	t.Helper()
	st, err := Parse(MySQL, q)
	if err != nil {
		t.Fatal(err)
	}
	return st
}
