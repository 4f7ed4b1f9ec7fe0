package boolprog

import (
	"fmt"
	"testing"
)

func pathKey(es []*Edge) string {
	k := ""
	for _, e := range es {
		k += fmt.Sprintf("%d,", e.ID)
	}
	return k
}

func TestPathsDiamonds(t *testing.T) {
	for n := 1; n <= 10; n++ {
		p := diamonds(n, true)
		seen := map[string]bool{}
		complete := Paths(p, func(es []*Edge) bool {
			k := pathKey(es)
			if seen[k] {
				t.Fatalf("n=%d: path %s visited twice", n, k)
			}
			seen[k] = true
			loc := p.Entry
			for _, e := range es {
				if e.From != loc {
					t.Fatalf("n=%d: broken path %s", n, k)
				}
				loc = e.To
			}
			if loc != p.Error {
				t.Fatalf("n=%d: path %s ends at %d", n, k, loc)
			}
			return true
		}, 0)
		if !complete {
			t.Errorf("n=%d: incomplete", n)
		}
		if len(seen) != 1<<n {
			t.Errorf("n=%d: %d paths, want %d", n, len(seen), 1<<n)
		}
	}
}

func TestPathsLimit(t *testing.T) {
	p := diamonds(10, true)
	for _, tc := range []struct {
		limit, want int
		complete    bool
	}{
		{1, 1, false}, {100, 100, false}, {1023, 1023, false}, {1024, 1024, true}, {5000, 1024, true},
	} {
		count := 0
		complete := Paths(p, func([]*Edge) bool { count++; return true }, tc.limit)
		if count != tc.want || complete != tc.complete {
			t.Errorf("limit %d: %d paths, complete=%v; want %d, %v", tc.limit, count, complete, tc.want, tc.complete)
		}
	}
	// visit returning false stops at once.
	count := 0
	if Paths(p, func([]*Edge) bool { count++; return count < 7 }, 0) || count != 7 {
		t.Errorf("stop: %d paths", count)
	}
}

func TestPathsShortestFirstAndLoops(t *testing.T) {
	// Entry -> L3; L3 -> L3 (loop); L3 -> Error; L3 -> Exit.
	p := NewProgram("loop", []string{"a"})
	l := p.NewLoc()
	p.AddEdge(p.Entry, l, Skip{}, 0, "")
	p.AddEdge(l, l, &Assign{Vars: []int{0}, Values: []Choose{Star()}}, 1, "")
	p.AddEdge(l, p.Error, &Assume{Cond: Var(0)}, 2, "")
	p.AddEdge(l, p.Exit, Skip{}, 3, "")
	var lens []int
	complete := Paths(p, func(es []*Edge) bool { lens = append(lens, len(es)); return true }, 5)
	if complete {
		t.Error("a loop has infinitely many paths, but Paths says complete")
	}
	if fmt.Sprint(lens) != "[2 3 4 5 6]" {
		t.Errorf("path lengths %v, want [2 3 4 5 6]", lens)
	}
	// Loop whose first edge loops back: must not dive forever.
	q := NewProgram("loop2", nil)
	l = q.NewLoc()
	q.AddEdge(q.Entry, l, Skip{}, 0, "")
	q.AddEdge(l, q.Entry, Skip{}, 1, "")
	q.AddEdge(q.Entry, q.Error, Skip{}, 2, "")
	lens = nil
	Paths(q, func(es []*Edge) bool { lens = append(lens, len(es)); return true }, 3)
	if fmt.Sprint(lens) != "[1 3 5]" {
		t.Errorf("path lengths %v, want [1 3 5]", lens)
	}
	// Unreachable Error: no path, complete.
	r := NewProgram("none", nil)
	r.AddEdge(r.Entry, r.Exit, Skip{}, 0, "")
	if !Paths(r, func([]*Edge) bool { t.Error("visited a path"); return true }, 0) {
		t.Error("no paths: want complete")
	}
	// Paths of different lengths in a DAG come shortest first, and all of them.
	s := withdraw()
	lens = nil
	if !Paths(s, func(es []*Edge) bool { lens = append(lens, len(es)); return true }, 0) || fmt.Sprint(lens) != "[4]" {
		t.Errorf("withdraw: %v", lens)
	}
	d := NewProgram("dag", nil)
	a, b := d.NewLoc(), d.NewLoc()
	d.AddEdge(d.Entry, a, Skip{}, 0, "")
	d.AddEdge(a, b, Skip{}, 0, "")
	d.AddEdge(b, d.Error, Skip{}, 0, "")
	d.AddEdge(d.Entry, d.Error, Skip{}, 0, "")
	d.AddEdge(a, d.Error, Skip{}, 0, "")
	lens = nil
	if !Paths(d, func(es []*Edge) bool { lens = append(lens, len(es)); return true }, 0) || fmt.Sprint(lens) != "[1 2 3]" {
		t.Errorf("dag: %v", lens)
	}
}
