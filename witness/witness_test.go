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

// TestReplayRunSeedsTheReadRowFirst: two seeded rows share the api_key a
// QueryRow reads by (no key), and the trace read the one with the larger
// id; InnoDB (by primary key) and SQLite (by rowid) return the other one
// first. The read row gets the smaller id when the trace leaves the ids
// free, and the replay says the order is not arranged when it does not.
func TestReplayRunSeedsTheReadRowFirst(t *testing.T) {
	s := &Schema{Tables: map[string]*sqlir.Table{
		"quotas": {Name: "quotas", Columns: []sqlir.Column{{Name: "id", Type: "bigint"}, {Name: "api_key", Type: "varchar(64)"},
			{Name: "quota", Type: "bigint"}, {Name: "used", Type: "bigint"}}, Keys: [][]string{{"id"}}},
	}}
	read := CexStep{Kind: "sql", Position: "l.go:32", Text: "SELECT used, quota FROM quotas WHERE api_key = ? FOR UPDATE",
		Values: map[string]string{"err": "false", "used": "-15", "quota": "1", "s1.api_key": `"0"`, "s1.id": "1", "s1.quota": "1", "s1.used": "-15"}}
	scan := CexStep{Kind: "sql", Position: "l.go:32", Text: `err = tx.QueryRowContext(ctx, "SELECT used, quota FROM quotas WHERE api_key = ? FOR UPDATE", id).Scan(&used, &quota)`,
		Values: map[string]string{"err": "false"}}
	charge := CexStep{Kind: "sql", Position: "l.go:39", Text: "UPDATE quotas SET used = used + ? WHERE api_key = ?",
		Values: map[string]string{"err": "false", "r.used": "16", "rowsAffected": "1"}}
	rows := []CexRow{
		{Symbol: "r", Table: "quotas", Values: map[string]string{"id": "0", "api_key": `"0"`, "quota": "0", "used": "0"}},
		{Symbol: "s1", Table: "quotas", Values: map[string]string{"id": "1", "api_key": `"0"`, "quota": "1", "used": "-15"}},
	}
	seeded := func(run *Run) (out []string) {
		for _, r := range run.Rows {
			out = append(out, r.Values["id"]+":"+r.Values["used"])
		}
		return out
	}
	run, _ := ReplayRun(&Counterexample{Rows: rows, Steps: []CexStep{read, scan, charge}}, s, sqlparse.MySQL, nil)
	if got, want := seeded(run), []string{"0:-15", "1:0"}; !reflect.DeepEqual(got, want) {
		t.Errorf("seeded id:used %v, want %v: the read row s1 first and with the smaller id", got, want)
	}
	if len(run.Unordered) != 0 {
		t.Errorf("Unordered = %v with free keys", run.Unordered)
	}

	// The program reads the id: the trace fixes the keys.
	byID := CexStep{Kind: "sql", Position: "l.go:40", Text: "UPDATE quotas SET used = used WHERE id = ?", Values: map[string]string{"rowsAffected": "1"}}
	run, _ = ReplayRun(&Counterexample{Rows: rows, Steps: []CexStep{read, scan, charge, byID}}, s, sqlparse.MySQL, nil)
	if got, want := seeded(run), []string{"1:-15", "0:0"}; !reflect.DeepEqual(got, want) {
		t.Errorf("seeded id:used %v, want %v: fixed keys kept", got, want)
	}
	if len(run.Unordered) != 1 || !strings.Contains(run.Unordered[0], "l.go:32") {
		t.Errorf("Unordered = %v, want the read at l.go:32", run.Unordered)
	}

	// An ORDER BY decides which row comes first, not the seeding.
	sorted := read
	sorted.Text = "SELECT used, quota FROM quotas WHERE api_key = ? ORDER BY used LIMIT 1"
	run, _ = ReplayRun(&Counterexample{Rows: rows, Steps: []CexStep{sorted, scan, charge}}, s, sqlparse.MySQL, nil)
	if got, want := seeded(run), []string{"1:-15", "0:0"}; !reflect.DeepEqual(got, want) || len(run.Unordered) != 0 {
		t.Errorf("seeded id:used %v, Unordered %v; want %v and none (ORDER BY)", got, run.Unordered, want)
	}

	// Rows the WHERE tells apart need no order.
	other := append([]CexRow(nil), rows...)
	other[0] = CexRow{Symbol: "r", Table: "quotas", Values: map[string]string{"id": "0", "api_key": `"k"`, "quota": "0", "used": "0"}}
	run, _ = ReplayRun(&Counterexample{Rows: other, Steps: []CexStep{read, scan, charge, byID}}, s, sqlparse.MySQL, nil)
	if got, want := seeded(run), []string{"1:-15", "0:0"}; !reflect.DeepEqual(got, want) || len(run.Unordered) != 0 {
		t.Errorf("seeded id:used %v, Unordered %v; want %v and none", got, run.Unordered, want)
	}
}
