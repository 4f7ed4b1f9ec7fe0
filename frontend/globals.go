package frontend

import (
	"fmt"
	"go/token"
	"go/types"
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

// fixedByProgram reports whether g's only store at initialisation is its
// initialiser's call of a function with constant arguments only (`var
// limit = decimal.NewFromInt(5000)`): a value the program fixes, not one a
// deployment sets, so it stays an input like any other value the model
// does not evaluate (the counterexample shows the value it needs).
func (l *Loaded) fixedByProgram(g *ssa.Global) bool {
	stores := 0
	fixed := false
	for _, fn := range l.allModuleFunctions() {
		if fn.Parent() != nil || fn.Pkg != g.Pkg || (fn.Name() != "init" && !userInit(fn, g)) {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok || st.Addr != g {
					continue
				}
				stores++
				fixed = fn.Name() == "init" && constCall(st.Val)
			}
		}
	}
	return stores == 1 && fixed
}

// constCall reports whether v is the result of a static call whose
// arguments are all constants.
func constCall(v ssa.Value) bool {
	if e, ok := v.(*ssa.Extract); ok {
		v = e.Tuple
	}
	c, ok := v.(*ssa.Call)
	if !ok || c.Call.IsInvoke() || c.Call.StaticCallee() == nil {
		return false
	}
	for _, a := range c.Call.Args {
		if _, isConst := a.(*ssa.Const); !isConst {
			return false
		}
	}
	return true
}

// setByCode returns where module code other than initialisation stores
// into the package-level scalar variable g (the first such function, as
// "name (file:line)"), or "" when none does or g is used otherwise than
// by loads and stores (its address taken), exported from an importable
// package, or an error. Such a variable holds, when an entry starts,
// what earlier calls left in it (var maxUses = 10000 that a LoadConfig
// sets within 1..10000): not an input a counterexample may choose (adv13
// m2 picked maxUses = 10001), but memory state the model does not track.
func (l *Loaded) setByCode(g *ssa.Global) string {
	if w, ok := l.codeSet[g]; ok {
		return w
	}
	if l.codeSet == nil {
		l.codeSet = map[*ssa.Global]string{}
	}
	w := l.findSetByCode(g)
	l.codeSet[g] = w
	return w
}

// findSetByCode is setByCode without the memo.
func (l *Loaded) findSetByCode(g *ssa.Global) string {
	if g.Object() != nil && g.Object().Exported() && g.Pkg.Pkg.Name() != "main" {
		return ""
	}
	if _, ok := sortOf(g.Type().(*types.Pointer).Elem()); !ok || isError(g.Type().(*types.Pointer).Elem()) {
		return ""
	}
	where := ""
	var ops []*ssa.Value
	for _, fn := range l.allModuleFunctions() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				for _, op := range instr.Operands(ops[:0]) {
					if *op != ssa.Value(g) {
						continue
					}
					switch i := instr.(type) {
					case *ssa.UnOp:
						if i.Op == token.MUL {
							continue // a load
						}
						return ""
					case *ssa.Store:
						if i.Addr != g {
							return "" // its address stored somewhere
						}
						if fn.Name() == "init" && fn.Parent() == nil || userInit(fn, g) {
							continue
						}
						if where == "" {
							file, line := l.position(i.Pos())
							where = fmt.Sprintf("%s (%s:%d)", fn.Name(), file, line)
						}
					default:
						return "" // its address passed on
					}
				}
			}
		}
	}
	return where
}
