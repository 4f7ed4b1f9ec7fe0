package refine

import "github.com/dbverify/dbverify/ir"

// cutPoints returns the abstraction points of the error cone (locs,
// edges): Entry, Error and every loop head, the target of a back edge of
// a depth-first search from Entry. Every cycle of the cone passes through
// a loop head, so the region between cut points is loop-free.
func cutPoints(p *ir.Program, locs []bool, edges []*ir.Edge) []bool {
	cut := make([]bool, p.NumLocs)
	cut[p.Entry], cut[p.Error] = true, true
	out := make([][]*ir.Edge, p.NumLocs)
	for _, e := range edges {
		out[e.From] = append(out[e.From], e)
	}
	const (
		white = iota
		grey
		black
	)
	colour := make([]int, p.NumLocs)
	type frame struct {
		l ir.Loc
		i int
	}
	stack := []frame{{p.Entry, 0}}
	colour[p.Entry] = grey
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.i == len(out[f.l]) {
			colour[f.l] = black
			stack = stack[:len(stack)-1]
			continue
		}
		e := out[f.l][f.i]
		f.i++
		switch colour[e.To] {
		case grey:
			cut[e.To] = true // a back edge: e.To heads a loop
		case white:
			colour[e.To] = grey
			stack = append(stack, frame{e.To, 0})
		}
	}
	return cut
}

// successors returns, for the cut point c, the cut points reachable from
// c without crossing another cut point (each once, in discovery order).
func successors(p *ir.Program, out [][]*ir.Edge, cut []bool, c ir.Loc) []ir.Loc {
	seen := map[ir.Loc]bool{}
	found := map[ir.Loc]bool{}
	var succ []ir.Loc
	stack := []ir.Loc{c}
	seen[c] = true
	for len(stack) > 0 {
		l := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range out[l] {
			if cut[e.To] {
				if !found[e.To] {
					found[e.To] = true
					succ = append(succ, e.To)
				}
				continue
			}
			if !seen[e.To] {
				seen[e.To] = true
				stack = append(stack, e.To)
			}
		}
	}
	return succ
}

// unroll returns the loop-free program of the block path seq (cut points
// c0, c1, …, ck of p's cone): a copy of the region between c(i) and
// c(i+1), for each i, one after the other, with c0 as Entry and ck as
// Error, the statements shared with p. Its executions from Entry to Error
// are exactly p's executions from c0 to ck through the cut points of seq
// in order. bounds are the copies of c0…ck.
func unroll(p *ir.Program, out [][]*ir.Edge, cut []bool, seq []ir.Loc) (q *ir.Program, bounds []ir.Loc) {
	q = ir.NewProgram(p.Name)
	q.Pos, q.Vars, q.Inputs, q.Strings = p.Pos, p.Vars, p.Inputs, p.Strings
	q.Assumptions, q.Unsupported = p.Assumptions, p.Unsupported
	bounds = append(bounds, q.Entry)
	for i := 0; i+1 < len(seq); i++ {
		from, to := seq[i], seq[i+1]
		start := bounds[len(bounds)-1]
		end := q.Error
		if i+2 < len(seq) {
			end = q.NewLoc()
		}
		bounds = append(bounds, end)
		local := map[ir.Loc]ir.Loc{}
		copyOf := func(l ir.Loc) ir.Loc {
			if c, ok := local[l]; ok {
				return c
			}
			c := q.NewLoc()
			local[l] = c
			return c
		}
		stack := []ir.Loc{from}
		seen := map[ir.Loc]bool{from: true}
		for len(stack) > 0 {
			l := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			src := start
			if l != from {
				src = copyOf(l)
			}
			for _, e := range out[l] {
				switch {
				case e.To == to:
					q.AddEdge(src, end, e.Stmt)
				case cut[e.To]:
					// another cut point: not this block
				default:
					q.AddEdge(src, copyOf(e.To), e.Stmt)
					if !seen[e.To] {
						seen[e.To] = true
						stack = append(stack, e.To)
					}
				}
			}
		}
	}
	return q, bounds
}
