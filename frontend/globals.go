package frontend

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// constGlobal returns the value of a package-level variable that behaves
// as a constant: its only store is its initialiser, a constant, in its
// package's init function, no function of the module takes its address
// other than to load it (`var debitSQL = "UPDATE …"`), and it is not
// exported from an importable package (an importer may set it).
func (l *Loaded) constGlobal(g *ssa.Global) (*ssa.Const, bool) {
	if l.constGlobals == nil {
		l.constGlobals = l.findConstGlobals()
	}
	c, ok := l.constGlobals[g]
	return c, ok
}

func (l *Loaded) findConstGlobals() map[*ssa.Global]*ssa.Const {
	init := map[*ssa.Global]*ssa.Const{}
	bad := map[*ssa.Global]bool{}
	var ops []*ssa.Value
	for _, fn := range l.allModuleFunctions() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				for _, op := range instr.Operands(ops[:0]) {
					g, ok := (*op).(*ssa.Global)
					if !ok {
						continue
					}
					switch i := instr.(type) {
					case *ssa.UnOp:
						if i.Op == token.MUL {
							continue // a load
						}
					case *ssa.Store:
						c, isConst := i.Val.(*ssa.Const)
						if i.Addr == g && isConst && fn.Name() == "init" && fn.Parent() == nil && fn.Pkg == g.Pkg && init[g] == nil {
							init[g] = c
							continue
						}
					}
					bad[g] = true
				}
			}
		}
	}
	out := map[*ssa.Global]*ssa.Const{}
	for g, c := range init {
		// An exported variable of an importable package may be set by
		// the code that imports it (exportedvar.Overdraft = 10).
		if g.Object() != nil && g.Object().Exported() && g.Pkg.Pkg.Name() != "main" {
			continue
		}
		if !bad[g] && c.Value != nil {
			out[g] = c
		}
	}
	return out
}
