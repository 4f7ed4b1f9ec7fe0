package frontend

// Where a branch of the source is and which way each edge of it goes,
// for traces.

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// branchOutcome is the outcome of the source's condition on the edge to
// block succ, read off the block go/ssa made for it: the body of an if,
// a loop or a case (true), what follows when the condition fails
// (false), or an inner test of && or || (none).
func branchOutcome(succ *ssa.BasicBlock) ir.Outcome {
	switch succ.Comment {
	case "if.then", "for.body", "range.body", "rangeindex.body", "rangeiter.body", "rangeint.body", "switch.body", "typeswitch.body", "rangechan.body":
		return ir.OutcomeTrue
	case "if.else", "if.done", "for.done", "rangeindex.done", "rangeiter.done", "rangeint.done", "switch.next", "switch.done", "typeswitch.next", "rangechan.done", "rangefunc.done":
		return ir.OutcomeFalse
	}
	return ir.OutcomeNone
}

// branchOutcomes are the outcomes of the two edges leaving block b,
// which ends in an If. go/ssa removes the empty body of an if or a case
// (`if vip {} else {…}`, `case 1:` and nothing), and its edge then goes
// to the block after the statement: of an edge to the statement's end
// and one to its else (or next case), the first enters the body (it was
// shown taking the else: an `if vip {` step printed → false on a path
// with vip true). Both edges to one block decide nothing.
func branchOutcomes(b *ssa.BasicBlock) [2]ir.Outcome {
	out := [2]ir.Outcome{branchOutcome(b.Succs[0]), branchOutcome(b.Succs[1])}
	if b.Succs[0] == b.Succs[1] {
		return [2]ir.Outcome{}
	}
	skipped := func(done, other string) bool {
		return done == "if.done" && other == "if.else" || done == "switch.done" && other == "switch.next"
	}
	for i := range 2 {
		if out[0] == ir.OutcomeFalse && out[1] == ir.OutcomeFalse && skipped(b.Succs[i].Comment, b.Succs[1-i].Comment) {
			out[i] = ir.OutcomeTrue
		}
	}
	return out
}

func lastPos(b *ssa.BasicBlock) token.Pos {
	for i := len(b.Instrs) - 1; i >= 0; i-- {
		if p := b.Instrs[i].Pos(); p.IsValid() {
			return p
		}
	}
	return token.NoPos
}

// condPos is the position of the condition of the If that ends block b:
// where the condition's expression is written (its DebugRef: the Pos of
// a parameter or a value computed on an earlier line is that line's, and
// `if premium {` showed as a step of the function's first line), else
// the condition's own position, else b's last.
func condPos(i *ssa.If, b *ssa.BasicBlock) token.Pos {
	for k := len(b.Instrs) - 1; k >= 0; k-- {
		if d, ok := b.Instrs[k].(*ssa.DebugRef); ok && d.X == i.Cond && d.Pos().IsValid() {
			return d.Pos()
		}
	}
	if p := i.Cond.Pos(); p.IsValid() {
		return p
	}
	return lastPos(b)
}
