package schedule

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/dbverify/dbverify/witness"
)

func TestParseOrder(t *testing.T) {
	tests := []struct {
		in   string
		want []Step
		bad  bool
	}{
		{in: "A1 B1 A2", want: []Step{{Request: "A", Step: 1}, {Request: "B", Step: 1}, {Request: "A", Step: 2}}},
		{in: "A1, B12", want: []Step{{Request: "A", Step: 1}, {Request: "B", Step: 12}}},
		{in: "A1 A2(fails) B1", want: []Step{{Request: "A", Step: 1}, {Request: "A", Step: 2, Fails: true}, {Request: "B", Step: 1}}},
		{in: "(fails)", bad: true},
		{in: "1A", bad: true},
		{in: "A0", bad: true},
		{in: "A", bad: true},
	}
	for _, tc := range tests {
		got, err := ParseOrder(tc.in)
		if (err != nil) != tc.bad {
			t.Errorf("%q: error %v, want bad=%v", tc.in, err, tc.bad)
			continue
		}
		if !tc.bad && !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

// TestScheduleJSON: the verifier's JSON (full steps) and a hand-written
// order decode into the same steps, and Validate rejects a step of an
// unknown request.
func TestScheduleJSON(t *testing.T) {
	full := `{"requests":[{"request":"A","entry":"p.F","inputs":[{"name":"id","value":"1"}]},{"request":"B","entry":"p.F","inputs":[]}],
	  "initial_rows":[{"table":"accounts","values":{"id":"1","balance":"100"}}],
	  "schedule":[{"request":"A","step":1,"pos":"store.go:31","op":"begin","sql":"BEGIN"},{"request":"B","step":1,"op":"begin"}],
	  "isolation":{"level":"READ COMMITTED","source":"postgres default"}}`
	hand := `{"requests":[{"request":"A","entry":"p.F","inputs":[]},{"request":"B","entry":"p.F","inputs":[]}],"initial_rows":[],"order":"A1 B1"}`
	var a, b Schedule
	if err := json.Unmarshal([]byte(full), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(hand), &b); err != nil {
		t.Fatal(err)
	}
	for _, s := range []*Schedule{&a, &b} {
		if err := s.Validate(); err != nil {
			t.Fatal(err)
		}
	}
	sa, _ := a.Steps()
	sb, _ := b.Steps()
	if !reflect.DeepEqual(gateSteps(sa), gateSteps(sb)) {
		t.Errorf("steps differ: %+v vs %+v", sa, sb)
	}
	if a.Isolation.Level != "READ COMMITTED" || a.InitialRows[0].Values["balance"] != "100" || a.Requests[0].Inputs[0].Value != "1" {
		t.Errorf("decoded %+v", a)
	}
	b.Order = "A1 C1"
	if err := b.Validate(); err == nil {
		t.Error("Validate accepted a step of request C")
	}
}

// TestSeedRowsFillsRequiredColumns: a row that leaves out a NOT NULL
// column without a default is seeded with the column type's zero; a
// nullable or defaulted column is left to the engine.
func TestSeedRowsFillsRequiredColumns(t *testing.T) {
	dir := t.TempDir()
	ddl := "CREATE TABLE accounts (id BIGINT PRIMARY KEY, balance BIGINT NOT NULL, owner TEXT NOT NULL, note TEXT, closed INT NOT NULL DEFAULT 0);"
	if err := os.WriteFile(filepath.Join(dir, "schema.sql"), []byte(ddl), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := witness.LoadSchemaFiles(filepath.Join(dir, "schema.sql"))
	if err != nil {
		t.Fatal(err)
	}
	got := seedRows([]Row{{Table: "accounts", Values: map[string]string{"ID": "1"}}}, s)
	want := map[string]string{"id": "1", "balance": "0", "owner": ""}
	if !reflect.DeepEqual(got[0].Values, want) {
		t.Errorf("seeded %v, want %v", got[0].Values, want)
	}
}

// TestSeedRowsAddsParents: a counterexample lists the wallet; the run
// first locks the wallet's customer, whose row a consistent state has.
func TestSeedRowsAddsParents(t *testing.T) {
	dir := t.TempDir()
	ddl := `CREATE TABLE customers (id BIGINT PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE wallets (customer_id BIGINT PRIMARY KEY REFERENCES customers (id), cents BIGINT NOT NULL);`
	if err := os.WriteFile(filepath.Join(dir, "schema.sql"), []byte(ddl), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := witness.LoadSchemaFiles(filepath.Join(dir, "schema.sql"))
	if err != nil {
		t.Fatal(err)
	}
	got := seedRows([]Row{
		{Table: "wallets", Values: map[string]string{"customer_id": "5", "cents": "3"}},
		{Table: "wallets", Values: map[string]string{"customer_id": "7", "cents": "1"}},
		{Table: "customers", Values: map[string]string{"id": "7", "name": "x"}},
	}, s)
	want := []witness.Row{
		{Table: "customers", Values: map[string]string{"id": "5", "name": ""}},
		{Table: "wallets", Values: map[string]string{"customer_id": "5", "cents": "3"}},
		{Table: "wallets", Values: map[string]string{"customer_id": "7", "cents": "1"}},
		{Table: "customers", Values: map[string]string{"id": "7", "name": "x"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("seedRows = %v, want %v", got, want)
	}
}

// TestSeedRowsUnquotesStrings: a concurrent counterexample shows a string
// column quoted (code = "5"); the seeded row holds the text 5, which the
// requests' WHERE code = '5' finds (adv8 R1: seeded with the quotes, the
// schedule found no coupon and did not replay).
func TestSeedRowsUnquotesStrings(t *testing.T) {
	dir := t.TempDir()
	ddl := `CREATE TABLE coupons (code TEXT PRIMARY KEY, uses BIGINT NOT NULL, note TEXT NOT NULL);`
	if err := os.WriteFile(filepath.Join(dir, "schema.sql"), []byte(ddl), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := witness.LoadSchemaFiles(filepath.Join(dir, "schema.sql"))
	if err != nil {
		t.Fatal(err)
	}
	got := seedRows([]Row{{Table: "coupons", Values: map[string]string{"code": `"5"`, "uses": "1", "note": `"say \"hi\""`}}}, s)
	want := map[string]string{"code": "5", "uses": "1", "note": `say "hi"`}
	if !reflect.DeepEqual(got[0].Values, want) {
		t.Errorf("seeded %v, want %v", got[0].Values, want)
	}
}
