package frontend

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// The content of a memory cell that holds an object (a slice, a map, a
// pointer, an interface) is flow-insensitive: a load returns what the
// stores translated so far left in it (memory.go). The blocks of a
// function are translated in reverse postorder, so around a loop a load
// can be translated before a store that reaches it at run time: in
//
//	p := Params{Items: []Item{}}
//	for _, it := range req { p.Items = append(p.Items, it) }
//	for _, it := range p.Items { … }
//
// the loop's exit (reading p.Items) comes before its body (storing the
// appended slice), and the second loop read the literal's length 0 — no
// iteration, a wrong SAFE (adv13 m3). Every load of such a cell records
// where it was translated; a store of a different object that may reach
// an earlier load around a loop makes the entry unsupported (UNKNOWN,
// naming both positions), since the value that load returned has already
// been used.

// A site is where the translation was: the frame of each inlined call,
// outermost first, with the block each was in.
type site struct {
	frames []*frame
	blocks []*ssa.BasicBlock
	pos    token.Pos
}

// here is the current site.
func (t *translator) here() site {
	s := site{frames: append([]*frame(nil), t.frames...), blocks: make([]*ssa.BasicBlock, len(t.frames)), pos: t.pos}
	for i, f := range t.frames {
		s.blocks[i] = f.block
	}
	return s
}

// noteLoad records a load of c's object content here.
func (t *translator) noteLoad(c *cell) {
	if len(t.frames) > 0 {
		c.loads = append(c.loads, t.here())
	}
}

// loadReached returns an earlier load of c that a store here may reach
// at run time: in the innermost function both are in, the store's block
// reaches the load's block (the same block if it lies on a cycle).
func (t *translator) loadReached(c *cell) (site, bool) {
	if len(c.loads) == 0 || len(t.frames) == 0 {
		return site{}, false
	}
	s := t.here()
	for _, l := range c.loads {
		k := -1
		for i := 0; i < len(s.frames) && i < len(l.frames) && s.frames[i] == l.frames[i]; i++ {
			k = i
		}
		if k < 0 {
			continue
		}
		from, to := s.blocks[k], l.blocks[k]
		if from == nil || to == nil {
			// Code after the function's blocks (deferred calls, the
			// unwinding): it runs once, after every block.
			continue
		}
		if t.reaches(from, to) {
			return l, true
		}
	}
	return site{}, false
}

// reaches reports whether a path of one or more edges leads from a to b
// in their function's control flow graph.
func (t *translator) reaches(a, b *ssa.BasicBlock) bool {
	if t.reach == nil {
		t.reach = map[*ssa.BasicBlock]map[*ssa.BasicBlock]bool{}
	}
	r, ok := t.reach[a]
	if !ok {
		r = map[*ssa.BasicBlock]bool{}
		work := append([]*ssa.BasicBlock(nil), a.Succs...)
		for len(work) > 0 {
			x := work[len(work)-1]
			work = work[:len(work)-1]
			if r[x] {
				continue
			}
			r[x] = true
			work = append(work, x.Succs...)
		}
		t.reach[a] = r
	}
	return r[b]
}
