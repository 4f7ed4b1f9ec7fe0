package instrument_test

import (
	"strings"
	"testing"

	"github.com/dbverify/dbverify/instrument"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/spec"
	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/schema"
)

// TestRowCheck: a row check watches one row of its table, assumes ψ of
// every initial row, and is violated when the watched row exists and
// breaks ψ.
func TestRowCheck(t *testing.T) {
	c, err := spec.ParseRowCheck("accounts.balance >= 0", "")
	if err != nil {
		t.Fatal(err)
	}
	ins, err := instrument.For(c)
	if err != nil {
		t.Fatal(err)
	}
	w := ins.Watched()
	if len(w) != 1 || w[0].Table != "accounts" || w[0].Symbol != instrument.WatchedRow {
		t.Fatalf("watched %v, want one row r of accounts", w)
	}
	if got := ins.Conditions("Accounts"); len(got) != 1 || got[0] != c.Expr {
		t.Errorf("conditions on accounts %v, want ψ", got)
	}
	if got := ins.Conditions("orders"); got != nil {
		t.Errorf("conditions on orders %v, want none", got)
	}
	if got := ins.Invariant("accounts"); len(got) != 1 || got[0] != c.Expr {
		t.Errorf("invariant %v, want ψ", got)
	}

	p := ir.NewProgram("test")
	exists := p.NewVar("r.$exists", ir.Bool, ir.Ghost)
	psi := p.NewVar("psi", ir.Bool, ir.Ghost)
	var asked sqlir.Expr
	row := instrument.Row{Watch: w[0], Exists: exists, Cond: func(e sqlir.Expr) ir.Expr { asked = e; return psi }}
	got := ir.And(ins.Violation([]instrument.Row{row})...)
	if asked != c.Expr {
		t.Errorf("the violation translated %v, want ψ", asked)
	}
	if want := ir.And(exists, ir.Not(psi)); got.String() != want.String() {
		t.Errorf("violation %s, want %s", got, want)
	}
	if ins.Text() != "accounts.balance >= 0" {
		t.Errorf("text %q", ins.Text())
	}
}

// TestVerifies: the row check itself is verified (the database must not
// be relied on to refuse a write that breaks it); with the schema's
// CHECKs as properties, every CHECK of the table is; others are enforced.
func TestVerifies(t *testing.T) {
	schema, err := schema.Parse(`CREATE TABLE accounts (balance INT NOT NULL, lim INT NOT NULL,
  CONSTRAINT pos CHECK (balance >= 0), CONSTRAINT lim_pos CHECK (lim >= 0));
CREATE TABLE orders (qty INT NOT NULL, CONSTRAINT qty_pos CHECK (qty > 0));`)
	if err != nil {
		t.Fatal(err)
	}
	user, err := spec.ParseRowCheck("ACCOUNTS.Balance >= 0", "")
	if err != nil {
		t.Fatal(err)
	}
	named := spec.FromSchema(schema)[0] // pos
	pos, limPos := schema.Tables["accounts"].Checks[0], schema.Tables["accounts"].Checks[1]
	qty := schema.Tables["orders"].Checks[0]
	tests := []struct {
		name  string
		p     spec.Property
		table string
		ck    sqlir.Constraint
		want  bool
	}{
		{"--constraint, the same CHECK", user, "accounts", pos, true},
		{"--constraint, another CHECK of its table", user, "accounts", limPos, false},
		{"schema CHECK, another CHECK of its table", named, "accounts", limPos, true},
		{"schema CHECK, a CHECK of another table", named, "orders", qty, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ins, err := instrument.For(tt.p)
			if err != nil {
				t.Fatal(err)
			}
			if got := ins.Verifies(tt.table, tt.ck); got != tt.want {
				t.Errorf("Verifies(%s, %s) = %v, want %v", tt.table, tt.ck.Text, got, tt.want)
			}
		})
	}
}

// otherKind is a property kind the row model does not know.
type otherKind struct{}

func (otherKind) Tables() []string { return []string{"t"} }
func (otherKind) String() string   { return "t is sorted" }
func (otherKind) Label() string    { return "t is sorted" }

func TestUnsupportedKind(t *testing.T) {
	if _, err := instrument.For(otherKind{}); err == nil || !strings.Contains(err.Error(), "not supported") {
		t.Errorf("error %v, want a property kind the row model does not support", err)
	}
}

// TestReference: a reference watches a row r of the referencing table and
// a key slot p of the referenced one; on entry r's reference to p's key
// means p exists, and the violation is a reference to an empty slot (or,
// for the EXISTS form, a NULL reference).
func TestReference(t *testing.T) {
	sch, err := schema.Parse(`CREATE TABLE owners (id BIGINT PRIMARY KEY); CREATE TABLE pets (id BIGINT PRIMARY KEY, owner_id BIGINT NOT NULL);`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ text, violation string }{
		{"pets.owner_id IN (SELECT id FROM owners)", "((r.$exists && !null) && (c == k)) && !p.$exists"},
		{"EXISTS (SELECT 1 FROM owners o WHERE o.id = pets.owner_id)", "(((r.$exists && !null) && (c == k)) && !p.$exists) || (r.$exists && null)"},
	} {
		props, err := spec.Resolve([]string{tt.text}, "", sch, petsProgram{})
		if err != nil {
			t.Fatal(err)
		}
		ins, err := instrument.For(props[0])
		if err != nil {
			t.Fatal(err)
		}
		w := ins.Watched()
		if len(w) != 2 || w[0].Table != "pets" || w[0].Slot || w[1].Table != "owners" || !w[1].Slot || w[1].Symbol != instrument.ReferencedSlot {
			t.Fatalf("watched %+v, want r of pets and the slot p of owners", w)
		}
		p := ir.NewProgram("test")
		vars := map[string]*ir.Var{}
		for _, n := range []string{"r.$exists", "p.$exists", "null"} {
			vars[n] = p.NewVar(n, ir.Bool, ir.Ghost)
		}
		c, k := p.NewVar("c", ir.Int, ir.Ghost), p.NewVar("k", ir.Int, ir.Ghost)
		rows := []instrument.Row{
			{Watch: w[0], Exists: vars["r.$exists"], Cond: func(sqlir.Expr) ir.Expr { return vars["null"] }, Col: func(string) ir.Expr { return c }},
			{Watch: w[1], Exists: vars["p.$exists"], Col: func(string) ir.Expr { return k }},
		}
		if got := ir.And(ins.Violation(rows)...).String(); got != tt.violation {
			t.Errorf("%s: violation %s, want %s", tt.text, got, tt.violation)
		}
		if len(ins.OnEntry(rows)) == 0 {
			t.Errorf("%s: nothing assumed on entry", tt.text)
		}
	}
}

// petsProgram is a program whose SQL uses owners and pets.
type petsProgram struct{}

func (petsProgram) Tables() []string                { return []string{"owners", "pets"} }
func (petsProgram) Columns(string) ([]string, bool) { return nil, true }
func (petsProgram) RunsUnknownSQL() bool            { return false }
