package frontend

import (
	"go/token"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// constGlobal returns the value of a package-level variable that behaves
// as a constant: its only store is its initialiser, a constant, in its
// package's init function, no function of the module takes its address
// other than to load it (`var debitSQL = "UPDATE …"`), and it is not
// exported from an importable package (an importer may set it).
func (l *Loaded) constGlobal(g *ssa.Global) (*ssa.Const, bool) {
	if l.constGlobals == nil {
		l.constGlobals, l.initGlobals = l.findConstGlobals()
	}
	c, ok := l.constGlobals[g]
	return c, ok
}

// initOnlyGlobal reports whether the package-level variable g is set only
// when its package is initialised (its initialiser, `var limits =
// []int64{0, 10, 100}`, `var feeRate = mustParse(os.Getenv("FEE"))`, or
// a func init() of its package), other code only loading it, and is not
// exported from an importable package: its content is what the
// initialisation computed, which the model does not evaluate, so an
// arbitrary value for it is an approximation, not an input (see
// translator.global).
func (l *Loaded) initOnlyGlobal(g *ssa.Global) bool {
	if l.constGlobals == nil {
		l.constGlobals, l.initGlobals = l.findConstGlobals()
	}
	return l.initGlobals[g]
}

// findConstGlobals returns the constant globals (see constGlobal) and the
// init-only ones (see initOnlyGlobal).
func (l *Loaded) findConstGlobals() (map[*ssa.Global]*ssa.Const, map[*ssa.Global]bool) {
	init := map[*ssa.Global]*ssa.Const{}
	inInit := map[*ssa.Global]bool{} // stored in its package's init
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
						isInit := i.Addr == g && fn.Name() == "init" && fn.Parent() == nil && fn.Pkg == g.Pkg
						if i.Addr == g && userInit(fn, g) {
							// Set by a func init() of its package: at
							// initialisation, but maybe conditionally,
							// so never a constant.
							delete(init, g)
							inInit[g] = true
							continue
						}
						if isInit && isConst && init[g] == nil && !inInit[g] {
							init[g] = c
							inInit[g] = true
							continue
						}
						if isInit {
							delete(init, g) // a second store: not a constant
							inInit[g] = true
							continue
						}
					}
					bad[g] = true
				}
			}
		}
	}
	l.usedGlobals = bad
	// Variables the compiler fills from //go:embed files (embed.go).
	out := l.embedGlobals(bad)
	initOnly := map[*ssa.Global]bool{}
	for g := range inInit {
		// An exported variable of an importable package may be set by
		// the code that imports it (exportedvar.Overdraft = 10).
		if bad[g] || (g.Object() != nil && g.Object().Exported() && g.Pkg.Pkg.Name() != "main") {
			continue
		}
		if c := init[g]; c != nil && c.Value != nil {
			out[g] = c
		} else {
			initOnly[g] = true
		}
	}
	return out, initOnly
}

// userInit reports whether fn is a func init() declared in g's package
// (SSA names them init#1, init#2, …).
func userInit(fn *ssa.Function, g *ssa.Global) bool {
	return fn.Parent() == nil && fn.Pkg == g.Pkg && strings.HasPrefix(fn.Name(), "init#")
}

// escapedGlobal reports whether some module code uses the package-level
// variable g other than by loading it (a store, its address passed on).
func (l *Loaded) escapedGlobal(g *ssa.Global) bool {
	if l.constGlobals == nil {
		l.constGlobals, l.initGlobals = l.findConstGlobals()
	}
	return l.usedGlobals[g]
}
