package schema

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/internal/sqltest"
)

func TestLoadSchemaPostgres(t *testing.T) {
	s, err := Load("testdata/simplebank")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.TrimPrefix(`
accounts=accounts(id bigserial NN, owner varchar NN, balance bigint NN, currency varchar NN, created_at timestamptz NN) keys[[id] [owner currency]] check[balance_nonnegative on accounts: balance >= 0] check[currency_known on accounts: currency = 'USD' OR currency = 'EUR' OR currency = 'CAD']
entries=entries(id bigserial NN, account_id bigint NN, amount bigint NN, created_at timestamptz NN) keys[[id]]
transfers=transfers(id bigserial NN, from_account_id bigint NN, to_account_id bigint NN, amount bigint NN, created_at timestamptz NN) keys[[id]] check[amount_positive on transfers: amount > 0] check[distinct_accounts on transfers: CASE WHEN from_account_id IS NULL THEN to_account_id IS NOT NULL WHEN to_account_id IS NULL THEN TRUE ELSE from_account_id <> to_account_id END]
users=users(username varchar NN, hashed_password varchar NN, full_name varchar NN, email varchar NN, password_changed_at timestamptz NN, created_at timestamptz NN) keys[[username] [email]] check[email_format on users: email ~* E'^[^@\\s]+@[^@\\s]+$'] check[username_length on users: char_length(username) >= 3 AND char_length(username) <= 32] check[email_not_username on users: (username || '@') <> email]
`, "\n")
	if got := sqltest.DescribeSchema(s); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if len(s.Warnings) != 0 {
		t.Errorf("warnings: %q", s.Warnings)
	}
	// The Postgres-parsed CHECK keeps its text as written; the regular
	// expression is an Unknown condition.
	for _, c := range s.Tables["users"].Checks {
		if c.Name == "email_format" {
			if c.Text != `email ~* '^[^@\s]+@[^@\s]+$'` {
				t.Errorf("Text = %q", c.Text)
			}
			if _, ok := c.Expr.(*sqlir.Unknown); !ok {
				t.Errorf("Expr = %#v", c.Expr)
			}
		}
	}
}

func TestParseSchemaPostgresChecks(t *testing.T) {
	tests := []struct{ name, ddl, want string }{
		{"regex and casts", `CREATE TABLE t (s text CHECK (s ~ '^[a-z]+$'), n numeric CHECK (n::numeric(10,2) >= 0::numeric), d date CHECK (d > '2000-01-01'::date))`,
			"t=t(s text, n numeric, d date) keys[] check[t_check1 on t: s ~ '^[a-z]+$'] check[t_check2 on t: n >= 0] check[t_check3 on t: d > '2000-01-01']\n"},
		{"concatenation is not OR", `CREATE TABLE t (a text, b text, CHECK (a || b <> ''))`,
			"t=t(a text, b text) keys[] check[t_check1 on t: (a || b) <> '']\n"},
		{"quoted mixed case", `CREATE TABLE t ("Qty" int CHECK ("Qty" >= 0 AND "Qty" IS DISTINCT FROM 13))`,
			"t=t(Qty int) keys[] check[t_check1 on t: Qty >= 0 AND CASE WHEN Qty IS NULL THEN TRUE ELSE Qty <> 13 END]\n"},
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

func TestParseSchemaWarnings(t *testing.T) {
	ddl := "CREATE TABLE t (a text, b int);\n" +
		"ALTER TABLE t ADD CONSTRAINT sub CHECK (a ~ (SELECT p FROM patterns));\n" +
		"ALTER TABLE t ADD CHECK (a ~* 'x' AND u.b > 0);\n" +
		"ALTER TABLE t ADD CHECK (b > 0);\n"
	s, err := Parse(ddl)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sqltest.DescribeSchema(s), "t=t(a text, b int) keys[] check[t_check2 on t: b > 0]\n"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	want := []string{
		"line 2: table t: CHECK (a ~ (SELECT p FROM patterns)) skipped: subqueries are not allowed in a constraint (it must be over one row)",
		`line 3: table t: CHECK (a ~* 'x' AND u.b > 0) skipped: constraint "a ~* 'x' AND u.b > 0" is over table u, not t`,
	}
	if !reflect.DeepEqual(s.Warnings, want) {
		t.Errorf("warnings\n%q\nwant\n%q", s.Warnings, want)
	}
	// A CHECK neither grammar parses is still an error.
	_, err = Parse("CREATE TABLE t (a text CHECK (a ~* ))")
	var se *Error
	if !errors.As(err, &se) || se.Line != 1 {
		t.Errorf("error %v, want a *Error", err)
	}
}

// TestParseSchemaNotValid: a CHECK added by ALTER TABLE … NOT VALID is
// marked NotValid (PostgreSQL does not check the rows already there) until
// VALIDATE CONSTRAINT; one in CREATE TABLE, or added without NOT VALID, is
// valid.
func TestParseSchemaNotValid(t *testing.T) {
	const create = `CREATE TABLE holds (id bigint PRIMARY KEY, amount bigint NOT NULL, CONSTRAINT c_new CHECK (amount < 1000));
`
	tests := []struct {
		name, ddl string
		want      map[string]bool // check name → NotValid
	}{
		{"added NOT VALID", create + `ALTER TABLE holds ADD CONSTRAINT c_pos CHECK (amount > 0) NOT VALID;`,
			map[string]bool{"c_new": false, "c_pos": true}},
		{"NO INHERIT NOT VALID", create + `ALTER TABLE ONLY holds ADD CONSTRAINT c_pos CHECK ((amount > 0)) NO INHERIT NOT VALID;`,
			map[string]bool{"c_new": false, "c_pos": true}},
		{"validated later", create + `ALTER TABLE holds ADD CONSTRAINT c_pos CHECK (amount > 0) NOT VALID;
ALTER TABLE holds VALIDATE CONSTRAINT c_pos;`,
			map[string]bool{"c_new": false, "c_pos": false}},
		{"added valid", create + `ALTER TABLE holds ADD CONSTRAINT c_pos CHECK (amount > 0);`,
			map[string]bool{"c_new": false, "c_pos": false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse(tt.ddl)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]bool{}
			for _, c := range s.Tables["holds"].Checks {
				got[c.Name] = c.NotValid
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("NotValid by check: got %v, want %v", got, tt.want)
			}
		})
	}
}
