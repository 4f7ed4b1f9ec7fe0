package main

import (
	"strings"
	"sync"
	"testing"
	"time"
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
