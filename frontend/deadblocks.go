package frontend

import (
	"go/constant"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// Blocks a constant condition cuts off.
//
// A helper shared by several entries may branch on a flag each passes as
// a constant (pay(…, onPool=false)). The block the constant rules out is
// not translated for that call: what it holds (a statement the model
// does not support) cannot run, and must not make the entry UNKNOWN.
// Only Go constants count (a literal, or a parameter bound to one at an
// inlined call site, value.goConst): a condition the model approximates
// to a constant keeps both blocks, translated, as before.

// deadBlock reports whether no path from fn's entry reaches b in frame f:
// b is not the entry or the Recover block, and every predecessor already
// translated is dead or ends in an If on a Go constant that takes the
// other successor. A predecessor not yet translated (a loop's back edge)
// counts as reaching b.
func (t *translator) deadBlock(f *frame, b *ssa.BasicBlock) bool {
	if b == f.fn.Blocks[0] || b == f.fn.Recover || len(b.Preds) == 0 {
		return false
	}
	for _, p := range b.Preds {
		if f.dead[p] {
			continue
		}
		if _, done := f.end[p]; !done {
			return false
		}
		if t.edgeMayRun(f, p, b) {
			return false
		}
	}
	return true
}

// edgeMayRun reports whether the translated block p may pass control to
// its successor b: false only when p ends in an If on a Go constant
// whose value sends it elsewhere.
func (t *translator) edgeMayRun(f *frame, p, b *ssa.BasicBlock) bool {
	br, ok := p.Instrs[len(p.Instrs)-1].(*ssa.If)
	if !ok {
		return true
	}
	c, known := t.goConstBool(f, br.Cond)
	if !known {
		return true
	}
	for i, s := range p.Succs {
		if s == b && (i == 0) == c {
			return true
		}
	}
	return false
}

// goConstBool returns the value of a boolean condition that is a Go
// constant in frame f (a literal, or a parameter bound to one).
func (t *translator) goConstBool(f *frame, cond ssa.Value) (bool, bool) {
	if c, ok := cond.(*ssa.Const); ok {
		if c.Value == nil || c.Value.Kind() != constant.Bool {
			return false, false
		}
		return constant.BoolVal(c.Value), true
	}
	v, ok := f.env[cond]
	if !ok || !v.goConst {
		return false, false
	}
	b, isBool := v.expr.(ir.BoolConst)
	return bool(b), isBool
}
