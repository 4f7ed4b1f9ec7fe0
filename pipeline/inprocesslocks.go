package pipeline

import (
	"fmt"

	"github.com/dbverify/dbverify/interleave"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/report"
)

// noteInProcessLocks adds to r's concurrent counterexample, of requests
// running progs (A, B, …), a note for each in-process lock (sync.Mutex,
// sync.RWMutex) that two of them take exclusively. The model does not
// let such a lock order the requests: two instances of the service (or
// two processes) do not share it, and the verdict stands for them. A
// user whose service runs as one process must know that the schedule
// needs two where both requests hold the lock at once (adv19
// probe/mutex: the schedule interleaved two requests inside the locked
// region with no word).
func noteInProcessLocks(r *report.Result, progs ...*ir.Program) {
	c := r.Counterexample
	if c == nil {
		return
	}
	type taken struct {
		lock ir.InProcessLock
		reqs []string
	}
	var order []string
	byKey := map[string]*taken{}
	for i, p := range progs {
		req := interleave.RequestName(i)
		for _, l := range p.InProcessLocks {
			t := byKey[l.Key]
			if t == nil {
				t = &taken{lock: l}
				byKey[l.Key] = t
				order = append(order, l.Key)
			}
			if !l.Read {
				t.lock.Read = false
			}
			if n := len(t.reqs); n == 0 || t.reqs[n-1] != req {
				t.reqs = append(t.reqs, req)
			}
		}
	}
	for _, k := range order {
		t := byKey[k]
		if len(t.reqs) < 2 || t.lock.Read {
			continue
		}
		c.Notes = append(c.Notes, fmt.Sprintf("in-process lock %s (%s, locked at %s) is not a database lock: two instances of the service (or two processes) do not share it, so this schedule needs two of them wherever it runs requests %s and %s together inside the locked region; a service that runs as one process cannot interleave them there",
			t.lock.Name, t.lock.Type, t.lock.Position, t.reqs[0], t.reqs[1]))
	}
}
