package sqlparse

import (
	"errors"
	"testing"
)

func TestParseConstraint(t *testing.T) {
	tests := []struct {
		text, table, wantTable, want string
	}{
		{"accounts.balance >= 0", "", "accounts", "accounts.balance >= 0"},
		{"Accounts.balance >= 0 AND accounts.balance <= accounts.cap", "", "Accounts",
			"Accounts.balance >= 0 AND accounts.balance <= accounts.cap"},
		{"stock >= 0 AND stock <= 100", "items", "items", "stock >= 0 AND stock <= 100"},
		{"used <= quota", "users", "users", "used <= quota"},
		{"NOT (a < 0) OR b = 1", "t", "t", "NOT a < 0 OR b = 1"},
		{"balance - 2 * overdraft >= -100", "accounts", "accounts", "balance - 2 * overdraft >= -100"},
		{"accounts.balance >= 0", "accounts", "accounts", "accounts.balance >= 0"},
		{"mydb.accounts.balance >= 0", "", "accounts", "accounts.balance >= 0"},
		{"qty BETWEEN 0 AND cap", "stock", "stock", "qty >= 0 AND qty <= cap"},
		{"status IN ('new', 'paid')", "orders", "orders", "`status` = 'new' OR `status` = 'paid'"},
		{"email IS NOT NULL", "users", "users", "email IS NOT NULL"},
		{"CHAR_LENGTH(name) > 0", "users", "users", "CHAR_LENGTH(name) > 0"},
		{"active", "users", "users", "active"},
		{"1 = 1", "t", "t", "1 = 1"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			c, err := ParseConstraint(tt.text, tt.table)
			if err != nil {
				t.Fatal(err)
			}
			if c.Table != tt.wantTable || c.Text != tt.text || c.Name != "" {
				t.Errorf("got table %q text %q name %q", c.Table, c.Text, c.Name)
			}
			if got := Format(c.Expr); got != tt.want {
				t.Errorf("expr %s, want %s", got, tt.want)
			}
		})
	}
}

func TestParseConstraintErrors(t *testing.T) {
	tests := []struct {
		text, table, msg string
		offset           int // of the *ParseError, -1: none
	}{
		{"x >=", "t", `constraint "x >=": syntax error at column 5 (unexpected end of input)`, 4},
		{"x >= 3 frm", "t", `constraint "x >= 3 frm": syntax error at column 8 near "frm"`, 7},
		{"x = = 1", "t", `constraint "x = = 1": syntax error at column 5 near "="`, 4},
		{"balance >= 0", "", `constraint "balance >= 0" names no table: write accounts.balance or pass --table`, -1},
		{"a.x > 0 AND b.y > 0", "", `constraint "a.x > 0 AND b.y > 0" names two tables, a and b: a constraint is over one table`, -1},
		{"accounts.balance >= 0", "users", `constraint "accounts.balance >= 0" is over table accounts, not users`, -1},
		{"balance >= ?", "t", `constraint "balance >= ?": placeholders (?, :name) are not allowed in a constraint`, -1},
		{"balance >= :min", "t", `constraint "balance >= :min": placeholders (?, :name) are not allowed in a constraint`, -1},
		{"balance >= (SELECT MIN(x) FROM y)", "t", `constraint "balance >= (SELECT MIN(x) FROM y)": subqueries are not allowed in a constraint (it must be over one row)`, -1},
		{"EXISTS (SELECT 1 FROM y)", "t", `constraint "EXISTS (SELECT 1 FROM y)": subqueries are not allowed in a constraint (it must be over one row)`, -1},
		{"SUM(balance) >= 0", "t", `constraint "SUM(balance) >= 0": aggregate SUM is not allowed in a constraint (it must be over one row)`, -1},
		{"balance + 1", "t", `constraint "balance + 1" is not a condition: it computes a value; compare it, e.g. balance + 1 >= 0`, -1},
		{"x > 0; DROP TABLE t", "t", `constraint "x > 0; DROP TABLE t": ';' ends the condition early`, -1},
		{"x > 0 ORDER BY y", "t", `constraint "x > 0 ORDER BY y" is not a single condition`, -1},
		{"  ", "t", "constraint is empty", -1},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			_, err := ParseConstraint(tt.text, tt.table)
			if err == nil {
				t.Fatal("no error")
			}
			if err.Error() != tt.msg {
				t.Errorf("error %q\n         want %q", err.Error(), tt.msg)
			}
			var pe *ParseError
			if errors.As(err, &pe) != (tt.offset >= 0) {
				t.Fatalf("ParseError: %v, want %v", pe != nil, tt.offset >= 0)
			}
			if pe != nil && (pe.Offset != tt.offset || pe.Query != tt.text) {
				t.Errorf("offset %d in %q, want %d in %q", pe.Offset, pe.Query, tt.offset, tt.text)
			}
		})
	}
}

// Regressions found by fuzzing.
func TestConstraintFuzzRegressions(t *testing.T) {
	// Invalid UTF-8 before the error must not break offset mapping.
	_, err := ParseConstraint("\"\xc2\"0", "t")
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Offset < 0 || pe.Offset > len(pe.Query) {
		t.Errorf("got %v", err)
	}
	// A column literally named `*` is not a star item: it must print so
	// that it parses again.
	c, err := ParseConstraint("`*` = 1", "t")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseConstraint(Format(c.Expr), "t"); err != nil {
		t.Errorf("%q: %v", Format(c.Expr), err)
	}
}
