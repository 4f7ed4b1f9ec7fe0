package benchmarks_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/benchmarks/harness"
)

// TestReplayWrapperField replays, with the built binary, the UNSAFE
// counterexamples of a decorator (*Audited).Debit, whose interface
// field Inner the witness driver fills with a type of the package, and
// of the implementation it wraps, (*Plain).Debit. The driver chose
// Audited itself (the first by name), filled its Inner with Audited
// again until nested too deep: a nil Inner, a panic, NOT REPRODUCED (an
// independent tester's dispatch.Audited.Debit). It prefers a type that
// wraps no value of the interface.
func TestReplayWrapperField(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a witness driver")
	}
	recordInputs(t)
	const name = "trust/sqlite_wrapper_iface_unsafe"
	c, err := harness.ReadCase(filepath.Join(corpusDir(t), name), name)
	if err != nil {
		t.Fatal(err)
	}
	out := replayCase(t, c)
	if !strings.Contains(out, "a.Inner (example.com/corpus/trust/sqlite_wrapper_iface_unsafe.Debiter) filled with a *Plain") || strings.Contains(out, "panic") {
		t.Errorf("Inner is not filled with a *Plain:\n%s", out)
	}
}
