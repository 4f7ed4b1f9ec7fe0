package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestForeignKeyNotEnforced: a FOREIGN KEY declared NOT ENFORCED
// (PostgreSQL 18), inline or as a table constraint, is no key the engine
// keeps: the reference is not SAFE by it (AddPet and DeleteOwner are
// then decided by the row model: SAFE alone, as the program checks the
// owner), and a warning says the key is not assumed. It was read as an
// enforced key: SAFE "enforced by the schema's FOREIGN KEY … also between
// concurrent requests", which the engine does not do.
func TestForeignKeyNotEnforced(t *testing.T) {
	const owners = "CREATE TABLE owners (id BIGINT PRIMARY KEY, name VARCHAR(100) NOT NULL);\n"
	for name, pets := range map[string]string{
		"inline": "CREATE TABLE pets (id BIGINT PRIMARY KEY, owner_id BIGINT NOT NULL REFERENCES owners (id) NOT ENFORCED, name VARCHAR(100) NOT NULL);\n",
		"table constraint": "CREATE TABLE pets (id BIGINT PRIMARY KEY, owner_id BIGINT NOT NULL, name VARCHAR(100) NOT NULL,\n" +
			"  CONSTRAINT pets_owner_fk FOREIGN KEY (owner_id) REFERENCES owners (id) NOT ENFORCED);\n",
	} {
		t.Run(name, func(t *testing.T) {
			sch := writeSchema(t, owners+pets)
			rep, err := runShared(context.Background(), Config{Dir: corpusCase("concurrent/pg_delete_owner_add_pet_fk_safe"), Patterns: []string{"./..."}, Schema: sch,
				Dialect: "postgres", Constraints: []string{"pets.owner_id IN (SELECT id FROM owners)"}, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Results) == 0 {
				t.Fatal("no results")
			}
			for _, r := range rep.Results {
				if r.Verdict == report.Safe && strings.Contains(r.Proof, ProofEnforcedFK) {
					t.Errorf("%s: SAFE (%s), want no SAFE by the key: it is NOT ENFORCED", r.Entry, r.Proof)
				}
			}
			if !strings.Contains(strings.Join(rep.Warnings, "\n"), "is NOT ENFORCED: not assumed") {
				t.Errorf("warnings %q: none says the FOREIGN KEY is not assumed", rep.Warnings)
			}
		})
	}
}
