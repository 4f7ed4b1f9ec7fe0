package main

import (
	"fmt"
	"io"
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
	doing       string // what the run does after every result is decided
	start       time.Time
	stop, ended chan struct{}
}

// startHeartbeat starts the heartbeat of a run on w, one line each
// interval.
func startHeartbeat(w io.Writer, interval time.Duration) *heartbeat {
	h := &heartbeat{start: time.Now(), stop: make(chan struct{}), ended: make(chan struct{})}
	go func() {
		defer close(h.ended)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-h.stop:
				return
			case <-t.C:
				h.mu.Lock()
				done, total, doing := h.done, h.total, h.doing
				h.mu.Unlock()
				if doing != "" {
					doing = "; " + doing
				}
				fmt.Fprintf(w, "dbverify: still working after %s: %d of %s result(s) decided (--progress lists them)%s\n",
					time.Since(h.start).Round(time.Second), done, totalText(total), doing)
			}
		}
	}()
	return h
}

func totalText(total int) string {
	if total == 0 {
		return "?" // still loading
	}
	return fmt.Sprint(total)
}

// progress is the pipeline's Progress: it counts.
func (h *heartbeat) progress(done, total int, _ *report.Result) {
	h.mu.Lock()
	h.done, h.total = done, total
	h.mu.Unlock()
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
