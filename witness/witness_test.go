package witness

import (
	"reflect"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
)

func TestReplayInputsSlices(t *testing.T) {
	got := replayInputs(map[string]string{"amt": "1", "len(ids)": "2", "ids[i]": "3"})
	want := map[string]string{"amt": "1", "ids.len": "2", "ids[0]": "3", "ids[1]": "3"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("replayInputs = %v, want %v", got, want)
	}
}

func TestInitialRowsMergesSymbolsWithEqualKeys(t *testing.T) {
	s := &Schema{Tables: map[string]*sqlir.Table{
		"accounts": {Name: "accounts", Columns: []sqlir.Column{{Name: "id"}, {Name: "balance"}}, Keys: [][]string{{"id"}}},
	}}
	cex := &Counterexample{Rows: []CexRow{
		{Symbol: "r", Table: "accounts", Values: map[string]string{"id": "2", "balance": "0"}},
		{Symbol: "s1", Table: "accounts", Values: map[string]string{"id": "2", "balance": "0", "$exists": "true"}},
		{Symbol: "s2", Table: "accounts", Values: map[string]string{"id": "3", "balance": "5"}},
	}}
	rows, notes := cex.InitialRows(s)
	if len(rows) != 2 {
		t.Fatalf("rows = %v, want r and s1 merged, s2 apart", rows)
	}
	if rows[1].Values["id"] != "2" {
		t.Errorf("rows = %v, want the read row s2 seeded before the watched row r", rows)
	}
	if _, ok := rows[1].Values["$exists"]; ok {
		t.Errorf("model column kept: %v", rows[1].Values)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "r, s1") {
		t.Errorf("notes = %v, want one saying r and s1 are one row", notes)
	}
}

// TestInitialRowsSkipsRowsTheRunInserted: a symbol read after the run
// inserted its key holds the inserted row (progen seed 314: seeding it made
// the replay start from a state that already broke the constraint, and
// the INSERT fail).
func TestInitialRowsSkipsRowsTheRunInserted(t *testing.T) {
	s := &Schema{Tables: map[string]*sqlir.Table{
		"accounts": {Name: "accounts", Columns: []sqlir.Column{{Name: "id"}, {Name: "balance"}}, Keys: [][]string{{"id"}}},
	}}
	cex := &Counterexample{
		Rows: []CexRow{
			{Symbol: "r", Table: "accounts", Values: map[string]string{"id": "4", "balance": "0"}},
			{Symbol: "s1", Table: "accounts", Values: map[string]string{"id": "2", "balance": "-1"}},
			{Symbol: "s2", Table: "accounts", Values: map[string]string{"id": "7", "balance": "3"}},
		},
		Steps: []CexStep{
			{Kind: "sql", Text: "SELECT balance FROM accounts WHERE id = ?", Values: map[string]string{"s2.balance": "3"}},
			{Kind: "sql", Text: "INSERT INTO accounts (id, balance) VALUES (?, ?)", Values: map[string]string{"r.id": "2", "r.balance": "1"}},
			{Kind: "sql", Text: "UPDATE accounts SET balance = balance - ? WHERE id = ?", Values: map[string]string{"r.balance": "-1"}},
			{Kind: "sql", Text: "SELECT balance FROM accounts WHERE id = ?", Values: map[string]string{"s1.balance": "-1"}},
		},
	}
	rows, notes := cex.InitialRows(s)
	var ids []string
	for _, r := range rows {
		ids = append(ids, r.Values["id"])
	}
	if !reflect.DeepEqual(ids, []string{"7", "4"}) {
		t.Errorf("seeded ids %v, want 7 (s2, read before the INSERT) and 4 (r), not 2 (s1, the inserted row)", ids)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "s1") {
		t.Errorf("notes = %v", notes)
	}
}

func TestConstraintQueries(t *testing.T) {
	c, err := ParseConstraint("Account.balance >= 1000", "")
	if err != nil {
		t.Fatal(err)
	}
	if got := c.ViolationQuery(); got != "SELECT * FROM Account WHERE NOT (balance >= 1000)" {
		t.Errorf("ViolationQuery = %q", got)
	}
	if !reflect.DeepEqual(c.Columns, []string{"balance"}) {
		t.Errorf("Columns = %v", c.Columns)
	}
}

func TestSynthesizeFromSQL(t *testing.T) {
	var stmts []sqlir.Statement
	for _, q := range []string{
		"UPDATE accounts SET balance = balance - ? WHERE id = ?",
		"INSERT INTO movements (account_id, kind, amount) VALUES (?, 'withdrawal', ?)",
		"SELECT frozen FROM accounts WHERE id = ?",
	} {
		st, err := sqlparse.Parse(sqlparse.MySQL, q)
		if err != nil {
			t.Fatal(err)
		}
		stmts = append(stmts, st)
	}
	s := Synthesize(sqlparse.MySQL, stmts, nil, nil, nil, false)
	for _, want := range []string{
		"CREATE TABLE accounts (balance BIGINT, id BIGINT AUTO_INCREMENT PRIMARY KEY, frozen VARCHAR(255))",
		"CREATE TABLE movements (account_id BIGINT, kind VARCHAR(255), amount VARCHAR(255))",
	} {
		if !strings.Contains(s.DDL, want) {
			t.Errorf("DDL lacks %q:\n%s", want, s.DDL)
		}
	}
	if k := s.Key("accounts"); !reflect.DeepEqual(k, []string{"id"}) {
		t.Errorf("key of accounts = %v, want [id]", k)
	}
}

// TestSynthesizeTimedColumns: a column whose counterexample values are
// timestamps (a column without a schema that holds Go times) is a
// TIMESTAMP of the synthesised table; it was BIGINT, which refused the
// seeded row and the time.Time the program binds (22P02).
func TestSynthesizeTimedColumns(t *testing.T) {
	st, err := sqlparse.Parse(sqlparse.Postgres, "UPDATE subscriptions SET credits = credits - $1 WHERE id = $2 AND renews_at < $3")
	if err != nil {
		t.Fatal(err)
	}
	row := map[string]string{"credits": "0", "id": "2", "renews_at": `"2023-12-31 00:00:00"`}
	timed := map[string][]string{}
	for col, v := range row {
		if IsTimestamp(v) {
			timed["subscriptions"] = append(timed["subscriptions"], col)
		}
	}
	s := Synthesize(sqlparse.Postgres, []sqlir.Statement{st}, nil, nil, timed, false)
	for _, want := range []string{"renews_at TIMESTAMP", "credits BIGINT"} {
		if !strings.Contains(s.DDL, want) {
			t.Errorf("DDL lacks %q:\n%s", want, s.DDL)
		}
	}
	for _, v := range []string{"-1", `"2"`, `"2023-12-31"`, "str1"} {
		if IsTimestamp(v) {
			t.Errorf("IsTimestamp(%s) = true", v)
		}
	}
}

func TestLooksLikeSQLAfterSqlcComment(t *testing.T) {
	if !looksLikeSQL("-- name: Reserve :exec\nUPDATE products SET stock = stock - $1 WHERE id = $2") {
		t.Error("sqlc query with a leading comment not recognised as SQL")
	}
}
