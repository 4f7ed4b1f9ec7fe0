package spec_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/spec"
	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/schema"
)

// program is a Program with fixed tables and columns.
type program struct {
	tables  []string
	columns map[string][]string // table → the columns its SQL names
	all     map[string]bool     // table → SQL may touch unnamed columns
	unknown bool
}

func (p *program) Tables() []string { return p.tables }
func (p *program) Columns(table string) ([]string, bool) {
	return p.columns[table], p.all[table]
}
func (p *program) RunsUnknownSQL() bool { return p.unknown }

func mustSchema(t *testing.T, ddl string) *sqlir.Schema {
	t.Helper()
	s, err := schema.Parse(ddl)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestResolve: --constraint over its qualified table, --table, or the
// one table whose columns it names; with none, the schema's CHECKs.
func TestResolve(t *testing.T) {
	two := &program{tables: []string{"accounts", "orders"},
		columns: map[string][]string{"accounts": {"balance", "id"}, "orders": {"id", "qty"}}}
	schema := mustSchema(t, `CREATE TABLE accounts (id INT PRIMARY KEY, balance INT NOT NULL, CONSTRAINT pos CHECK (balance >= 0));
CREATE TABLE orders (id INT PRIMARY KEY, qty INT NOT NULL, CONSTRAINT qty_pos CHECK (qty > 0));`)
	tests := []struct {
		name   string
		texts  []string
		table  string
		schema *sqlir.Schema
		prog   *program
		want   []string // Label() "@" table of each property
		err    string   // substring of the error, if one
	}{
		{"qualified", []string{"accounts.balance >= 0"}, "", nil, two, []string{"accounts.balance >= 0@accounts"}, ""},
		{"--table", []string{"qty > 0"}, "orders", nil, two, []string{"qty > 0@orders"}, ""},
		{"the only table used", []string{"balance >= 0"}, "", nil, &program{tables: []string{"accounts"}}, []string{"balance >= 0@accounts"}, ""},
		{"the only table with the columns", []string{"qty > 0"}, "", nil, two, []string{"qty > 0@orders"}, ""},
		{"columns of the schema", []string{"balance >= 0"}, "", schema, &program{tables: []string{"accounts", "orders"}}, []string{"balance >= 0@accounts"}, ""},
		{"ambiguous: both tables have id", []string{"id > 0"}, "", nil, two, nil, "names no table"},
		{"unnamed columns keep it ambiguous", []string{"qty > 0"}, "", nil,
			&program{tables: []string{"accounts", "orders"}, columns: two.columns, all: map[string]bool{"accounts": true}}, nil, "names no table"},
		{"schema CHECKs", nil, "", schema, two, []string{"pos: balance >= 0@accounts", "qty_pos: qty > 0@orders"}, ""},
		{"two tables in one condition", []string{"a.x > b.y"}, "", nil, two, nil, "names two tables"},
		// Not over one row: a property of its own (UNKNOWN per entry), on
		// every table of the program it names.
		{"a subquery", []string{"orders.qty <= (SELECT balance FROM accounts a WHERE a.id = orders.id)"}, "", nil, two,
			[]string{"orders.qty <= (SELECT balance FROM accounts a WHERE a.id = orders.id)@accounts,orders"}, ""},
		{"an aggregate", []string{"sum(orders.qty) < 10"}, "", nil, two, []string{"sum(orders.qty) < 10@orders"}, ""},
		{"a subquery over no table of the program", []string{"x.y IN (SELECT z FROM w)"}, "", nil, two, nil, "subqueries are not allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			props, err := spec.Resolve(tt.texts, tt.table, tt.schema, tt.prog)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range props {
				got = append(got, p.Label()+"@"+strings.Join(p.Tables(), ","))
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("properties %q, want %q", got, tt.want)
			}
		})
	}
	if _, err := spec.Resolve(nil, "", mustSchema(t, "CREATE TABLE t (x INT)"), two); !errors.Is(err, spec.ErrNoProperty) {
		t.Errorf("a schema without CHECKs and no --constraint: error %v, want ErrNoProperty", err)
	}
}

// TestParseFacts: a qualified --assume is about its table's rows, one
// with bare names about the entry's parameters.
func TestParseFacts(t *testing.T) {
	facts, err := spec.ParseFacts([]string{"accounts.balance <= 1000", "amount > 0 AND amount < 500"})
	if err != nil {
		t.Fatal(err)
	}
	if len(facts) != 2 {
		t.Fatalf("%d facts, want 2", len(facts))
	}
	tf, ok := facts[0].(*spec.TableFact)
	if !ok || tf.Table != "accounts" || tf.Text != "accounts.balance <= 1000" {
		t.Errorf("fact 0 = %#v, want a TableFact about accounts", facts[0])
	}
	pf, ok := facts[1].(*spec.ParamFact)
	if !ok || pf.Text != "amount > 0 AND amount < 500" {
		t.Errorf("fact 1 = %#v, want a ParamFact", facts[1])
	}
	if got := spec.TableFacts(facts, "ACCOUNTS"); len(got) != 1 || got[0] != tf {
		t.Errorf("TableFacts(accounts) = %v", got)
	}
	if got := spec.ParamFacts(facts); len(got) != 1 || got[0] != pf {
		t.Errorf("ParamFacts = %v", got)
	}
	if _, err := spec.ParseFacts([]string{"a.x >"}); err == nil || !strings.HasPrefix(err.Error(), "--assume: ") {
		t.Errorf("syntax error: %v, want an --assume error", err)
	}
}

// TestCheckNames: a --constraint's table and columns must exist, so a
// typo is an error rather than a vacuous SAFE.
func TestCheckNames(t *testing.T) {
	schema := mustSchema(t, `CREATE TABLE accounts (id INT PRIMARY KEY, balance INT NOT NULL);`)
	prog := &program{tables: []string{"accounts", "orders"},
		columns: map[string][]string{"orders": {"id", "quantity"}}}
	tests := []struct {
		name   string
		text   string
		schema *sqlir.Schema
		prog   *program
		err    string
	}{
		{"fine", "accounts.balance >= 0", schema, prog, ""},
		{"unknown table", "acounts.balance >= 0", schema, prog, "table acounts is neither used"},
		{"column not in the schema", "accounts.balanse >= 0", schema, prog, "has no column balanse in the schema; did you mean balance?"},
		{"column the SQL does not name, close to one it does", "orders.quantty > 0", nil, prog, "did you mean quantity?"},
		{"column the SQL does not name, no close one", "orders.capacity > 0", nil, prog, ""},
		{"unknown SQL: any table may be used", "other.x > 0", nil, &program{unknown: true}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := spec.ParseRowCheck(tt.text, "")
			if err != nil {
				t.Fatal(err)
			}
			err = spec.CheckNames([]spec.Property{c}, tt.schema, tt.prog)
			switch {
			case tt.err == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Errorf("error %v, want one containing %q", err, tt.err)
			}
		})
	}
}

// TestCheckFacts: the CHECKs that become facts are those of the
// property's table and the tables read, other than the property itself;
// one over a nullable column also holds where the column is NULL.
func TestCheckFacts(t *testing.T) {
	schema := mustSchema(t, `
CREATE TABLE a (x INT NOT NULL, y INT NOT NULL, z INT,
  CONSTRAINT a_x CHECK (x >= 0), CONSTRAINT a_xy CHECK (x <= y), CONSTRAINT a_z CHECK (z >= 0));
CREATE TABLE b (p INT NOT NULL, CONSTRAINT b_p CHECK (p > 0));
CREATE TABLE c (q INT NOT NULL, CONSTRAINT c_q CHECK (q > 0));`)
	byName := map[string]spec.Property{}
	for _, p := range spec.FromSchema(schema) {
		byName[p.(*spec.RowCheck).Name] = p
	}
	userA, err := spec.ParseRowCheck("a.x >= 0", "")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		p    spec.Property
		read []string
		want []string
	}{
		{"a CHECK, nothing else read", byName["a_x"], nil, []string{"a_xy", "a_z"}},
		{"a CHECK, b read", byName["a_xy"], []string{"b"}, []string{"a_x", "a_z", "b_p"}},
		{"a --constraint with the same text as a CHECK", userA, []string{"c"}, []string{"a_x", "a_xy", "a_z", "c_q"}},
		{"a CHECK of b", byName["b_p"], []string{"a"}, []string{"a_x", "a_xy", "a_z"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range spec.CheckFacts(schema, tt.p, tt.read) {
				got = append(got, f.Name)
				// (z may be NULL: the CHECK holds there too.)
				if or, ok := f.Expr.(*sqlir.Binary); f.Name == "a_z" && (!ok || or.Op != sqlir.OpOr || !isNullOf(or.X, "z")) {
					t.Errorf("fact a_z is %#v, want z IS NULL OR z >= 0", f.Expr)
				}
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("facts %q, want %q", got, tt.want)
			}
		})
	}
}

// isNullOf reports whether e is "col IS NULL".
func isNullOf(e sqlir.Expr, col string) bool {
	n, ok := e.(*sqlir.IsNull)
	if !ok || n.Not {
		return false
	}
	c, ok := n.X.(*sqlir.ColRef)
	return ok && c.Name == col
}
