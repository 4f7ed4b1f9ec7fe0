package pipeline

import (
	"bytes"
	"testing"

	"github.com/dbverify/dbverify/smt"
)

// TestDecidingLeavesOutSolvers: the concurrent cache key does not depend
// on the solvers lent to a run (Config.Solvers): a run with a pool holding
// an idle solver and one without have the same key, so that the corpus
// tests' in-process runs and the binary's share cached results.
func TestDecidingLeavesOutSolvers(t *testing.T) {
	var pool smt.Pool
	defer pool.Close()
	s, err := pool.Get(0)
	if err != nil {
		t.Fatal(err)
	}
	pool.Put(s)
	cfg := Config{Constraints: []string{"accounts.balance >= 0"}, Concurrent: true, Isolation: "rr"}
	var without, with bytes.Buffer
	fingerprint(&without, deciding(cfg))
	cfg.Solvers = &pool
	fingerprint(&with, deciding(cfg))
	if without.String() != with.String() {
		t.Errorf("the key's configuration differs with a solver pool:\nwithout: %s\nwith:    %s", without.String(), with.String())
	}
}
