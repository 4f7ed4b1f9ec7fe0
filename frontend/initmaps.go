package frontend

// Tables of operations filled by init.
//
// A package variable holding a map of functions (var ops =
// map[string]opFunc{"debit": debit}, and ops["chargeback"] = chargeback
// in a func init()) that only the package's initialisation fills, with
// constant string keys and named module functions, holds exactly those
// entries whenever an entry point runs: Go runs every init before main.
// A lookup ops[kind] is then one of them by key, each on its branch, as
// with a local map literal (tableLookup), and a function that calls what
// it looked up runs them (callees). A table that is exported (another
// package may register anything), written outside init, given a key or
// a value the analysis cannot name, or whose map goes anywhere but a
// lookup is open: a call through what it gives is UNKNOWN naming the
// variable and why.

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// initTable is a package map of functions: the functions its
// initialisation puts there by key, and why it is open ("" when closed).
type initTable struct {
	name string // the variable as the source names it (ops)
	fns  map[string]*ssa.Function
	why  string
	// stored: the initialiser's store of the map was seen (a second
	// store opens the table).
	stored bool
}

// funcs returns the table's functions, sorted by key.
func (tb *initTable) funcs() []*ssa.Function {
	keys := make([]string, 0, len(tb.fns))
	for k := range tb.fns {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]*ssa.Function, 0, len(keys))
	for _, k := range keys {
		out = append(out, tb.fns[k])
	}
	return out
}

// initTables returns the package maps of functions of the module
// (computed once).
func (l *Loaded) initTables() map[*ssa.Global]*initTable {
	if l.initTableCache != nil {
		return l.initTableCache
	}
	out := map[*ssa.Global]*initTable{}
	for p := range l.module {
		for _, mem := range p.Members {
			if g, ok := mem.(*ssa.Global); ok && isFuncMap(g) {
				out[g] = &initTable{name: g.Name(), fns: map[string]*ssa.Function{}}
				if g.Object() != nil && g.Object().Exported() && g.Pkg.Pkg.Name() != "main" {
					out[g].why = "is exported: another package may put any function there"
				}
			}
		}
	}
	var ops []*ssa.Value
	for _, fn := range l.allModuleFunctions() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				for _, op := range instr.Operands(ops[:0]) {
					if g, ok := (*op).(*ssa.Global); ok && out[g] != nil {
						l.indexTableUse(out[g], g, fn, instr)
					}
				}
			}
		}
	}
	l.initTableCache = out
	return out
}

// isFuncMap reports whether g is a map with string keys and function
// values.
func isFuncMap(g *ssa.Global) bool {
	p, ok := g.Type().(*types.Pointer)
	if !ok {
		return false
	}
	m, ok := p.Elem().Underlying().(*types.Map)
	if !ok || !isString(m.Key()) {
		return false
	}
	_, ok = m.Elem().Underlying().(*types.Signature)
	return ok
}

// indexTableUse records what instr, in fn, does with the table variable
// g: a load whose map is filled (at initialisation) or looked up, or the
// initialiser's store of a map literal; anything else opens the table.
func (l *Loaded) indexTableUse(tb *initTable, g *ssa.Global, fn *ssa.Function, instr ssa.Instruction) {
	atInit := fn.Parent() == nil && fn.Pkg == g.Pkg && (fn.Synthetic == "package initializer" || userInit(fn, g))
	var m ssa.Value
	switch i := instr.(type) {
	case *ssa.UnOp:
		if i.Op == token.MUL {
			m = i
		}
	case *ssa.Store:
		if i.Addr == g && atInit && !tb.stored {
			if mm, ok := i.Val.(*ssa.MakeMap); ok {
				m, tb.stored = mm, true
			}
		}
	case *ssa.DebugRef:
		return
	}
	if m == nil {
		l.openTable(tb, instr, "is set or passed on")
		return
	}
	for _, r := range *m.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef, *ssa.Lookup:
		case *ssa.Store:
			if r.Addr != g || r.Val != m {
				l.openTable(tb, r, "is passed on")
			}
		case *ssa.MapUpdate:
			if !atInit {
				l.openTable(tb, r, "is written outside init")
				continue
			}
			l.tableEntry(tb, r)
		default:
			l.openTable(tb, r, "is passed on")
		}
	}
}

// tableEntry records the entry an update at initialisation puts in the
// table: a constant key and a named module function.
func (l *Loaded) tableEntry(tb *initTable, u *ssa.MapUpdate) {
	k, ok := u.Key.(*ssa.Const)
	if !ok || k.Value == nil || k.Value.Kind() != constant.String {
		l.openTable(tb, u, "gets a key that is not a constant")
		return
	}
	v := u.Value
	for {
		ct, ok := v.(*ssa.ChangeType)
		if !ok {
			break
		}
		v = ct.X
	}
	f, ok := v.(*ssa.Function)
	if !ok || !l.inModule(f) || len(f.FreeVars) > 0 {
		l.openTable(tb, u, "gets a function value the analysis cannot name")
		return
	}
	key := constant.StringVal(k.Value)
	if _, dup := tb.fns[key]; dup {
		l.openTable(tb, u, fmt.Sprintf("gets the key %q twice", key))
		return
	}
	if u.Parent().Synthetic != "package initializer" && !alwaysRuns(u) {
		l.openTable(tb, u, fmt.Sprintf("gets the key %q only on some paths of init", key))
		return
	}
	tb.fns[key] = f
}

// alwaysRuns reports whether instr runs whenever its function returns
// (the package initializer's map literals always run, after its guard):
// its block dominates every block that returns.
func alwaysRuns(instr ssa.Instruction) bool {
	for _, b := range instr.Parent().Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		if _, ret := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ret && !instr.Block().Dominates(b) {
			return false
		}
	}
	return true
}

// openTable records the first reason the table is open, with where.
func (l *Loaded) openTable(tb *initTable, instr ssa.Instruction, what string) {
	if tb.why != "" {
		return
	}
	pos := instr.Pos()
	if !pos.IsValid() && instr.Block() != nil {
		pos = instr.Parent().Pos()
	}
	file, line := l.position(pos)
	tb.why = fmt.Sprintf("%s at %s:%d", what, file, line)
}

// lookedUpTable returns the table a function value is looked up in
// (ops[kind], or the value of op, ok := ops[kind]).
func (l *Loaded) lookedUpTable(v ssa.Value) (*initTable, bool) {
	if e, ok := v.(*ssa.Extract); ok && e.Index == 0 {
		v = e.Tuple
	}
	lk, ok := v.(*ssa.Lookup)
	if !ok {
		return nil, false
	}
	return l.tableOf(lk.X)
}

// closedTable reports whether g is a table of operations whose entries
// are known.
func (l *Loaded) closedTable(g *ssa.Global) bool {
	tb := l.initTables()[g]
	return tb != nil && tb.why == "" && len(tb.fns) > 0
}

// tableOf returns the table the map value m loads.
func (l *Loaded) tableOf(m ssa.Value) (*initTable, bool) {
	ld, ok := m.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return nil, false
	}
	g, ok := ld.X.(*ssa.Global)
	if !ok {
		return nil, false
	}
	tb := l.initTables()[g]
	return tb, tb != nil
}

// tableCallees returns the functions a call through a value looked up in
// a table may run: its known functions (of an open table too, so that
// the caller is an entry point, whose verdict is then UNKNOWN).
func (l *Loaded) tableCallees(v ssa.Value) ([]*ssa.Function, bool) {
	tb, ok := l.lookedUpTable(v)
	if !ok {
		return nil, false
	}
	return tb.funcs(), true
}

// initTableObject is the map object of the closed table g: its
// functions by key (see tableLookup), whose keys traces print.
func (t *translator) initTableObject(g *ssa.Global) *object {
	if t.p.Strings == nil {
		t.p.Strings = map[string]string{}
	}
	o := &object{kind: objSlice, length: ir.IntLit(int64(len(t.l.initTables()[g].fns))), entries: map[string]value{}}
	for k, fn := range t.l.initTables()[g].fns {
		o.entries[k] = value{obj: &object{kind: objFunc, fn: fn}}
		if _, num := ir.CanonicalInt(k); !num {
			t.p.Strings[ir.StringCode(k).V.String()] = k
		}
	}
	return o
}
