package benchmarks_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/benchmarks/harness"
)

// TestReplaySchemaSelectsDatabase replays, with the built binary, a
// MySQL counterexample whose schema file begins CREATE DATABASE bank;
// USE bank;. Replay ran the file as given: the tables went into bank,
// the program ran on the throwaway database and failed with Error 1146
// (an independent tester's ext cav2, ops/db/init.sql). The statements
// that create or select a database are left out.
func TestReplaySchemaSelectsDatabase(t *testing.T) {
	if testing.Short() {
		t.Skip("starts database servers")
	}
	needEngines(t)
	recordInputs(t)
	const name = "trust/mysql_use_database_unsafe"
	c, err := harness.ReadCase(filepath.Join(corpusDir(t), name), name)
	if err != nil {
		t.Fatal(err)
	}
	out := replayCase(t, c)
	if strings.Contains(out, "Error 1146") {
		t.Errorf("the program's database has no tables:\n%s", out)
	}
}

// TestReplaySchemaQualifiedTable replays, with the built binary, a
// PostgreSQL counterexample whose schema file creates its table in a
// schema of its own (CREATE SCHEMA bank; CREATE TABLE bank.accounts …),
// as the program names it. Replay's reset, seed and violation query
// named the bare table and failed ("relation \"accounts\" does not
// exist"); they name it as the DDL creates it.
func TestReplaySchemaQualifiedTable(t *testing.T) {
	if testing.Short() {
		t.Skip("starts database servers")
	}
	needEngines(t)
	recordInputs(t)
	const name = "trust/pg_schema_qualified_unsafe"
	c, err := harness.ReadCase(filepath.Join(corpusDir(t), name), name)
	if err != nil {
		t.Fatal(err)
	}
	out := replayCase(t, c)
	if !strings.Contains(out, `seeded accounts {balance=`) {
		t.Errorf("no accounts row seeded:\n%s", out)
	}
}
