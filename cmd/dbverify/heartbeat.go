package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dbverify/dbverify/report"
)

// heartbeatEvery is how often a run whose progress is not shown says it
// is still working (a CI log would otherwise show nothing for minutes).
const heartbeatEvery = time.Minute

// heartbeat counts the decided results (as the pipeline's Progress) and,
// every heartbeatEvery until stop is called, writes one line to w.
type heartbeat struct {
	mu          sync.Mutex
	done, total int
	doing       string               // what the run does after every result is decided
	running     map[string]time.Time // results being decided → since when
	start       time.Time
	stop, ended chan struct{}
}

// startHeartbeat starts the heartbeat of a run on w, one line each
// interval.
func startHeartbeat(w io.Writer, interval time.Duration) *heartbeat {
	h := &heartbeat{start: time.Now(), running: map[string]time.Time{}, stop: make(chan struct{}), ended: make(chan struct{})}
	go func() {
		defer close(h.ended)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-h.stop:
				return
			case <-t.C:
				fmt.Fprintln(w, h.line(time.Now()))
			}
		}
	}()
	return h
}

// slowAfter is how long a result runs before the heartbeat names it.
const slowAfter = time.Minute

// line is the heartbeat's line at now: the results decided, those
// running for more than slowAfter (no time limit stops them by default),
// and what the run does once all are decided.
func (h *heartbeat) line(now time.Time) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := fmt.Sprintf("dbverify: still working after %s: %d of %s result(s) decided (--progress lists them)",
		now.Sub(h.start).Round(time.Second), h.done, totalText(h.total))
	var slow []string
	for _, key := range slices.Sorted(maps.Keys(h.running)) {
		if d := now.Sub(h.running[key]); d >= slowAfter {
			slow = append(slow, fmt.Sprintf("%s for %s", key, d.Round(time.Second)))
		}
	}
	if len(slow) > 0 {
		s += "; running: " + strings.Join(slow, ", ") + " (no time limit by default: --time-limit sets one)"
	}
	if h.doing != "" {
		s += "; " + h.doing
	}
	return s
}

func totalText(total int) string {
	if total == 0 {
		return "?" // still loading
	}
	return fmt.Sprint(total)
}

// progress is the pipeline's Progress: it counts.
func (h *heartbeat) progress(done, total int, r *report.Result) {
	h.mu.Lock()
	h.done, h.total = done, total
	if r != nil {
		delete(h.running, runningKey(r.Entry, r.Constraint))
	}
	h.mu.Unlock()
}

// started is the pipeline's Started: the result runs from now.
func (h *heartbeat) started(entry, constraint string) {
	h.mu.Lock()
	h.running[runningKey(entry, constraint)] = time.Now()
	h.mu.Unlock()
}

// runningKey names a result being decided.
func runningKey(entry, constraint string) string {
	return entry + " [" + constraint + "]"
}

// phase is the pipeline's Phase: the next line says it.
func (h *heartbeat) phase(msg string) {
	h.mu.Lock()
	h.doing = msg
	h.mu.Unlock()
}

// end stops the heartbeat (no line is written after it returns).
func (h *heartbeat) end() {
	close(h.stop)
	<-h.ended
}
