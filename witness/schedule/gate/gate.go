package gate

import (
	"fmt"
	"math/rand"
	"sort"
	"sync"
	"time"
)

// Op is one database operation a request asks to run.
type Op struct {
	// Kind is begin, exec, select, commit or rollback.
	Kind string
	SQL  string
	Args []string
}

// OpRecord is one operation of a request: asked for, granted, returned.
type OpRecord struct {
	// Index is the operation's number within its request, from 1.
	Index int      `json:"step"`
	Kind  string   `json:"op"`
	SQL   string   `json:"sql,omitempty"`
	Args  []string `json:"args,omitempty"`
	// Granted is the operation's place in the global order, from 1 (0:
	// never granted).
	Granted int    `json:"granted"`
	Err     string `json:"err,omitempty"`
	// Blocked: the operation (or the reading of its rows) waited in the
	// database (a row lock) when granted, and the schedule went on with
	// another request.
	Blocked bool `json:"blocked,omitempty"`
	// Fail: the schedule's step makes the statement fail (Step.Fail);
	// set before the operation is granted.
	Fail bool `json:"fail,omitempty"`

	parked, running, exited bool
}

// StepRecord is what one step of a given schedule did.
type StepRecord struct {
	Request string `json:"request"`
	Step    int    `json:"step"`
	// Granted is the step's place in the global order (0: not granted).
	Granted int  `json:"granted"`
	Blocked bool `json:"blocked,omitempty"`
	// Problem says why the step could not be granted as written ("":
	// it was).
	Problem string `json:"problem,omitempty"`
}

// Step is one step of a schedule: the Step-th operation (from 1) of
// Request.
type Step struct {
	Request string
	Step    int
	// Fail: the statement fails instead of running (the counterexample
	// makes it fail); the runtime sends one the server refuses.
	Fail bool
}

// Timing bounds the scheduler's waits.
type Timing struct {
	// Short is how long a granted operation may take before the
	// scheduler asks whether it waits in the database.
	Short time.Duration
	// Long is how long the scheduler waits for a request to reach an
	// operation (or for a blocked one to be confirmed) before it gives up.
	Long time.Duration
	// Settle is how long no operation must arrive before a step of a given
	// schedule is granted: the goroutines of one request number their
	// operations in the order they arrive, which then does not depend on
	// how fast a goroutine starts.
	Settle time.Duration
}

// Gate lets each request's database operations run only when a schedule
// grants them. Requests call Enter before an operation and Exit after it;
// Done when they return. One scheduler (RunSteps, then Drain, or
// RunRandom) grants the operations.
type Gate struct {
	mu     sync.Mutex
	cond   *sync.Cond
	lanes  map[string]*lane
	grants int
	// lastEnter is when an operation last arrived; quietTicks counts the
	// scheduler's ticks since (a tick lost while the process did not run
	// does not count, so a busy machine does not shorten Settle).
	lastEnter  time.Time
	quietTicks int
	timing     Timing
	// waitsInDB reports whether some session of the run waits for a lock
	// in the database; nil: the time a granted operation takes decides.
	waitsInDB func() bool
}

// lane is one request's operations.
type lane struct {
	name string
	ops  []*OpRecord
	done bool
	err  string
}

// New makes a gate for the named requests.
func New(requests []string, t Timing, waitsInDB func() bool) *Gate {
	g := &Gate{lanes: map[string]*lane{}, timing: t, waitsInDB: waitsInDB}
	g.cond = sync.NewCond(&g.mu)
	for _, r := range requests {
		g.lanes[r] = &lane{name: r}
	}
	return g
}

// Enter blocks the request's next operation until the scheduler grants
// it; it returns the operation's record, which Exit completes.
func (g *Gate) Enter(request string, op Op) *OpRecord {
	g.mu.Lock()
	defer g.mu.Unlock()
	l := g.lanes[request]
	if l == nil {
		l = &lane{name: request}
		g.lanes[request] = l
	}
	rec := &OpRecord{Index: len(l.ops) + 1, Kind: op.Kind, SQL: op.SQL, Args: op.Args, parked: true}
	l.ops = append(l.ops, rec)
	g.lastEnter, g.quietTicks = time.Now(), 0
	g.cond.Broadcast()
	for rec.parked {
		g.cond.Wait()
	}
	return rec
}

// Exit records the end of a granted operation.
func (g *Gate) Exit(rec *OpRecord, err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	rec.running, rec.exited = false, true
	if err != nil {
		rec.Err = err.Error()
	}
	g.cond.Broadcast()
}

// Done records that the request returned, with its error.
func (g *Gate) Done(request string, err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	l := g.lanes[request]
	l.done = true
	if err != nil {
		l.err = err.Error()
	}
	g.cond.Broadcast()
}

// Ops returns a copy of the request's operations.
func (g *Gate) Ops(request string) []OpRecord {
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []OpRecord
	if l := g.lanes[request]; l != nil {
		for _, o := range l.ops {
			out = append(out, *o)
		}
	}
	return out
}

// tickEvery is the period of the scheduler's ticks.
const tickEvery = 2 * time.Millisecond

// settled (g.mu held) reports whether no operation has arrived for
// Settle: that long since the last, and as many ticks observed.
func (g *Gate) settled() bool {
	return time.Since(g.lastEnter) >= g.timing.Settle && time.Duration(g.quietTicks)*tickEvery >= g.timing.Settle
}

// tick wakes the scheduler's waits regularly, until stop is closed.
func (g *Gate) tick(stop chan struct{}) {
	t := time.NewTicker(tickEvery)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			g.mu.Lock()
			g.quietTicks++
			g.cond.Broadcast()
			g.mu.Unlock()
		}
	}
}

// waitFor waits (g.mu held) until pred holds or d passes.
func (g *Gate) waitFor(pred func() bool, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for !pred() {
		if time.Now().After(deadline) {
			return false
		}
		g.cond.Wait()
	}
	return true
}

// grant (g.mu held) lets rec run and waits until its request moves on:
// it parks at a later operation, returns, or the operation waits in the
// database. It reports whether the operation was found blocked.
func (g *Gate) grant(l *lane, rec *OpRecord) (blocked bool, problem string) {
	g.grants++
	rec.Granted = g.grants
	rec.parked, rec.running = false, true
	g.cond.Broadcast()
	moved := func() bool {
		if !rec.exited {
			return false
		}
		return l.done || l.parkedAfter(rec.Index)
	}
	deadline := time.Now().Add(g.timing.Long)
	for {
		if g.waitFor(moved, g.timing.Short) {
			return false, ""
		}
		if g.confirmWait() {
			rec.Blocked = true
			return true, ""
		}
		if time.Now().After(deadline) {
			rec.Blocked = true
			return true, fmt.Sprintf("%s's operation %d neither returned nor waited for a lock within %s", l.name, rec.Index, g.timing.Long)
		}
	}
}

// confirmWait (g.mu held) asks the database whether a session waits for
// a lock, with the gate unlocked meanwhile.
func (g *Gate) confirmWait() bool {
	if g.waitsInDB == nil {
		return true
	}
	g.mu.Unlock()
	w := g.waitsInDB()
	g.mu.Lock()
	return w
}

// parkedAfter reports whether an operation after index i waits for a
// grant.
func (l *lane) parkedAfter(i int) bool {
	for _, o := range l.ops[i:] {
		if o.parked {
			return true
		}
	}
	return false
}

// firstParked is the lane's earliest operation waiting for a grant.
func (l *lane) firstParked() *OpRecord {
	for _, o := range l.ops {
		if o.parked {
			return o
		}
	}
	return nil
}

// busy reports whether the lane still runs: it has not returned, or an
// operation is granted and not finished.
func (l *lane) busy() bool {
	if !l.done {
		return true
	}
	for _, o := range l.ops {
		if o.parked || o.running {
			return true
		}
	}
	return false
}

// RunSteps grants the operations in the order of steps. A step that cannot
// be granted as written (its request returned before, or never reaches
// that operation) is recorded with the problem and skipped.
func (g *Gate) RunSteps(steps []Step) []StepRecord {
	stop := make(chan struct{})
	defer close(stop)
	go g.tick(stop)
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []StepRecord
	for _, s := range steps {
		out = append(out, g.runStep(s))
	}
	return out
}

func (g *Gate) runStep(s Step) StepRecord {
	r := StepRecord{Request: s.Request, Step: s.Step}
	l := g.lanes[s.Request]
	if l == nil {
		r.Problem = "no request " + s.Request
		return r
	}
	var rec *OpRecord
	reached := func() bool {
		if len(l.ops) >= s.Step {
			rec = l.ops[s.Step-1]
			return true
		}
		return l.done && !l.busy()
	}
	if !g.waitFor(func() bool { return reached() && g.settled() }, g.timing.Long) {
		r.Problem = fmt.Sprintf("%s did not reach its operation %d within %s (it waits in the database or in Go code)", s.Request, s.Step, g.timing.Long)
		return r
	}
	switch {
	case rec == nil:
		r.Problem = fmt.Sprintf("%s returned after %d operations", s.Request, len(l.ops))
		return r
	case !rec.parked:
		r.Problem = fmt.Sprintf("%s's operation %d already ran", s.Request, s.Step)
		return r
	case l.firstParked() != rec:
		r.Problem = fmt.Sprintf("%s's operation %d waits behind an earlier one", s.Request, s.Step)
		return r
	}
	rec.Fail = s.Fail
	r.Blocked, r.Problem = g.grant(l, rec)
	r.Granted = rec.Granted
	return r
}

// Drain grants every remaining operation, one request after the other
// (the first in name order, then each until it returns or waits in the
// database), until all have returned or limit passes. It returns the
// problems met. With no steps before it, Drain runs the requests serially.
func (g *Gate) Drain(limit time.Duration) []string {
	return g.run(limit, func(parked []*lane, last *lane) *lane {
		for _, l := range parked {
			if l == last {
				return l
			}
		}
		return parked[0]
	})
}

// RunRandom grants the operations in a random order drawn from rng: at
// each step one of the requests waiting for a grant.
func (g *Gate) RunRandom(rng *rand.Rand, limit time.Duration) []string {
	return g.run(limit, func(parked []*lane, _ *lane) *lane { return parked[rng.Intn(len(parked))] })
}

func (g *Gate) run(limit time.Duration, pick func(parked []*lane, last *lane) *lane) []string {
	stop := make(chan struct{})
	defer close(stop)
	go g.tick(stop)
	g.mu.Lock()
	defer g.mu.Unlock()
	// Every request's first operation arrives before the first pick.
	g.waitFor(func() bool { return g.settled() && g.allStarted() }, g.timing.Long)
	var problems []string
	var last *lane
	deadline := time.Now().Add(limit)
	names := make([]string, 0, len(g.lanes))
	for n := range g.lanes {
		names = append(names, n)
	}
	sort.Strings(names)
	for {
		var parked []*lane
		busy := false
		for _, n := range names {
			l := g.lanes[n]
			if l.firstParked() != nil {
				parked = append(parked, l)
			}
			busy = busy || l.busy()
		}
		if !busy {
			// A goroutine of a returned request may still ask.
			g.waitFor(func() bool { return g.anyParked() }, 20*time.Millisecond)
			if !g.anyParked() {
				return problems
			}
			continue
		}
		if time.Now().After(deadline) {
			return append(problems, fmt.Sprintf("the requests did not finish within %s", limit))
		}
		if len(parked) == 0 {
			g.waitFor(func() bool { return g.anyParked() || !g.anyBusy() }, g.timing.Short)
			continue
		}
		l := pick(parked, last)
		last = l
		if _, p := g.grant(l, l.firstParked()); p != "" {
			problems = append(problems, p)
		}
	}
}

// allStarted reports whether every request has asked for an operation or
// returned.
func (g *Gate) allStarted() bool {
	for _, l := range g.lanes {
		if len(l.ops) == 0 && !l.done {
			return false
		}
	}
	return true
}

func (g *Gate) anyParked() bool {
	for _, l := range g.lanes {
		if l.firstParked() != nil {
			return true
		}
	}
	return false
}

func (g *Gate) anyBusy() bool {
	for _, l := range g.lanes {
		if l.busy() {
			return true
		}
	}
	return false
}

// Result is how a request ended.
func (g *Gate) Result(request string) (done bool, err string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	l := g.lanes[request]
	if l == nil {
		return false, ""
	}
	return l.done, l.err
}
