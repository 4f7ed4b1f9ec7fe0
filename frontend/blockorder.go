package frontend

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// blockOrder returns fn's blocks in reverse postorder (from the entry,
// then from the Recover block, then any other): every block comes after
// its dominators, and a φ's incoming values are known when it is
// translated unless they come around a loop.
func blockOrder(fn *ssa.Function) []*ssa.BasicBlock {
	seen := map[*ssa.BasicBlock]bool{}
	var out []*ssa.BasicBlock
	var post []*ssa.BasicBlock
	var visit func(b *ssa.BasicBlock)
	visit = func(b *ssa.BasicBlock) {
		seen[b] = true
		for _, s := range b.Succs {
			if !seen[s] {
				visit(s)
			}
		}
		post = append(post, b)
	}
	for _, root := range []*ssa.BasicBlock{fn.Blocks[0], fn.Recover} {
		if root == nil || seen[root] {
			continue
		}
		post = post[:0]
		visit(root)
		for i := len(post) - 1; i >= 0; i-- {
			out = append(out, post[i])
		}
	}
	for _, b := range fn.DomPreorder() {
		if !seen[b] {
			out = append(out, b)
		}
	}
	return out
}

// debugNames maps SSA values to the Go local variables they hold.
func debugNames(fn *ssa.Function) map[ssa.Value]string {
	names := map[ssa.Value]string{}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			d, ok := instr.(*ssa.DebugRef)
			if !ok {
				continue
			}
			if d.IsAddr {
				// The address of a local: name its cell.
				if _, isAlloc := d.X.(*ssa.Alloc); !isAlloc {
					continue
				}
			}
			if id, ok := d.Expr.(*ast.Ident); ok {
				if v, ok := d.Object().(*types.Var); ok && !v.IsField() {
					names[d.X] = id.Name
				}
			}
		}
	}
	return names
}
