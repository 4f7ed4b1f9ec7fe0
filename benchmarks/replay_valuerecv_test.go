package benchmarks_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/benchmarks/harness"
)

// TestReplayValueReceiver replays, with the built binary, the UNSAFE
// counterexample of an entry that is a method with a value receiver
// (Ledger.Debit, as dbverify names it). The witness driver looked it up
// as a function named "Ledger.Debit" and did not run it (an independent
// tester's dispatch.Audited.Debit); it calls the method on a Ledger.
func TestReplayValueReceiver(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a witness driver")
	}
	recordInputs(t)
	const name = "trust/sqlite_value_receiver_unsafe"
	c, err := harness.ReadCase(filepath.Join(corpusDir(t), name), name)
	if err != nil {
		t.Fatal(err)
	}
	out := replayCase(t, c)
	if !strings.Contains(out, "sqlite_value_receiver_unsafe.Ledger.Debit") {
		t.Errorf("Ledger.Debit not replayed:\n%s", out)
	}
}
