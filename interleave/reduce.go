package interleave

import "github.com/dbverify/dbverify/ir"

// The reduction (Options.Reduce) is the peephole partial-order reduction
// of Wang et al. (TACAS'08) with DPF's relation and column dependence:
// two database operations of different requests are independent when
// neither writes or locks a cell (table and column; a row's existence is
// every column) the other reads, writes or locks, shared locks excepted
// (footprint.go). Executing them in either order then reaches the same
// database state with the same results for both, so each execution with
// request j's operation y immediately followed by request i's operation
// x, i < j and x, y independent, has an equivalent execution with x
// before y; the product drops the former. (The Go code a request runs
// after its operation touches only its own memory, so it does not count
// as a step between the two.) Every class of equivalent executions keeps
// its lexicographically least member, which no such pair can follow: the
// reduction keeps every reachable final state and every state after each
// commit, where the row model checks the constraint. For two requests it
// keeps exactly one execution per class (the rule is optimal there).
//
// Operations whose footprint cannot be bounded (SQL the IR does not
// model, a subquery, INSERT … SELECT, BEGIN as SQL text) depend on every
// other; BEGIN may take a snapshot (it reads every table); COMMIT and
// ROLLBACK publish or release everything the request's program may write
// or lock. The cell level of DPF — two operations on one table that pin
// different rows — is not decided: they are dependent.

// sleepAfter returns the requests deferred after request j performs
// database operation y from the tuple locs: each request i < j whose
// every next operation at locs[i] is independent of y.
func (b *builder) sleepAfter(j int, y ir.Stmt, locs []ir.Loc) uint32 {
	if b.fps == nil {
		return 0
	}
	fy := b.fps[j].of(y)
	var mask uint32
	for i := 0; i < j; i++ {
		if b.ended(i, locs[i]) {
			continue
		}
		ops, indep := 0, true
		for _, e := range b.reqs[i].src.Out[locs[i]] {
			if !IsDBOp(e.Stmt) {
				continue
			}
			ops++
			if dependent(b.fps[i].of(e.Stmt), fy) {
				indep = false
			}
		}
		if ops > 0 && indep {
			mask |= 1 << i
		}
	}
	return mask
}
