package pipeline

import (
	"path/filepath"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestInsertSelectTracked: INSERT … SELECT whose source is the watched
// table itself reads its one source row as a SELECT of that table does
// (r where it has r's key, a row read earlier, or a row of the initial
// database), so the rows it inserts are decided (adv16 ledgercte.Split
// and SplitChecked were UNKNOWN "the selected values are not modelled").
func TestInsertSelectTracked(t *testing.T) {
	wants := map[string]report.Verdict{
		"Split":        report.Unsafe,
		"SplitChecked": report.Safe,
		"Clone":        report.Safe,
		// The source row is r as the transaction wrote it (fee taken).
		"CloneAfterFee": report.Unsafe,
	}
	dir := testdataDir(t, "insertselect")
	cfg := Config{Dir: dir, Patterns: []string{"./..."}, Dialect: "postgres", Schema: filepath.Join(dir, "schema.sql"),
		Constraints: []string{"wallets.balance >= 0"}, Workers: 1}
	checkVerdicts(t, cfg, wants)
}
