package pipeline

import (
	"context"
	"strings"
	"testing"
)

// serialJobs plans the entries of pkg (testdata/concurrent, PostgreSQL,
// held <= balance) by their short names.
func serialJobs(t *testing.T, pkg string) (map[string]job, []job, *inputs, Config) {
	t.Helper()
	cfg := Config{Dir: testdataDir(t, "concurrent"), Patterns: []string{pkg}, Dialect: "postgres",
		Constraints: []string{"accounts.held <= accounts.balance"}, Workers: 1, Concurrent: true}
	jobs, in := plannedJobs(t, cfg)
	byName := map[string]job{}
	for _, j := range jobs {
		byName[j.entry[strings.LastIndexByte(j.entry, '.')+1:]] = j
	}
	return byName, jobs, in, cfg
}

// TestSerialProofCarriedRead: a retry loop whose next attempt uses what
// an aborted attempt read (stale's Hold reads the row in its first
// attempt only) is not a serial run of its request: the serializable
// proof said SAFE "for any number of concurrent requests" (a wrong SAFE:
// Hold reads balance 10, held 0; Withdraw commits balance 0; Hold's
// UPDATE fails with 40001 and its second attempt writes held = 10 from
// the stale read). A retry loop that runs the whole transaction again
// (mixed's Hold) is one, pair by pair: Hold ∥ Hold rests on
// serializability, Hold ∥ Open (an autocommit INSERT at READ COMMITTED)
// does not, and so neither does the proof for any number of requests.
func TestSerialProofCarriedRead(t *testing.T) {
	ctx := context.Background()
	s, err := newSolver(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	stale, all, in, cfg := serialJobs(t, "./serializable/stale")
	hold := stale["Hold"]
	if st := carriedRead(hold.prog); st == nil {
		t.Errorf("stale Hold: no read of a value an earlier attempt set")
	} else if line := st.Source().Line; line != 29 && line != 35 {
		t.Errorf("stale Hold: carried read at %s, want the attempt == 0 test (line 29) or the check of the stale balance (line 35)", st.Source().Position())
	}
	why, _, _, err := serialProof(ctx, hold, peers(all, hold), in, s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if why != "" {
		t.Errorf("stale Hold: proved by serializability (%s); its retry writes from an aborted attempt's read", why)
	}
	if why, _, err := serialPair(ctx, hold, hold, in, s, cfg); err != nil || why != "" {
		t.Errorf("stale Hold ∥ Hold: %q, %v; want no serializable pair", why, err)
	}

	mixed, all, in, cfg := serialJobs(t, "./serializable/mixed")
	hold, open := mixed["Hold"], mixed["Open"]
	if st := carriedRead(hold.prog); st != nil {
		t.Errorf("mixed Hold: carried read at %s (%s); each attempt runs the whole transaction", st.Source().Position(), st)
	}
	why, _, _, err = serialProof(ctx, hold, peers(all, hold), in, s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if why != "" {
		t.Errorf("mixed Hold: proved by serializability for any number of requests (%s), though Open is not serializable", why)
	}
	if why, _, err := serialPair(ctx, hold, hold, in, s, cfg); err != nil || why == "" {
		t.Errorf("mixed Hold ∥ Hold: %q, %v; want a serializable pair", why, err)
	}
	if why, _, err := serialPair(ctx, hold, open, in, s, cfg); err != nil || why != "" {
		t.Errorf("mixed Hold ∥ Open: %q, %v; want no serializable pair (Open runs at READ COMMITTED)", why, err)
	}
}
