package pipeline

import (
	"context"
	"maps"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestCoveragePreparedHere: a function that runs a statement it prepares
// itself (tx.PrepareContext then upd.ExecContext; db.PrepareContext bound
// to a transaction with tx.StmtContext) writes the table of the prepared
// SQL, in the coverage as in the verification (Move SAFE, Take UNSAFE);
// one whose prepared statement writes another table (Log) is no writer of
// the constrained one. Before, the coverage said "writes ?" for all three
// (independent tester adv17's prepared Move) and Log was verified as if
// it might write inventory.
func TestCoveragePreparedHere(t *testing.T) {
	rep, err := runShared(context.Background(), Config{Dir: testdataDir(t, "src"), Patterns: []string{"./prepstmt"}, Dialect: "mysql",
		Schema: testdataDir(t, "prepstmt.sql"), Constraints: []string{"inventory.stock >= 0"}, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	pkg := "example.com/pl/prepstmt."
	writes := map[string]string{}
	for _, c := range rep.Coverage {
		writes[strings.TrimPrefix(c.Writer, pkg)] = strings.Join(c.Tables, ",")
	}
	if want := map[string]string{"Move": "inventory", "Take": "inventory"}; !maps.Equal(writes, want) {
		t.Errorf("coverage: writers %v, want %v", writes, want)
	}
	verdicts := map[string]report.Verdict{}
	for _, r := range rep.Results {
		verdicts[strings.TrimPrefix(r.Entry, pkg)] = r.Verdict
	}
	if want := map[string]report.Verdict{"Move": report.Safe, "Take": report.Unsafe}; !maps.Equal(verdicts, want) {
		t.Errorf("verdicts %v, want %v", verdicts, want)
	}
}
