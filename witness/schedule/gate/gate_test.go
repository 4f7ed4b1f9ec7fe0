package gate

import (
	"fmt"
	"math/rand"
	"strings"
	"sync"
	"testing"
	"time"
)

var testTiming = Timing{Short: 20 * time.Millisecond, Long: 2 * time.Second, Settle: 10 * time.Millisecond}

// trace records the order in which operations really ran.
type trace struct {
	mu  sync.Mutex
	ran []string
}

func (t *trace) add(s string) {
	t.mu.Lock()
	t.ran = append(t.ran, s)
	t.mu.Unlock()
}

// request runs n operations through g, each recording its name; op k of
// request r runs body(k) while granted.
func request(g *Gate, tr *trace, r string, n int, body func(k int), wg *sync.WaitGroup) {
	defer wg.Done()
	for k := 1; k <= n; k++ {
		rec := g.Enter(r, Op{Kind: "exec", SQL: fmt.Sprintf("op %d", k)})
		tr.add(fmt.Sprintf("%s%d", r, k))
		if body != nil {
			body(k)
		}
		g.Exit(rec, nil)
	}
	g.Done(r, nil)
}

func TestRunStepsOrder(t *testing.T) {
	tests := []struct {
		steps []Step
		want  string
	}{
		{[]Step{{Request: "A", Step: 1}, {Request: "B", Step: 1}, {Request: "A", Step: 2}, {Request: "B", Step: 2}}, "A1 B1 A2 B2"},
		{[]Step{{Request: "B", Step: 1}, {Request: "B", Step: 2}, {Request: "A", Step: 1}, {Request: "A", Step: 2}}, "B1 B2 A1 A2"},
		// Steps left out run after the schedule, one request after the
		// other, the first in name order.
		{[]Step{{Request: "B", Step: 1}}, "B1 A1 A2 B2"},
		{nil, "A1 A2 B1 B2"},
		{[]Step{{Request: "A", Step: 1}, {Request: "B", Step: 1}}, "A1 B1 A2 B2"},
	}
	for _, tc := range tests {
		g := New([]string{"A", "B"}, testTiming, nil)
		tr := &trace{}
		var wg sync.WaitGroup
		wg.Add(2)
		go request(g, tr, "A", 2, nil, &wg)
		go request(g, tr, "B", 2, nil, &wg)
		recs := g.RunSteps(tc.steps)
		if p := g.Drain(5 * time.Second); len(p) > 0 {
			t.Fatalf("drain: %v", p)
		}
		wg.Wait()
		for _, r := range recs {
			if r.Problem != "" || r.Blocked {
				t.Errorf("%v: step %+v", tc.steps, r)
			}
		}
		if got := strings.Join(tr.ran, " "); got != tc.want {
			t.Errorf("%v: ran %s, want %s", tc.steps, got, tc.want)
		}
	}
}

// TestBlockedStep: A's second operation waits for a lock B holds until
// its second operation; the schedule A1 B1 A2 B2 marks A2 blocked and
// goes on with B2, which releases A.
func TestBlockedStep(t *testing.T) {
	g := New([]string{"A", "B"}, testTiming, func() bool { return true })
	tr := &trace{}
	lock := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(2)
	go request(g, tr, "A", 2, func(k int) {
		if k == 2 {
			<-lock
		}
	}, &wg)
	go request(g, tr, "B", 2, func(k int) {
		if k == 2 {
			close(lock)
		}
	}, &wg)
	recs := g.RunSteps([]Step{{Request: "A", Step: 1}, {Request: "B", Step: 1}, {Request: "A", Step: 2}, {Request: "B", Step: 2}})
	g.Drain(5 * time.Second)
	wg.Wait()
	if !recs[2].Blocked || recs[2].Problem != "" {
		t.Errorf("A2: %+v, want blocked", recs[2])
	}
	if recs[3].Blocked || recs[3].Problem != "" || recs[3].Granted != 4 {
		t.Errorf("B2: %+v, want granted fourth", recs[3])
	}
	ops := g.Ops("A")
	if len(ops) != 2 || !ops[1].Blocked {
		t.Errorf("A's ops %+v: want the second blocked", ops)
	}
}

// TestStepProblems: a step of a request that already returned, and one
// out of order, are reported, not granted.
func TestStepProblems(t *testing.T) {
	g := New([]string{"A"}, testTiming, nil)
	tr := &trace{}
	var wg sync.WaitGroup
	wg.Add(1)
	go request(g, tr, "A", 1, nil, &wg)
	recs := g.RunSteps([]Step{{Request: "A", Step: 1}, {Request: "A", Step: 1}, {Request: "A", Step: 2}, {Request: "C", Step: 1}})
	wg.Wait()
	want := []string{"", "already ran", "returned after 1 operations", "no request C"}
	for i, w := range want {
		if (w == "") != (recs[i].Problem == "") || !strings.Contains(recs[i].Problem, w) {
			t.Errorf("step %d: problem %q, want %q", i, recs[i].Problem, w)
		}
	}
}

// TestRunRandom: every operation of three requests runs once, each
// request's in its own order, whatever the random order.
func TestRunRandom(t *testing.T) {
	for seed := int64(0); seed < 5; seed++ {
		g := New([]string{"A", "B", "C"}, testTiming, nil)
		tr := &trace{}
		var wg sync.WaitGroup
		wg.Add(3)
		for _, r := range []string{"A", "B", "C"} {
			go request(g, tr, r, 3, nil, &wg)
		}
		if p := g.RunRandom(rand.New(rand.NewSource(seed)), 5*time.Second); len(p) > 0 {
			t.Fatalf("seed %d: %v", seed, p)
		}
		wg.Wait()
		next := map[byte]int{}
		for _, s := range tr.ran {
			next[s[0]]++
			if want := fmt.Sprintf("%c%d", s[0], next[s[0]]); s != want {
				t.Errorf("seed %d: ran %s, want %s", seed, s, want)
			}
		}
		if len(tr.ran) != 9 {
			t.Errorf("seed %d: ran %v", seed, tr.ran)
		}
	}
}

// TestSettleGoroutines: two goroutines of one request, one starting late;
// with Settle, the late goroutine's first operation still arrives before
// the step that would otherwise grant the early one's second.
func TestSettleGoroutines(t *testing.T) {
	timing := testTiming
	timing.Settle = 30 * time.Millisecond
	g := New([]string{"A"}, timing, nil)
	var wg sync.WaitGroup
	worker := func(name string, delay time.Duration) {
		defer wg.Done()
		time.Sleep(delay)
		for k := 1; k <= 2; k++ {
			rec := g.Enter("A", Op{Kind: "exec", SQL: fmt.Sprintf("%s op %d", name, k)})
			g.Exit(rec, nil)
		}
	}
	wg.Add(2)
	go worker("early", 0)
	go worker("late", 10*time.Millisecond)
	go func() { wg.Wait(); g.Done("A", nil) }()
	g.RunSteps([]Step{{Request: "A", Step: 1}, {Request: "A", Step: 2}, {Request: "A", Step: 3}, {Request: "A", Step: 4}})
	g.Drain(5 * time.Second)
	var got []string
	for _, o := range g.Ops("A") {
		got = append(got, o.SQL)
	}
	want := "early op 1,late op 1"
	if s := strings.Join(got[:2], ","); s != want {
		t.Errorf("first two operations %s, want %s", s, want)
	}
}
