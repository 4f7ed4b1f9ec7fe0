package report

import (
	"reflect"
	"testing"
)

// TestDisplaySteps checks how the text report folds the parts of one Go
// statement into its SQL step (steps as BuildTrace gives them for
// testdata programs: a BEGIN assigned to tx, err; an UPDATE … RETURNING
// read by a QueryRow's Scan; a SELECT in an if's init).
func TestDisplaySteps(t *testing.T) {
	v := func(kv ...string) map[string]string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	type shown struct{ Position, Kind, Text, Outcome, Values string }
	for _, tt := range []struct {
		name  string
		steps []Step
		want  []shown
	}{
		{"assign after BEGIN", []Step{
			{Position: "a.go:28", Kind: "sql", Text: "BEGIN", Values: v("err", "false")},
			{Position: "a.go:28", Kind: "assign", Text: "tx, err := s.db.BeginTx(ctx, nil)", Values: v()},
			{Position: "a.go:29", Kind: "branch", Text: "if err != nil {", Outcome: "false", Values: v()},
		}, []shown{
			{"a.go:28", "sql", "BEGIN", "", "err = false"},
			{"a.go:29", "branch", "if err != nil {", "false", ""},
		}},
		{"assign before the statement", []Step{
			{Position: "a.go:37", Kind: "assign", Text: "_, err = b.db.ExecContext(ctx, q, id, bal-amt)", Values: v("bal", "0")},
			{Position: "a.go:37", Kind: "sql", Text: "INSERT INTO debts (account_id, amount) VALUES ($1, $2)", SQL: "INSERT INTO debts (account_id, amount) VALUES (0, (-1))", Values: v("err", "false")},
		}, []shown{
			{"a.go:37", "sql", "INSERT INTO debts (account_id, amount) VALUES (0, (-1))", "", "bal = 0, err = false"},
		}},
		{"RETURNING read by Scan", []Step{
			{Position: "a.go:62", Kind: "sql", Text: "UPDATE events SET booked = booked + $1 WHERE id = $2 RETURNING booked", SQL: "UPDATE events SET booked = booked + 2 WHERE id = 4 RETURNING booked", Values: v("r.booked", "3")},
			{Position: "a.go:62", Kind: "sql", Text: "err = tx.QueryRowContext(ctx, claimSeatsSQL, seats, eventID).Scan(&booked)", Values: v("booked", "3", "err", "false")},
		}, []shown{
			{"a.go:62", "sql", "UPDATE events SET booked = booked + 2 WHERE id = 4 RETURNING booked", "", "booked = 3, err = false, r.booked = 3"},
		}},
		{"the if of a Scan", []Step{
			{Position: "a.go:76", Kind: "sql", Text: "INSERT INTO b (x) VALUES (1) RETURNING seats", Values: v("err", "false")},
			{Position: "a.go:76", Kind: "sql", Text: "if err := tx.QueryRowContext(ctx, q, x).Scan(&b.Seats); err != nil {", Outcome: "false", Values: v("b.Seats", "11")},
		}, []shown{
			{"a.go:76", "sql", "INSERT INTO b (x) VALUES (1) RETURNING seats", "", "err = false"},
			{"a.go:76", "branch", "if err := tx.QueryRowContext(ctx, q, x).Scan(&b.Seats); err != nil {", "false", "b.Seats = 11"},
		}},
		{"another request between", []Step{
			{Position: "s.go:61", Kind: "call", Text: "if err := tx.QueryRow(q, c.Code).Scan(&c.Uses); err != nil {", Request: "A", Values: v()},
			{Position: "s.go:54", Kind: "call", Text: "func Redeem(db *sql.DB, code string) error {", Request: "B", Values: v()},
			{Position: "s.go:61", Kind: "sql", Text: "SELECT uses FROM coupons WHERE code = ?", Request: "A", Values: v("A.err", "false")},
		}, []shown{
			{"s.go:61", "call", "if err := tx.QueryRow(q, c.Code).Scan(&c.Uses); err != nil {", "", ""},
			{"s.go:54", "call", "func Redeem(db *sql.DB, code string) error {", "", ""},
			{"s.go:61", "sql", "SELECT uses FROM coupons WHERE code = ?", "", "A.err = false"},
		}},
		{"no SQL: unchanged", []Step{
			{Position: "a.go:53", Kind: "call", Text: "x := f(a)", Values: v()},
			{Position: "a.go:53", Kind: "assign", Text: "x := f(a)", Values: v("x", "1")},
		}, []shown{
			{"a.go:53", "call", "x := f(a)", "", ""},
			{"a.go:53", "assign", "x := f(a)", "", "x = 1"},
		}},
	} {
		var got []shown
		for _, s := range displaySteps(tt.steps) {
			got = append(got, shown{s.Position, s.Kind, s.Statement(), s.Outcome, JoinValues(s.Values)})
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}
