package main

import (
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbverify/dbverify/report"
)

// syncBuffer is a strings.Builder safe for the heartbeat's goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestHeartbeat: a run whose progress is not shown says, at each
// interval, how many results are decided, and what it does once all are
// (the pipeline's Phase); nothing after it ends.
func TestHeartbeat(t *testing.T) {
	var out syncBuffer
	h := startHeartbeat(&out, 5*time.Millisecond)
	h.progress(2, 7, nil)
	h.phase("re-checking X")
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(out.String(), "2 of 7 result(s) decided (--progress lists them); re-checking X") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	h.end()
	got := out.String()
	if !strings.HasPrefix(got, "dbverify: still working after ") || !strings.Contains(got, "2 of 7 result(s) decided (--progress lists them); re-checking X") {
		t.Fatalf("heartbeat wrote %q", got)
	}
	time.Sleep(20 * time.Millisecond)
	if out.String() != got {
		t.Errorf("heartbeat wrote after end: %q", strings.TrimPrefix(out.String(), got))
	}
}

// TestHeartbeatNamesSlowResults: the heartbeat line names the results
// decided for more than slowAfter, and that no time limit stops them by
// default (adv18: three results ran 6 to 16 minutes each, unnamed), and
// forgets a result once it is decided.
func TestHeartbeatNamesSlowResults(t *testing.T) {
	h := startHeartbeat(io.Discard, time.Hour)
	defer h.end()
	h.started("example.com/api.Slow", "accounts.balance >= 0")
	h.started("example.com/api.Quick", "accounts.balance >= 0")
	h.mu.Lock()
	h.running["example.com/api.Quick [accounts.balance >= 0]"] = time.Now().Add(slowAfter)
	h.mu.Unlock()
	later := time.Now().Add(slowAfter + 7*time.Second)
	line := h.line(later)
	if !strings.Contains(line, "running: example.com/api.Slow [accounts.balance >= 0] for 1m7s (no time limit by default: --time-limit sets one)") ||
		strings.Contains(line, "Quick") {
		t.Errorf("heartbeat line %q, want Slow named as running for 1m7s and not Quick", line)
	}
	h.progress(1, 2, &report.Result{Entry: "example.com/api.Slow", Constraint: "accounts.balance >= 0"})
	if line := h.line(later); strings.Contains(line, "running:") {
		t.Errorf("heartbeat line %q names a result decided", line)
	}
}
