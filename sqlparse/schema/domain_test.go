package schema

import (
	"strings"
	"testing"

	"github.com/dbverify/dbverify/sqlparse/internal/sqltest"
)

// TestDomainCheck: a column whose type is a PostgreSQL domain has the
// domain's base type, NOT NULL and CHECKs (VALUE read as the column);
// the CHECK was ignored and the type left as the domain's name, so the
// model let holds.amount be -1 (independent tester adv16 fu5).
func TestDomainCheck(t *testing.T) {
	s, err := Parse(`
CREATE DOMAIN public.positive_amount AS BIGINT CHECK (VALUE > 0);
CREATE DOMAIN small_code AS integer NOT NULL DEFAULT 1 CONSTRAINT code_range CHECK (VALUE >= 1) CHECK (VALUE <= 99);
CREATE TABLE holds (id BIGINT PRIMARY KEY, amount positive_amount NOT NULL, code small_code, value_note text);
`)
	if err != nil {
		t.Fatal(err)
	}
	want := "holds=holds(id bigint NN, amount bigint NN, code integer NN, value_note text) keys[[id]] " +
		"check[positive_amount_check on holds: amount > 0] check[code_range on holds: code >= 1] check[small_code_check on holds: code <= 99]\n"
	if got := sqltest.DescribeSchema(s); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if len(s.Warnings) != 0 {
		t.Errorf("warnings: %q", s.Warnings)
	}
	if c := s.Tables["holds"].Checks; len(c) > 0 && !strings.Contains(c[0].Text, "amount > 0") {
		t.Errorf("Text = %q", c[0].Text)
	}
}

// TestDomainNotUnderstood: a CREATE DOMAIN the parser cannot read is
// skipped with a warning, as before domains were read, not an error that
// refuses the schema.
func TestDomainNotUnderstood(t *testing.T) {
	s, err := Parse("CREATE DOMAIN ;\nCREATE TABLE t (id BIGINT PRIMARY KEY);\n")
	if err != nil {
		t.Fatal(err)
	}
	if s.Tables["t"] == nil || len(s.Warnings) != 1 {
		t.Errorf("tables %v, warnings %q: want t and one warning", s.Tables, s.Warnings)
	}
}
