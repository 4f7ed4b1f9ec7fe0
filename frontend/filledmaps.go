package frontend

// Map fields the program fills. An entry point's receiver (or argument)
// is an input, and so are the maps its fields hold: arbitrary contents.
// But a map field some function of the program stores into (a
// constructor's &Service{rates: map[string]int64{…}}) or updates
// (s.rates[k] = v) holds what the program put there, which the model
// does not track: an element read from it is an approximation, and a
// counterexample that needs one is UNKNOWN, not UNSAFE (adv8 F4).

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// findFilledMaps records, for each map-typed struct field the program
// stores into or updates, the function that does it (the first found).
func (l *Loaded) findFilledMaps() {
	filled := map[*types.Var]string{}
	record := func(fa *ssa.FieldAddr, fn *ssa.Function) {
		f := fieldOf(fa)
		if f == nil {
			return
		}
		if _, ok := f.Type().Underlying().(*types.Map); !ok {
			return
		}
		if _, ok := filled[f]; !ok {
			filled[f] = fn.Name()
		}
	}
	for _, fn := range l.allModuleFunctions() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch i := instr.(type) {
				case *ssa.Store:
					if fa, ok := i.Addr.(*ssa.FieldAddr); ok {
						record(fa, fn)
					}
				case *ssa.MapUpdate:
					if ld, ok := i.Map.(*ssa.UnOp); ok {
						if fa, ok := ld.X.(*ssa.FieldAddr); ok {
							record(fa, fn)
						}
					}
				}
			}
		}
	}
	l.filledMaps = filled
}

// filledMapWhy says why the elements of field f of an input struct are
// approximations ("" when the program never fills it).
func (l *Loaded) filledMapWhy(f *types.Var, name string) string {
	fn, ok := l.filledMaps[f]
	if !ok {
		return ""
	}
	return fmt.Sprintf("an element of %s, a map %s fills, whose contents the model does not track", name, fn)
}

// markFilledMap makes v, the map an input's field f holds, one whose
// elements are approximations when the program fills that field.
func (t *translator) markFilledMap(v value, f *types.Var, name string) {
	if why := t.l.filledMapWhy(f, name); why != "" && v.obj != nil {
		v.obj.arbitrary = false
		v.obj.approxElems = why
	}
}
