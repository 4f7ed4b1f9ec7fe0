package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestDeclaredForeignKey: a reference the schema declares as a FOREIGN
// KEY over a NOT NULL column is SAFE by the engine where it enforces the
// key — PostgreSQL, InnoDB with a FOREIGN KEY constraint — sequentially
// and for any number of concurrent requests (DeleteOwner ∥ AddPet: the
// key's checks lock the owner row), saying so; UNKNOWN with the reason
// where the engine may not: MySQL's inline REFERENCES (no key up to 8.4),
// ENGINE=MyISAM, SQLite without PRAGMA foreign_keys, a program that turns
// the checks off.
func TestDeclaredForeignKey(t *testing.T) {
	const ref = "pets.owner_id IN (SELECT id FROM owners)"
	table := func(engine string) string {
		return "CREATE TABLE owners (id BIGINT PRIMARY KEY, name VARCHAR(100) NOT NULL)" + engine + ";\n" +
			"CREATE TABLE pets (id BIGINT PRIMARY KEY, owner_id BIGINT NOT NULL, name VARCHAR(100) NOT NULL,\n" +
			"  FOREIGN KEY (owner_id) REFERENCES owners (id))" + engine + ";\n"
	}
	const inline = "CREATE TABLE owners (id BIGINT PRIMARY KEY, name VARCHAR(100) NOT NULL) ENGINE=InnoDB;\n" +
		"CREATE TABLE pets (id BIGINT PRIMARY KEY, owner_id BIGINT NOT NULL REFERENCES owners (id), name VARCHAR(100) NOT NULL) ENGINE=InnoDB;\n"
	tests := []struct {
		name, corpus, dialect, ddl string // ddl "": the case's schema.sql
		concurrent                 bool
		want                       report.Verdict
		says                       string
	}{
		{"postgres", "concurrent/pg_delete_owner_add_pet_fk_safe", "postgres", "", false, report.Safe, "enforced by the schema's FOREIGN KEY pets (owner_id) REFERENCES owners (id)"},
		{"postgres, concurrent", "concurrent/pg_delete_owner_add_pet_fk_safe", "postgres", "", true, report.Safe, "also between concurrent requests"},
		{"mysql, FOREIGN KEY constraint", "concurrent/mysql_delete_owner_add_pet_fk_safe", "mysql", "", true, report.Safe, "enforced by the schema's FOREIGN KEY"},
		{"mysql, inline REFERENCES", "concurrent/mysql_delete_owner_add_pet_fk_safe", "mysql", inline, false, report.Unknown, "MySQL up to 8.4 parses and creates no key"},
		{"mysql, MyISAM", "concurrent/mysql_delete_owner_add_pet_fk_safe", "mysql", table(" ENGINE=MyISAM"), false, report.Unknown, "ENGINE=myisam, which enforces no foreign key"},
		{"sqlite", "concurrent/mysql_delete_owner_add_pet_fk_safe", "sqlite", table(""), false, report.Unknown, "PRAGMA foreign_keys = ON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := corpusCase(tt.corpus)
			sch := filepath.Join(dir, "schema.sql")
			if tt.ddl != "" {
				sch = filepath.Join(t.TempDir(), "schema.sql")
				if err := os.WriteFile(sch, []byte(tt.ddl), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			rep, err := runShared(context.Background(), Config{Dir: dir, Patterns: []string{"./..."}, Schema: sch, Dialect: Dialect(tt.dialect),
				Constraints: []string{ref}, Workers: 1, Concurrent: tt.concurrent})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Results) != 2 {
				t.Fatalf("%d results, want AddPet's and DeleteOwner's", len(rep.Results))
			}
			for _, r := range rep.Results {
				text := r.Proof + r.Reason
				if r.Verdict != tt.want || !strings.Contains(text, tt.says) {
					t.Errorf("%s: %s (%s), want %s saying %q", r.Entry, r.Verdict, text, tt.want, tt.says)
				}
				if tt.concurrent && r.Verdict == report.Safe && (r.Concurrency == nil || r.Concurrency.Scope != report.ScopeProved) {
					t.Errorf("%s: concurrency %+v, want %q", r.Entry, r.Concurrency, report.ScopeProved)
				}
			}
		})
	}
}

// TestForeignKeyChecksOff: a program that turns the foreign-key checks off
// (MySQL's SET FOREIGN_KEY_CHECKS = 0, which stays on the pool's
// connection) leaves the references of the entries run with it UNKNOWN
// saying why, not SAFE by the engine.
func TestForeignKeyChecksOff(t *testing.T) {
	sch := filepath.Join(t.TempDir(), "schema.sql")
	ddl := "CREATE TABLE owners (id BIGINT PRIMARY KEY, name VARCHAR(100) NOT NULL) ENGINE=InnoDB;\n" +
		"CREATE TABLE pets (id BIGINT PRIMARY KEY, owner_id BIGINT NOT NULL, name VARCHAR(100) NOT NULL,\n" +
		"  FOREIGN KEY (owner_id) REFERENCES owners (id)) ENGINE=InnoDB;\n"
	if err := os.WriteFile(sch, []byte(ddl), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := testdataDir(t, "src")
	rep, err := runShared(context.Background(), Config{Dir: dir, Patterns: []string{"./fkoff"}, Schema: sch, Dialect: "mysql",
		Constraints: []string{"pets.owner_id IN (SELECT id FROM owners)"}, Workers: 1, Concurrent: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if r.Verdict != report.Unknown || !strings.Contains(r.Reason, "FOREIGN_KEY_CHECKS") {
			t.Errorf("%s: %s (%s), want UNKNOWN naming FOREIGN_KEY_CHECKS", r.Entry, r.Verdict, r.Reason+r.Proof)
		}
	}
	if len(rep.Results) != 2 {
		t.Errorf("%d results, want AddPet's and Purge's", len(rep.Results))
	}
}
