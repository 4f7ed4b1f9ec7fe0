package dbmodel_test

import (
	"context"
	"testing"

	"github.com/dbverify/dbverify/dbmodel"
	"github.com/dbverify/dbverify/refine"
	"github.com/dbverify/dbverify/smt"
	"github.com/dbverify/dbverify/spec"
	"github.com/dbverify/dbverify/sqlparse"
	"github.com/dbverify/dbverify/sqlparse/schema"
)

const numericDDL = "CREATE TABLE accounts (id int PRIMARY KEY, balance numeric(12,2) NOT NULL)"

// TestRowModelDialects: division and strings mean what the engines do
// (each rule was checked on MariaDB 10.11, PostgreSQL 15 and SQLite 3).
func TestRowModelDialects(t *testing.T) {
	s, err := smt.NewSolver(10000)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tests := []struct {
		name   string
		d      sqlparse.Dialect
		ddl    string // schema, if any
		inputs []string
		steps  []step
		want   refine.Verdict
	}{
		// MySQL's / is exact: 0 - 1/2 is -0.5, stored as -1 (half away
		// from zero); the guard balance >= amt DIV 2 (0) lets it through.
		{"mysql: exact charge, integer guard", sqlparse.MySQL, "", []string{"id", "amt"},
			[]step{{guard: "amt >= 1"}, {sql: "UPDATE accounts SET balance = balance - ? / 2 WHERE id = ? AND balance >= ? DIV 2", args: []string{"amt", "id", "amt"}}}, refine.Unsafe},
		{"mysql: exact charge, exact guard", sqlparse.MySQL, "", []string{"id", "amt"},
			[]step{{guard: "amt >= 1"}, {sql: "UPDATE accounts SET balance = balance - ? / 2 WHERE id = ? AND balance >= ? / 2", args: []string{"amt", "id", "amt"}}}, refine.Safe},
		// -1 / 2 is 0 in Postgres and SQLite, -0.5 (stored -1) in MySQL.
		{"postgres: integer division truncates", sqlparse.Postgres, "", []string{"id", "amt"},
			[]step{{guard: "amt >= 0"}, {sql: "UPDATE accounts SET balance = balance + ($1 - 1) / 2 WHERE id = $2", args: []string{"amt", "id"}}}, refine.Safe},
		{"sqlite: integer division truncates", sqlparse.SQLite, "", []string{"id", "amt"},
			[]step{{guard: "amt >= 0"}, {sql: "UPDATE accounts SET balance = balance + (?1 - 1) / 2 WHERE id = ?2", args: []string{"amt", "id"}}}, refine.Safe},
		{"mysql: the same quotient rounds away from zero", sqlparse.MySQL, "", []string{"id", "amt"},
			[]step{{guard: "amt >= 0"}, {sql: "UPDATE accounts SET balance = balance + (? - 1) / 2 WHERE id = ?", args: []string{"amt", "id"}}}, refine.Unsafe},
		// Quoted numbers are numbers.
		{"mysql: quoted numbers, guarded", sqlparse.MySQL, "", []string{"id"},
			[]step{{sql: "UPDATE accounts SET balance = balance - '5' WHERE id = ? AND balance >= '5'", args: []string{"id"}}}, refine.Safe},
		{"mysql: quoted numbers, weak guard", sqlparse.MySQL, "", []string{"id"},
			[]step{{sql: "UPDATE accounts SET balance = balance - '5' WHERE id = ? AND balance > '0'", args: []string{"id"}}}, refine.Unsafe},
		{"mysql: a quoted decimal", sqlparse.MySQL, "", []string{"id"},
			[]step{{sql: "UPDATE accounts SET balance = balance - 2 WHERE id = ? AND balance >= '2.5'", args: []string{"id"}}}, refine.Safe},
		{"postgres: a quoted integer assigned", sqlparse.Postgres, "", []string{"id"},
			[]step{{sql: "UPDATE accounts SET balance = '-3' WHERE id = $1", args: []string{"id"}}}, refine.Unsafe},
		// Postgres rejects '2.5' for an integer: not modelled, so the
		// counterexample that needs it is not certain.
		{"postgres: a decimal text in integer arithmetic", sqlparse.Postgres, "", []string{"id"},
			[]step{{sql: "UPDATE accounts SET balance = balance - '2.5' WHERE id = $1", args: []string{"id"}}}, refine.Unknown},
		{"postgres: a decimal text in numeric arithmetic, guarded", sqlparse.Postgres, numericDDL, []string{"id"},
			[]step{{sql: "UPDATE accounts SET balance = balance - '2.5' WHERE id = $1 AND balance >= 2.5", args: []string{"id"}}}, refine.Safe},
		{"postgres: a decimal text in numeric arithmetic, weak guard", sqlparse.Postgres, numericDDL, []string{"id"},
			[]step{{sql: "UPDATE accounts SET balance = balance - '2.5' WHERE id = $1 AND balance >= 2", args: []string{"id"}}}, refine.Unsafe},
		// Strings of one shape compare as strings; others are not decided.
		{"dates of one shape", sqlparse.MySQL, "", []string{"id"},
			[]step{{sql: "UPDATE accounts SET balance = -1 WHERE id = ? AND '2024-07-01' < '2024-06-30'", args: []string{"id"}}}, refine.Safe},
		{"dates of one shape, the other way", sqlparse.MySQL, "", []string{"id"},
			[]step{{sql: "UPDATE accounts SET balance = -1 WHERE id = ? AND '2024-06-30' < '2024-07-01'", args: []string{"id"}}}, refine.Unsafe},
		{"words are not ordered", sqlparse.Postgres, "", []string{"id"},
			[]step{{sql: "UPDATE accounts SET balance = -1 WHERE id = $1 AND 'abd' < 'abc'", args: []string{"id"}}}, refine.Unknown},
		{"mysql compares ASCII case-insensitively", sqlparse.MySQL, "", []string{"id"},
			[]step{{sql: "UPDATE accounts SET balance = -1 WHERE id = ? AND 'ABC' = 'abc'", args: []string{"id"}}}, refine.Unsafe},
		{"postgres compares exactly", sqlparse.Postgres, "", []string{"id"},
			[]step{{sql: "UPDATE accounts SET balance = -1 WHERE id = $1 AND 'ABC' = 'abc'", args: []string{"id"}}}, refine.Safe},
		// SQLite: a literal number against a text (no column affinity):
		// every number sorts before every text.
		{"sqlite: number against text without affinity", sqlparse.SQLite, "", []string{"id"},
			[]step{{sql: "UPDATE accounts SET balance = -1 WHERE id = ? AND 10 > '9'", args: []string{"id"}}}, refine.Unknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := spec.ParseRowCheck("accounts.balance >= 0", "")
			if err != nil {
				t.Fatal(err)
			}
			p := build(t, tt.d, tt.inputs, tt.steps)
			opt := dbmodel.Options{Dialect: tt.d.String()}
			if tt.ddl != "" {
				if opt.Schema, err = schema.Parse(tt.ddl); err != nil {
					t.Fatal(err)
				}
			}
			low, err := dbmodel.Lower(p, c, opt)
			if err != nil {
				t.Fatal(err)
			}
			res := refine.Check(context.Background(), low.Program, s, refine.Options{})
			if res.Verdict != tt.want {
				t.Fatalf("verdict %s (%s), want %s\n%s", res.Verdict, res.Reason, tt.want, low.Program)
			}
		})
	}
}
