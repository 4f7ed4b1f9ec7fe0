package dbmodel_test

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/dbmodel"
	"github.com/dbverify/dbverify/refine"
	"github.com/dbverify/dbverify/smt"
	"github.com/dbverify/dbverify/spec"
	"github.com/dbverify/dbverify/sqlparse"
	"github.com/dbverify/dbverify/sqlparse/schema"
)

// petsProgram is the program side spec.Resolve sees: it uses owners and
// pets.
type petsProgram struct{}

func (petsProgram) Tables() []string { return []string{"owners", "pets"} }
func (petsProgram) Columns(string) ([]string, bool) {
	return nil, true
}
func (petsProgram) RunsUnknownSQL() bool { return false }

// TestReferenceModel: a reference T.c IN (SELECT k FROM U) (and the
// EXISTS form) is decided by the key slot of U: every way a program can
// leave a pet without its owner is found, the programs that keep it are
// proved, and what the slot does not model is UNKNOWN.
func TestReferenceModel(t *testing.T) {
	s, err := smt.NewSolver(10000)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const (
		ddl = `CREATE TABLE owners (id BIGINT PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE pets (id BIGINT PRIMARY KEY, owner_id BIGINT, name TEXT NOT NULL);`
		// The IN form over a NOT NULL column (in); inNull is the IN form
		// over the nullable column: NULL IN an empty owners is FALSE, and
		// the model tracks whether owners has a row.
		ddlNotNull = `CREATE TABLE owners (id BIGINT PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE pets (id BIGINT PRIMARY KEY, owner_id BIGINT NOT NULL, name TEXT NOT NULL);`
		in     = "pets.owner_id IN (SELECT id FROM owners)"
		exists = "EXISTS (SELECT 1 FROM owners o WHERE o.id = pets.owner_id)"
		inNull = "pets.owner_id IN (SELECT o.id FROM owners o)"
	)
	insertStray := step{sql: "INSERT INTO pets (id, owner_id, name) VALUES ($1, NULL, 'x')", args: []string{"pet"}}
	readAnyOwner := step{sql: "SELECT id FROM owners WHERE id <> $1", args: []string{"a"}, into: []string{"o"}}
	deleteOwner := step{sql: "DELETE FROM owners WHERE id = $1", args: []string{"a"}}
	deletePets := step{sql: "DELETE FROM pets WHERE owner_id = $1", args: []string{"a"}}
	insertPet := func(owner string) step {
		return step{sql: "INSERT INTO pets (id, owner_id, name) VALUES ($1, $2, 'x')", args: []string{"pet", owner}}
	}
	readOwner := step{sql: "SELECT id FROM owners WHERE id = $1", args: []string{"a"}, into: []string{"o"}}
	tests := []struct {
		name, constraint string
		d                sqlparse.Dialect
		inputs           []string
		steps            []step
		want             refine.Verdict
		reason           string
	}{
		{"delete an owner with pets", in, sqlparse.Postgres, []string{"a"}, []step{deleteOwner}, refine.Unsafe, ""},
		{"delete the pets, then the owner, in a transaction", in, sqlparse.Postgres, []string{"a"},
			[]step{{tx: "begin"}, deletePets, deleteOwner, {tx: "commit"}}, refine.Safe, ""},
		{"delete the owner, then the pets, auto-committed", in, sqlparse.Postgres, []string{"a"},
			[]step{deleteOwner, deletePets}, refine.Unsafe, ""},
		{"delete an owner, rolled back", in, sqlparse.Postgres, []string{"a"},
			[]step{{tx: "begin"}, deleteOwner, {tx: "rollback"}}, refine.Safe, ""},
		{"insert a pet of any owner", in, sqlparse.Postgres, []string{"a", "pet"}, []step{insertPet("a")}, refine.Unsafe, ""},
		{"insert a pet of the owner read", in, sqlparse.Postgres, []string{"a", "pet"}, []step{readOwner, insertPet("o")}, refine.Safe, ""},
		{"insert a pet of the owner read, EXISTS form", exists, sqlparse.Postgres, []string{"a", "pet"}, []step{readOwner, insertPet("o")}, refine.Safe, ""},
		{"read one owner, insert a pet of another", in, sqlparse.Postgres, []string{"a", "b", "pet"}, []step{readOwner, insertPet("b")}, refine.Unsafe, ""},
		{"insert a pet of an owner inserted first", in, sqlparse.Postgres, []string{"a", "pet"},
			[]step{{sql: "INSERT INTO owners (id, name) VALUES ($1, 'n')", args: []string{"a"}}, insertPet("a")}, refine.Safe, ""},
		{"insert a pet with the owner of a pet read", in, sqlparse.Postgres, []string{"a", "pet"},
			[]step{{sql: "SELECT owner_id FROM pets WHERE id = $1 AND owner_id IS NOT NULL", args: []string{"a"}, into: []string{"o"}}, insertPet("o")}, refine.Safe, ""},
		{"move the pets of one owner to another", in, sqlparse.Postgres, []string{"a", "b"},
			[]step{{sql: "UPDATE pets SET owner_id = $1 WHERE owner_id = $2", args: []string{"b", "a"}}}, refine.Unsafe, ""},
		{"a NULL for a NOT NULL reference fails the UPDATE (IN form)", in, sqlparse.Postgres, []string{"a"},
			[]step{{sql: "UPDATE pets SET owner_id = NULL WHERE id = $1", args: []string{"a"}}}, refine.Safe, ""},
		{"NULL breaks the EXISTS form", exists, sqlparse.Postgres, []string{"a"},
			[]step{{sql: "UPDATE pets SET owner_id = NULL WHERE id = $1", args: []string{"a"}}}, refine.Unsafe, ""},
		{"a NULL-owner pet while owners may be empty", inNull, sqlparse.Postgres, []string{"pet"}, []step{insertStray}, refine.Unsafe, ""},
		{"a NULL-owner pet after reading an owner", inNull, sqlparse.Postgres, []string{"a", "pet"}, []step{readAnyOwner, insertStray}, refine.Safe, ""},
		{"a NULL-owner pet after inserting an owner", inNull, sqlparse.Postgres, []string{"a", "pet"},
			[]step{{sql: "INSERT INTO owners (id, name) VALUES ($1, 'n')", args: []string{"a"}}, insertStray}, refine.Safe, ""},
		{"set a pet's owner to NULL (it had one, or a NULL: owners has a row)", inNull, sqlparse.Postgres, []string{"a"},
			[]step{{sql: "UPDATE pets SET owner_id = NULL WHERE id = $1", args: []string{"a"}}}, refine.Safe, ""},
		{"delete the pets, then the owner: maybe the last, beside a NULL-owner pet", inNull, sqlparse.Postgres, []string{"a"},
			[]step{{tx: "begin"}, deletePets, deleteOwner, {tx: "commit"}}, refine.Unsafe, ""},
		{"delete an owner while another is read", inNull, sqlparse.Postgres, []string{"a"},
			[]step{{tx: "begin"}, deletePets, readAnyOwner, deleteOwner, {tx: "commit"}}, refine.Safe, ""},
		{"delete an owner, rolled back (IN form, nullable)", inNull, sqlparse.Postgres, []string{"a"},
			[]step{{tx: "begin"}, deletePets, deleteOwner, {tx: "rollback"}}, refine.Safe, ""},
		{"delete an owner, then insert one, in a transaction", inNull, sqlparse.Postgres, []string{"a", "b"},
			[]step{{tx: "begin"}, deletePets, deleteOwner, {sql: "INSERT INTO owners (id, name) VALUES ($1, 'n')", args: []string{"b"}}, {tx: "commit"}}, refine.Safe, ""},
		{"re-key an owner", in, sqlparse.Postgres, []string{"a", "b"},
			[]step{{sql: "UPDATE owners SET id = $1 WHERE id = $2", args: []string{"b", "a"}}}, refine.Unknown, "UPDATE of key column id"},
		{"upsert an owner", in, sqlparse.Postgres, []string{"a"},
			[]step{{sql: "INSERT INTO owners (id, name) VALUES ($1, 'n') ON CONFLICT (id) DO UPDATE SET name = 'm'", args: []string{"a"}}}, refine.Unknown, "upsert"},
		{"TRUNCATE of the owners, MySQL", in, sqlparse.MySQL, []string{"a"},
			[]step{{sql: "TRUNCATE TABLE owners"}}, refine.Unknown, "TRUNCATE of"},
		{"the pool and a transaction", in, sqlparse.Postgres, []string{"a", "pet"},
			[]step{{tx: "begin"}, deleteOwner, {sql: "SELECT id FROM owners WHERE id = $1", args: []string{"a"}, into: []string{"o"}, pool: true}, {tx: "commit"}}, refine.Unknown, "more than one handle"},
	}
	nullable, err := schema.Parse(ddl)
	if err != nil {
		t.Fatal(err)
	}
	notNull, err := schema.Parse(ddlNotNull)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sch := nullable
			if tt.constraint == in {
				sch = notNull
			}
			props, err := spec.Resolve([]string{tt.constraint}, "", sch, petsProgram{})
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := props[0].(*spec.Reference); !ok {
				t.Fatalf("property %T, want a reference", props[0])
			}
			p := build(t, tt.d, tt.inputs, tt.steps)
			dialect := map[sqlparse.Dialect]string{sqlparse.Postgres: "postgres", sqlparse.MySQL: "mysql"}[tt.d]
			low, err := dbmodel.Lower(p, props[0], dbmodel.Options{Schema: sch, Dialect: dialect})
			if err != nil {
				t.Fatal(err)
			}
			// (The default engine, large-block encoding.)
			res := refine.CheckLBE(context.Background(), low.Program, s, refine.Options{})
			if res.Verdict != tt.want || !strings.Contains(res.Reason, tt.reason) {
				t.Fatalf("verdict %s (%s), want %s (%q)\n%s", res.Verdict, res.Reason, tt.want, tt.reason, low.Program)
			}
			if res.Verdict == refine.Unsafe && (res.Trace == nil || res.Trace.Violation.Values["owner_id"] == "") {
				t.Errorf("UNSAFE without the pet that refers to no owner: %+v", res.Trace)
			}
		})
	}
}
