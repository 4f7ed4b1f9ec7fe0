package interleave

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dbverify/dbverify/ir"
)

// RequestName is the name of the i-th request of a product: "A", "B", ….
func RequestName(i int) string { return string(rune('A' + i)) }

// ArgName is the name (before the request prefix and a uniqueness
// suffix) of the variable that records the value bound to placeholder n
// (from 1) of a database operation in a product: the trace shows it on
// the operation's step.
func ArgName(n int) string { return fmt.Sprintf("arg%d", n) }

// Product returns the program whose executions are the interleavings of
// the requests progs (see the package comment). Its inputs are every
// request's inputs, in order; its name joins theirs with " ∥ ".
func Product(progs ...*ir.Program) (*ir.Program, error) {
	r, err := Build(Options{}, progs...)
	if err != nil {
		return nil, err
	}
	return r.Prog, nil
}

// Options select the product Build makes.
type Options struct {
	// Reduce keeps one order of adjacent independent operations of
	// different requests (see reduce.go).
	Reduce bool
	// Related maps a lower-case table to the tables a write to it may
	// also read or write (foreign keys and their actions); nil: none.
	Related func(table string) []string
	// Snapshots: the model takes a transaction's snapshot at its first
	// statement (first-updater-wins), so any statement on a transaction
	// may read every table's committed state.
	Snapshots bool
}

// Built is a product with its size.
type Built struct {
	Prog *ir.Program
	Size Size
}

// Build returns the product of progs, reduced when opts say so, and its
// size.
func Build(opts Options, progs ...*ir.Program) (*Built, error) {
	out, reqs, err := newProduct(progs)
	if err != nil {
		return nil, err
	}
	b := &builder{out: out, reqs: reqs, locs: map[string]ir.Loc{}, stuck: map[ir.Loc]bool{}}
	if opts.Reduce {
		if len(progs) > 32 {
			return nil, errors.New("interleave: a reduced product has at most 32 requests")
		}
		for _, p := range progs {
			b.fps = append(b.fps, newFootprints(p, opts.Related, opts.Snapshots))
		}
	}
	start := pstate{locs: make([]ir.Loc, len(progs))}
	for i, p := range progs {
		start.locs[i] = p.Entry
	}
	b.locs[start.key()] = out.Entry
	b.work = append(b.work, start)
	for len(b.work) > 0 {
		s := b.work[len(b.work)-1]
		b.work = b.work[:len(b.work)-1]
		b.expand(s)
	}
	if err := ir.Sanity(out); err != nil {
		return nil, fmt.Errorf("interleave: product of %s: %w", out.Name, err)
	}
	return &Built{Prog: out, Size: measure(out, b.stuck)}, nil
}

// newProduct starts the product of progs: the program with every
// request's variables, inputs, strings, unsupported constructs and
// assumptions, and no edges.
func newProduct(progs []*ir.Program) (*ir.Program, []*request, error) {
	if len(progs) < 2 || len(progs) > 26 {
		return nil, nil, errors.New("interleave: a product needs 2 to 26 programs")
	}
	var names []string
	for _, p := range progs {
		names = append(names, p.Name)
	}
	out := ir.NewProgram(strings.Join(names, " ∥ "))
	out.Pos = progs[0].Pos
	out.Strings = map[string]string{}
	var reqs []*request
	var off ir.Tx
	for i, p := range progs {
		q := newRequest(out, RequestName(i), p, off)
		off += maxTx(p)
		reqs = append(reqs, q)
		for _, v := range p.Inputs {
			out.Inputs = append(out.Inputs, q.v(v))
		}
		for k, s := range p.Strings {
			out.Strings[k] = s
		}
		for _, u := range p.Unsupported {
			out.Unsupport(u.What, q.info(u.Info))
		}
		for _, a := range p.Assumptions {
			out.Assume(a)
		}
	}
	return out, reqs, nil
}

// builder explores the reachable tuples of request locations.
type builder struct {
	out  *ir.Program
	reqs []*request
	locs map[string]ir.Loc
	work []pstate
	// fps are the requests' footprints (nil: no reduction).
	fps []*footprints
	// stuck are the product locations whose every move the reduction
	// dropped (their executions are kept in another order).
	stuck map[ir.Loc]bool
}

// pstate is a tuple of request locations and the requests whose next
// operation the reduction defers (bit i: request i).
type pstate struct {
	locs  []ir.Loc
	sleep uint32
}

func (s pstate) key() string { return fmt.Sprintf("%s|%d", key(s.locs), s.sleep) }

func key(s []ir.Loc) string {
	var b strings.Builder
	for _, l := range s {
		fmt.Fprintf(&b, "%d,", l)
	}
	return b.String()
}

// ended reports whether request i has finished at l.
func (b *builder) ended(i int, l ir.Loc) bool {
	p := b.reqs[i].src
	return l == p.Exit || l == p.Error || len(p.Out[l]) == 0
}

// parked reports whether request i at l waits to be scheduled: it has
// ended or stands before a database operation.
func (b *builder) parked(i int, l ir.Loc) bool {
	if b.ended(i, l) {
		return true
	}
	for _, e := range b.reqs[i].src.Out[l] {
		if IsDBOp(e.Stmt) {
			return true
		}
	}
	return false
}

// loc returns the product location of state s, queueing it when new.
func (b *builder) loc(s pstate) ir.Loc {
	for i, l := range s.locs {
		if l == b.reqs[i].src.Error {
			return b.out.Error
		}
	}
	done := true
	for i, l := range s.locs {
		done = done && l == b.reqs[i].src.Exit
	}
	if done {
		return b.out.Exit
	}
	k := s.key()
	if l, ok := b.locs[k]; ok {
		return l
	}
	l := b.out.NewLoc()
	b.locs[k] = l
	b.work = append(b.work, s)
	return l
}

// expand adds the product edges out of state s: the running request's
// edges, or, where every request is parked, each request's next
// operation (but a deferred request's).
func (b *builder) expand(s pstate) {
	from := b.loc(s)
	if from == b.out.Exit || from == b.out.Error {
		return
	}
	movers := []int{}
	for i, l := range s.locs {
		if !b.parked(i, l) {
			movers = []int{i}
			break
		}
	}
	if len(movers) == 0 {
		for i, l := range s.locs {
			if !b.ended(i, l) {
				movers = append(movers, i)
			}
		}
	}
	added := 0
	for _, i := range movers {
		for _, e := range b.reqs[i].src.Out[s.locs[i]] {
			next := pstate{locs: append([]ir.Loc(nil), s.locs...), sleep: s.sleep}
			next.locs[i] = e.To
			if IsDBOp(e.Stmt) {
				if s.sleep&(1<<i) != 0 {
					continue
				}
				next.sleep = b.sleepAfter(i, e.Stmt, s.locs)
			}
			b.step(from, b.reqs[i], e, b.loc(next))
			added++
		}
	}
	if added == 0 && len(movers) > 0 {
		b.stuck[from] = true
	}
}

// step adds request q's edge e from product location from to to; a
// database operation first records the values bound to its placeholders.
// The copies of one source edge share their statements (the row model
// keeps one symbol per SELECT statement, re-bound at each execution).
func (b *builder) step(from ir.Loc, q *request, e *ir.Edge, to ir.Loc) {
	c, ok := q.copies[e]
	if !ok {
		c = q.copy(b.out, e.Stmt)
		q.copies[e] = c
	}
	if c.args != nil {
		mid := b.out.NewLoc()
		b.out.AddEdge(from, mid, c.args)
		from = mid
	}
	b.out.AddEdge(from, to, c.stmt)
}

// copied is a request's copy of a source statement, with the assignment
// that records the values of its placeholders (nil: none).
type copied struct {
	stmt ir.Stmt
	args *ir.Assign
}

func (q *request) copy(out *ir.Program, s ir.Stmt) copied {
	c := copied{stmt: q.stmt(s)}
	var args []ir.Expr
	switch s := c.stmt.(type) {
	case *ir.Exec:
		args = s.Args
	case *ir.Select:
		args = s.Args
	}
	var lhs []*ir.Var
	var rhs []ir.Expr
	for n, a := range args {
		if a == nil {
			continue
		}
		arg := out.NewVar(q.name+"."+ArgName(n+1), a.Sort(), ir.Local)
		if x, ok := a.(*ir.Var); ok {
			arg.Str = x.Str // a string argument prints as the string
		}
		lhs = append(lhs, arg)
		rhs = append(rhs, a)
	}
	if len(lhs) > 0 {
		c.args = &ir.Assign{Lhs: lhs, Rhs: rhs, Info: c.stmt.Source()}
	}
	return c
}
