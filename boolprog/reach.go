package boolprog

import (
	"errors"
	"fmt"
	"time"
)

// Reach searches the abstract state space from Entry (every variable
// unknown) for Error. It returns a shortest trace, or nil if Error is
// unreachable. It always terminates: the state space is finite.
//
// The search is a breadth-first worklist fixpoint over pairs (location,
// abstract state), with a visited set per location. An abstract state is a
// vector of Values; Top stands for "either value, independently", so one
// abstract state represents every completion of its Top variables. The
// successors of a state along an edge are exact (their completions are
// exactly the concrete successors of its completions):
//
//   - Skip keeps the state.
//   - Assume(c) keeps the completions where c holds. If c's value depends on
//     Top variables, the state is split (Shannon expansion) on one of them at
//     a time, only as far as needed to decide c; variables that do not
//     matter stay Top.
//   - Assign splits likewise until every Pos and Neg expression is decided,
//     then drops the completion if some choose has both Pos and Neg true,
//     and otherwise sets each assigned variable to 1, 0 or Top (for '*').
//
// Each successor is then projected onto the variables live at its location
// (LiveVars): dead variables are set to Top. This is exact for reachability
// and keeps programs made of many independent branches polynomial. Edges
// into locations from which Error is unreachable in the CFG are not
// followed.
func Reach(p *Program) (*Trace, Stats) {
	t, st, _ := ReachWithin(p, Limits{})
	return t, st
}

// Limits bound a search; zero fields mean no bound.
type Limits struct {
	MaxStates int
	Deadline  time.Time
}

// ErrLimit is returned by ReachWithin when a limit stops the search.
var ErrLimit = errors.New("boolprog: search limit reached")

// ReachWithin is Reach with limits: when the search explores more than
// lim.MaxStates states or passes lim.Deadline it stops and returns an
// error wrapping ErrLimit (the answer is then unknown).
func ReachWithin(p *Program, lim Limits) (*Trace, Stats, error) {
	c := newChecker(p)
	c.add(p.Entry, -1, nil, make([]Value, c.n))
	cur := make([]Value, c.n)
	for i := 0; i < len(c.nodes) && c.found < 0; i++ {
		if lim.MaxStates > 0 && len(c.nodes) > lim.MaxStates {
			return nil, Stats{States: len(c.nodes)}, fmt.Errorf("%w: abstract state limit %d reached", ErrLimit, lim.MaxStates)
		}
		if !lim.Deadline.IsZero() && i%1024 == 0 && time.Now().After(lim.Deadline) {
			return nil, Stats{States: len(c.nodes)}, fmt.Errorf("%w: time limit after %d abstract states", ErrLimit, len(c.nodes))
		}
		nd := c.nodes[i]
		if nd.loc == p.Error {
			break // only when Entry == Error
		}
		c.decode(nd.key, cur)
		for _, e := range c.out[nd.loc] {
			if !c.relevant[e.To] {
				continue
			}
			c.to, c.parent, c.edge = e.To, i, e
			c.post(e.Stmt, cur)
			if c.found >= 0 {
				break
			}
		}
	}
	st := Stats{States: len(c.nodes)}
	if c.found < 0 {
		return nil, st, nil
	}
	return c.trace(c.found), st, nil
}

// splitBudget bounds the completions one statement may split a state into;
// past it, undecided conditions and values stay Top (sound: more states,
// never fewer).
const splitBudget = 1 << 12

// node is one explored (location, state) pair with its BFS parent.
type node struct {
	loc, parent int
	edge        *Edge // from the parent's location to loc
	key         string
}

type checker struct {
	budget   int // splits left for the statement being applied
	p        *Program
	n        int // number of variables
	out      [][]*Edge
	relevant []bool  // location reaches Error in the CFG
	dead     [][]int // variables not live at each location
	visited  []map[string]int
	nodes    []node
	found    int // index of the first node at Error, or -1

	// the edge being expanded
	to, parent int
	edge       *Edge

	proj []Value // scratch: projected successor
	tmp  []Value // scratch: successor of an assignment
	buf  []byte  // scratch: encoded key
}

func newChecker(p *Program) *checker {
	n, nlocs := p.NumVars(), p.numLocs()
	c := &checker{
		p:        p,
		n:        n,
		out:      p.outEdges(),
		relevant: coReach(p, nlocs),
		dead:     make([][]int, nlocs),
		visited:  make([]map[string]int, nlocs),
		found:    -1,
		proj:     make([]Value, n),
		tmp:      make([]Value, n),
		buf:      make([]byte, (n+3)/4),
	}
	live := liveVars(p, n, nlocs, c.relevant)
	for l := range nlocs {
		for v := range n {
			if !live[l].has(v) {
				c.dead[l] = append(c.dead[l], v)
			}
		}
	}
	return c
}

// encode packs a state, two bits per variable, into c.buf.
func (c *checker) encode(s []Value) []byte {
	clear(c.buf)
	for i, v := range s {
		c.buf[i/4] |= byte(v) << (2 * uint(i%4))
	}
	return c.buf
}

func (c *checker) decode(key string, s []Value) {
	for i := range s {
		s[i] = Value(key[i/4]>>(2*uint(i%4))) & 3
	}
}

// add projects s onto the variables live at loc and stores it unless it
// was seen there already.
func (c *checker) add(loc, parent int, e *Edge, s []Value) {
	copy(c.proj, s)
	for _, v := range c.dead[loc] {
		c.proj[v] = Top
	}
	b := c.encode(c.proj)
	m := c.visited[loc]
	if m == nil {
		m = make(map[string]int)
		c.visited[loc] = m
	}
	if _, ok := m[string(b)]; ok {
		return
	}
	key := string(b)
	m[key] = len(c.nodes)
	c.nodes = append(c.nodes, node{loc: loc, parent: parent, edge: e, key: key})
	if loc == c.p.Error && c.found < 0 {
		c.found = len(c.nodes) - 1
	}
}

// emit records a successor along the edge being expanded.
func (c *checker) emit(s []Value) {
	if c.found < 0 {
		c.add(c.to, c.parent, c.edge, s)
	}
}

// post emits the successors of s (which it may modify temporarily) under st.
func (c *checker) post(st Stmt, s []Value) {
	c.budget = splitBudget
	switch st := st.(type) {
	case nil, Skip, *Skip:
		c.emit(s)
	case *Assume:
		c.assume(st.Cond, s)
	case *Assign:
		if len(st.Vars) != len(st.Values) {
			panic(fmt.Sprintf("boolprog: assignment of %d values to %d variables", len(st.Values), len(st.Vars)))
		}
		c.assign(st, s)
	default:
		panic(fmt.Sprintf("boolprog: unknown statement %T", st))
	}
}

// assume emits the parts of s where cond holds, splitting on Top
// variables only while cond is undecided.
func (c *checker) assume(cond Expr, s []Value) {
	v, sp := eval(cond, s, True)
	switch v {
	case True:
		c.emit(s)
	case Top:
		if c.budget <= 0 {
			// Too many completions: keep the state unfiltered (an
			// over-approximation, so still sound).
			c.emit(s)
			return
		}
		c.budget--
		s[sp] = True
		c.assume(cond, s)
		s[sp] = False
		c.assume(cond, s)
		s[sp] = Top
	}
}

// assign emits the successors of s under a parallel assignment, splitting
// on Top variables until every right-hand side is decided.
func (c *checker) assign(a *Assign, s []Value) {
	split := -1
	for _, ch := range a.Values {
		pv, ps := eval(ch.Pos, s, False)
		nv, ns := eval(ch.Neg, s, False)
		if pv == True && nv == True {
			return // inconsistent in every completion
		}
		if split < 0 {
			if pv == Top {
				split = ps
			} else if nv == Top {
				split = ns
			}
		}
	}
	if split >= 0 && c.budget > 0 {
		c.budget--
		s[split] = True
		c.assign(a, s)
		s[split] = False
		c.assign(a, s)
		s[split] = Top
		return
	}
	t := c.tmp
	copy(t, s)
	for i, ch := range a.Values {
		pv, _ := eval(ch.Pos, s, False)
		nv, _ := eval(ch.Neg, s, False)
		switch {
		case pv == True:
			t[a.Vars[i]] = True
		case nv == True:
			t[a.Vars[i]] = False
		default:
			t[a.Vars[i]] = Top
		}
	}
	c.emit(t)
}

// trace rebuilds the path to node i.
func (c *checker) trace(i int) *Trace {
	var idx []int
	for ; i >= 0; i = c.nodes[i].parent {
		idx = append(idx, i)
	}
	tr := &Trace{}
	for k := len(idx) - 1; k >= 0; k-- {
		nd := c.nodes[idx[k]]
		s := make([]Value, c.n)
		c.decode(nd.key, s)
		tr.States = append(tr.States, s)
		if nd.edge != nil {
			tr.Edges = append(tr.Edges, nd.edge)
		}
	}
	return tr
}
