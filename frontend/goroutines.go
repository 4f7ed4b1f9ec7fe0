package frontend

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// Goroutines (issue 11 §5). A go statement, and errgroup's Go and TryGo
// and sync.WaitGroup's Go, which run their function argument in a new
// goroutine, are translated as a call at the statement: the goroutine
// runs first, then the rest of the entry. From every location of its
// body where a database operation starts, and from its end, an edge
// leads to where the spawning code continues: the goroutine may stop
// there for good (block, loop, exit) while the rest runs on. The program
// records the goroutine (ir.Goroutine) and the pipeline keeps that order
// only where no operation of the goroutine conflicts with one of the
// rest that may run while it runs (interleave.GoroutineConflict);
// otherwise the entry is UNKNOWN, naming both.

// spawnMethods are the library methods that run their function argument
// in a new goroutine.
var spawnMethods = map[string]bool{
	"(*golang.org/x/sync/errgroup.Group).Go":    true,
	"(*golang.org/x/sync/errgroup.Group).TryGo": true,
	"(*sync.WaitGroup).Go":                      true,
}

// spawnsArgument reports whether fn runs its function argument in a new
// goroutine.
func spawnsArgument(fn *ssa.Function) bool {
	if fn == nil {
		return false
	}
	if f, ok := fn.Object().(*types.Func); ok {
		return spawnMethods[f.FullName()]
	}
	return false
}

// goStmt translates a go statement.
func (t *translator) goStmt(f *frame, g *ssa.Go) {
	c := g.Common()
	name := t.goName(goFunc(c), "go statement")
	t.spawn(name, func() func() {
		// The function and its arguments are evaluated at the go
		// statement: copy them.
		callee := t.copyBindings(f, t.val(f, c.Value), c.Value, g)
		var args []value
		for _, a := range c.Args {
			args = append(args, t.copyValue(f, t.val(f, a)))
		}
		return func() { t.call(f, g, c, &deferRec{callee: callee, args: args}) }
	})
}

// goName names the function fn a goroutine runs (def: not known).
func (t *translator) goName(fn *ssa.Function, def string) string {
	switch {
	case fn == nil:
		return def
	case t.l.inModule(fn):
		return fn.Name()
	}
	return fn.String()
}

// goFunc returns the function a go statement (or a function value
// passed to errgroup's Go) runs, when it is known.
func goFunc(c *ssa.CallCommon) *ssa.Function {
	switch v := c.Value.(type) {
	case *ssa.Function:
		return v
	case *ssa.MakeClosure:
		fn, _ := v.Fn.(*ssa.Function)
		return fn
	}
	return nil
}

// spawnArgument translates g.Go(fn) of errgroup (or WaitGroup.Go): fn
// runs in a new goroutine; Go returns nothing, TryGo whether it started.
func (t *translator) spawnArgument(f *frame, instr ssa.CallInstruction, c *ssa.CallCommon, fnv value) value {
	arg := c.Args[1]
	call := &ssa.CallCommon{Value: arg}
	name := t.goName(goFunc(call), "function passed to Go")
	t.spawn(name, func() func() {
		callee := t.copyBindings(f, fnv, arg, instr)
		return func() { t.call(f, instr, call, &deferRec{callee: callee}) }
	})
	return t.fresh("TryGo()", c.Signature().Results())
}

// spawn translates a goroutine at the current location and records it:
// prepare takes the values the go statement evaluates (its edges are
// the goroutine's Fence) and returns the translation of its call.
func (t *translator) spawn(name string, prepare func() func()) {
	g := &ir.Goroutine{Name: name, Info: t.info(ir.KindCall, ""), Start: t.cur}
	first := len(t.p.Edges)
	run := prepare()
	g.Fence = append(g.Fence, t.p.Edges[first:]...)
	run()
	body := append([]*ir.Edge(nil), t.p.Edges[first:]...)
	g.Cont = t.p.NewLoc()
	g.Edges = append(body, t.p.AddEdge(t.cur, g.Cont, &ir.Assume{Cond: ir.True, Info: t.info(ir.KindModel, "the goroutine ends")}))
	stops := map[ir.Loc]bool{g.Start: true}
	for _, e := range body {
		switch e.Stmt.(type) {
		case *ir.Exec, *ir.Select, *ir.TxOp:
			stops[e.From] = true
		}
	}
	for _, e := range body {
		if stops[e.From] {
			delete(stops, e.From)
			g.Edges = append(g.Edges, t.p.AddEdge(e.From, g.Cont, &ir.Assume{Cond: ir.True, Info: t.info(ir.KindModel, "the goroutine stops here")}))
		}
	}
	if stops[g.Start] {
		g.Edges = append(g.Edges, t.p.AddEdge(g.Start, g.Cont, &ir.Assume{Cond: ir.True, Info: t.info(ir.KindModel, "the goroutine stops here")}))
	}
	t.cur = g.Cont
	t.p.Goroutines = append(t.p.Goroutines, g)
}

// copyValue copies the scalars of v into new variables (a value taken
// now, which later assignments do not change).
func (t *translator) copyValue(f *frame, v value) value {
	if v.expr != nil && !isConst(v.expr) {
		nv := t.p.NewVar(f.prefix+"$go_arg", v.expr.Sort(), ir.Local)
		t.emit(&ir.Assign{Lhs: []*ir.Var{nv}, Rhs: []ir.Expr{v.expr}, Info: t.info(ir.KindAssign, "")})
		v.expr = nv
	}
	if v.fields != nil {
		fields := make([]value, len(v.fields))
		for i, fv := range v.fields {
			fields[i] = t.copyValue(f, fv)
		}
		v.fields = fields
	}
	return v
}

// copyBindings copies the scalar values closure v (the value of fv,
// started as a goroutine at instruction at) captured. A variable it
// captures by reference is a cell both share, except one that neither
// writes once the goroutine starts (only loads of it, or of its fields,
// follow the go statement in the spawning function, and only such loads
// are in the goroutine's function): its value, every field of a struct,
// is taken at the go statement (a loop variable of Go 1.22, one per
// iteration, which the model's cell stands for in every iteration; in a
// module of go < 1.22 the loop's one variable is written again by the
// next iteration, which stableCapture sees: its Alloc is outside the
// loop).
func (t *translator) copyBindings(f *frame, v value, fv ssa.Value, at ssa.Instruction) value {
	if v.obj == nil || v.obj.kind != objClosure || len(v.obj.bindings) == 0 {
		return v
	}
	mc, _ := fv.(*ssa.MakeClosure)
	o := *v.obj
	o.bindings = make([]value, len(v.obj.bindings))
	for i, b := range v.obj.bindings {
		b = t.copyValue(f, b)
		if b.obj != nil && b.obj.kind == objPtr && b.obj.cell != nil && (b.obj.cell.v != nil || b.obj.cell.fields != nil) && mc != nil && i < len(mc.Bindings) && stableCapture(mc, i, at) {
			c := b.obj.cell
			nc := t.newCell(c.typ, f.prefix+c.name+"$go", false)
			t.store(nc, t.load(c, c.name))
			po := *b.obj
			po.cell = nc
			b.obj = &po
		}
		o.bindings[i] = b
	}
	v.obj = &o
	return v
}

// stableCapture reports whether binding i of closure mc, an Alloc of the
// spawning function, is only loaded once the goroutine starts at
// instruction at: by the closure's function, and by the instructions of
// the spawning function that may follow at without running the Alloc
// again (which makes a new variable).
func stableCapture(mc *ssa.MakeClosure, i int, at ssa.Instruction) bool {
	alloc, ok := mc.Bindings[i].(*ssa.Alloc)
	fn, _ := mc.Fn.(*ssa.Function)
	if !ok || fn == nil || i >= len(fn.FreeVars) || !onlyLoaded(fn.FreeVars[i], nil) {
		return false
	}
	after := blocksAfter(at.Block(), alloc.Block())
	idx := map[ssa.Instruction]int{}
	for k, instr := range at.Block().Instrs {
		idx[instr] = k
	}
	for _, r := range *alloc.Referrers() {
		if r == ssa.Instruction(mc) {
			continue
		}
		later := after[r.Block()] || (r.Block() == at.Block() && idx[r] > idx[at])
		if later && !onlyLoaded(alloc, r) {
			return false
		}
	}
	return true
}

// onlyLoaded reports whether the uses of pointer v (only use r, when not
// nil) load it, or a field of it (l.Qty of a captured struct l).
func onlyLoaded(v ssa.Value, r ssa.Instruction) bool {
	refs := v.Referrers()
	if refs == nil {
		return true
	}
	for _, u := range *refs {
		if r != nil && u != r {
			continue
		}
		if !readsOnly(u) {
			return false
		}
	}
	return true
}

// readsOnly reports whether instruction u, a use of a pointer, only reads
// through it: a load, a debug reference, or the address of a field that
// is itself only read.
func readsOnly(u ssa.Instruction) bool {
	switch u := u.(type) {
	case *ssa.UnOp:
		return u.Op == token.MUL
	case *ssa.DebugRef:
		return true
	case *ssa.FieldAddr:
		return onlyLoaded(u, nil)
	}
	return false
}

// blocksAfter returns the blocks reachable from b's successors without
// entering stop.
func blocksAfter(b, stop *ssa.BasicBlock) map[*ssa.BasicBlock]bool {
	seen := map[*ssa.BasicBlock]bool{}
	work := append([]*ssa.BasicBlock(nil), b.Succs...)
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[x] || x == stop {
			continue
		}
		seen[x] = true
		work = append(work, x.Succs...)
	}
	return seen
}

// isConst reports whether e is a constant.
func isConst(e ir.Expr) bool {
	switch e.(type) {
	case *ir.IntConst, *ir.RealConst, ir.BoolConst:
		return true
	}
	return false
}
