package interleave

import (
	"math"

	"github.com/dbverify/dbverify/ir"
)

// Size measures a product.
type Size struct {
	// States is the number of product locations (tuples of request
	// locations, with the reduction's deferred requests).
	States int `json:"states"`
	// Interleavings is the number of complete executions of the product's
	// control graph from its entry: the sequences of the requests'
	// database operations with the Go branches between them, each loop
	// entered once (its back edge not followed). Saturates at
	// math.MaxUint64.
	Interleavings uint64 `json:"interleavings"`
}

// measure returns the size of product p; stuck are the locations the
// reduction left without a move (no execution ends there).
func measure(p *ir.Program, stuck map[ir.Loc]bool) Size {
	paths := make([]uint64, p.NumLocs)
	done := make([]bool, p.NumLocs)
	var visit func(l ir.Loc, onStack map[ir.Loc]bool) uint64
	visit = func(l ir.Loc, onStack map[ir.Loc]bool) uint64 {
		if done[l] {
			return paths[l]
		}
		onStack[l] = true
		var n uint64
		followed := false
		for _, e := range p.Out[l] {
			if onStack[e.To] {
				continue
			}
			followed = true
			n = addSat(n, visit(e.To, onStack))
		}
		if !followed && !stuck[l] && len(p.Out[l]) == 0 {
			n = 1
		}
		delete(onStack, l)
		done[l], paths[l] = true, n
		return n
	}
	return Size{States: p.NumLocs, Interleavings: visit(p.Entry, map[ir.Loc]bool{})}
}

func addSat(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
}
