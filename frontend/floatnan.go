package frontend

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// NaN and out-of-range float conversions. Floats are reals in the model
// (floatround.go), but two float facts decide integer values the program
// writes:
//
//   - a float → integer conversion of a value outside the target type's
//     range gives an implementation-dependent result (the Go spec;
//     MinInt64 on amd64, saturated on arm64), and so does one of NaN;
//   - strconv.ParseFloat accepts "NaN", and every ordered comparison
//     with NaN is false, so a bounds check such as `x <= 0 || x > 1000`
//     lets it through.
//
// Each float value that may be NaN has a boolean "is NaN" flag: a fresh
// one for a source (the float result of a call the model does not
// compute, strconv.ParseFloat and math.Sqrt among them, and a float
// input: a parameter or what it points to), propagated through float
// arithmetic (NaN op y is NaN), math.Max and Min, copies, φs and memory.
// math.IsNaN(x) is x's flag, so a program that rejects NaN with it is
// proved as before. A scanned float column is not a source (the model
// reads columns as reals), nor is a constant or an integer converted to
// float. The flags of values that cannot be NaN are false, and the
// solver sees them as such: an entry without a source is checked as
// before, with a few more assignments.
//
// A non-constant float → integer conversion takes the exact truncation
// when the operand is not NaN and its truncation fits the type, and
// otherwise an arbitrary value of the type marked as an approximation
// (ir.Var.Approx): a counterexample that takes that branch is UNKNOWN,
// never UNSAFE.
//
// A comparison of floats is false when an operand is NaN (true for !=),
// so `!(x > 0)` rejects NaN as it does in Go.
//
// Not modelled: ±Inf is a real (math.IsInf is false; an infinite operand
// converted to an integer is out of range as a large real is); a NaN
// made from operands that are not NaN (0/0, Inf-Inf) is not; a float
// read from a column is never NaN. A NaN bound as a SQL argument is
// not modelled (nanArgs): SQLite binds NULL, PostgreSQL stores a float8
// NaN (which compares above every number), MariaDB refuses the result
// (groundtruth TestNaNArgument); the model
// binds the argument's real part on the branch where it is not NaN, and
// marks the other branch an approximation, so a counterexample that
// binds a NaN is UNKNOWN, never UNSAFE. The flags are computed after translation (resolveNaN),
// over the assignments of the whole program.

// nanState holds the "is NaN" flags of a translation.
type nanState struct {
	// flags: the flag of each float variable that has one.
	flags map[*ir.Var]*ir.Var
	// derived: a rounded float result (floatround.go) is NaN when the
	// exact expression it rounds is.
	derived map[*ir.Var]ir.Expr
	// pending: assignments of "is NaN" conditions whose right-hand side
	// resolveNaN computes.
	pending []pendingNaN
}

type pendingNaN struct {
	a *ir.Assign
	e ir.Expr
}

// nanSource gives float variable v a fresh "is NaN" flag, returned to be
// havocked with v (nil when v is no float).
func (t *translator) nanSource(v *ir.Var) *ir.Var {
	if v.Type != ir.Real {
		return nil
	}
	flag := t.newNaNFlag(v)
	if t.nan.flags == nil {
		t.nan.flags = map[*ir.Var]*ir.Var{}
	}
	t.nan.flags[v] = flag
	return flag
}

func (t *translator) newNaNFlag(v *ir.Var) *ir.Var {
	flag := t.p.NewVar("isNaN("+v.Name+")", ir.Bool, ir.Local)
	flag.Internal = true
	return flag
}

// nanDerived records that rounded result r is NaN when e is.
func (t *translator) nanDerived(r *ir.Var, e ir.Expr) {
	if t.nan.derived == nil {
		t.nan.derived = map[*ir.Var]ir.Expr{}
	}
	t.nan.derived[r] = e
}

// isNaN returns a variable, named name, that holds "x is NaN" here
// (resolveNaN computes it).
func (t *translator) isNaN(x ir.Expr, name string) *ir.Var {
	k := t.p.NewVar(name, ir.Bool, ir.Local)
	k.Internal = true
	a := &ir.Assign{Lhs: []*ir.Var{k}, Rhs: []ir.Expr{ir.False}, Info: t.info(ir.KindModel, "")}
	t.emit(a)
	t.nan.pending = append(t.nan.pending, pendingNaN{a: a, e: x})
	return k
}

// floatCompare returns c, the comparison op of floats x and y on the
// reals, as Go computes it when x or y may be NaN: false, or true for !=.
func (t *translator) floatCompare(op token.Token, c, x, y ir.Expr, name string) ir.Expr {
	vars := map[*ir.Var]bool{}
	ir.CollectVars(x, vars)
	ir.CollectVars(y, vars)
	if len(vars) == 0 {
		return c
	}
	nan := t.isNaN(ir.Add(x, y), "isNaN("+name+")") // NaN when x or y is
	if op == token.NEQ {
		return ir.Or(nan, c)
	}
	return ir.And(ir.Not(nan), c)
}

// floatToInt translates a float → integer conversion of x (see above).
func (t *translator) floatToInt(f *frame, i *ssa.Convert, x ir.Expr) ir.Expr {
	name := f.prefix + i.Name()
	exact := t.truncate(x, name)
	r, ok := rangeOf(i.Type())
	if _, isConst := i.X.(*ssa.Const); isConst || !ok {
		return exact
	}
	nan := t.isNaN(x, "isNaN("+t.nameOf(f, i.X)+")")
	fits := ir.And(ir.Not(nan), r.holds(exact))
	out := t.p.NewVar(name, ir.Int, ir.Local)
	join := t.p.NewLoc()
	from := t.cur
	t.emit(&ir.Assume{Cond: fits, Info: t.info(ir.KindModel, "")})
	t.edge(join, &ir.Assign{Lhs: []*ir.Var{out}, Rhs: []ir.Expr{exact}, Info: t.info(ir.KindModel, "")})
	t.cur = from
	t.emit(&ir.Assume{Cond: ir.Not(fits), Info: t.info(ir.KindModel, "")})
	arb := t.freshVar(name, ir.Int, ir.KindModel)
	arb.Approx = fmt.Sprintf("the result of %s at %s of NaN or of a value outside %s's range, implementation-dependent", i.Type(), t.posString(i.Pos()), i.Type())
	t.emit(&ir.Assume{Cond: r.holds(arb), Info: t.info(ir.KindFact, "")})
	t.edge(join, &ir.Assign{Lhs: []*ir.Var{out}, Rhs: []ir.Expr{arb}, Info: t.info(ir.KindModel, "")})
	t.cur = join
	return out
}

// resolveNaN computes the pending "is NaN" conditions, giving a flag to
// every float variable they depend on: assigned with the flag of its
// right-hand side where it is assigned, arbitrary where it is havocked.
func (t *translator) resolveNaN() {
	if len(t.nan.pending) == 0 {
		return
	}
	r := &nanResolver{t: t, defs: map[*ir.Var][]nanDef{}}
	for _, e := range t.p.Edges {
		switch s := e.Stmt.(type) {
		case *ir.Assign:
			for i, v := range s.Lhs {
				if v.Type == ir.Real {
					r.defs[v] = append(r.defs[v], nanDef{a: s, i: i})
				}
			}
		case *ir.Havoc:
			for _, v := range s.Vars {
				if v.Type == ir.Real {
					r.defs[v] = append(r.defs[v], nanDef{h: s})
				}
			}
		}
	}
	for _, p := range t.nan.pending {
		p.a.Rhs[0] = r.of(p.e, 0)
	}
	for len(r.queue) > 0 {
		v := r.queue[0]
		r.queue = r.queue[1:]
		flag := t.nan.flags[v]
		for _, d := range r.defs[v] {
			if d.a != nil {
				e := r.of(d.a.Rhs[d.i], 0)
				d.a.Lhs = append(d.a.Lhs, flag)
				d.a.Rhs = append(d.a.Rhs, e)
			} else {
				d.h.Vars = append(d.h.Vars, flag)
			}
		}
	}
}

// nanDef is a definition of a float variable: the i-th target of an
// assignment, or a havoc.
type nanDef struct {
	a *ir.Assign
	i int
	h *ir.Havoc
}

type nanResolver struct {
	t     *translator
	defs  map[*ir.Var][]nanDef
	queue []*ir.Var
}

// of returns "e is NaN" over the flags of the variables of e.
func (r *nanResolver) of(e ir.Expr, depth int) ir.Expr {
	if e.Sort() != ir.Real || depth > 64 {
		return ir.False
	}
	switch e := e.(type) {
	case *ir.Var:
		return r.flag(e, depth)
	case *ir.Binary:
		return ir.Or(r.of(e.X, depth+1), r.of(e.Y, depth+1))
	case *ir.Unary:
		return r.of(e.X, depth+1)
	case *ir.Ite:
		return ir.IteOf(e.Cond, r.of(e.Then, depth+1), r.of(e.Else, depth+1))
	}
	return ir.False // a constant, an integer converted
}

// flag returns v's flag, giving it one if it is assigned.
func (r *nanResolver) flag(v *ir.Var, depth int) ir.Expr {
	if f, ok := r.t.nan.flags[v]; ok {
		return f
	}
	if d, ok := r.t.nan.derived[v]; ok {
		return r.of(d, depth+1)
	}
	if len(r.defs[v]) == 0 {
		return ir.False // a column, or never assigned
	}
	f := r.t.newNaNFlag(v)
	if r.t.nan.flags == nil {
		r.t.nan.flags = map[*ir.Var]*ir.Var{}
	}
	r.t.nan.flags[v] = f
	r.queue = append(r.queue, v)
	return f
}

// nanArgs splits the path before a SQL statement whose arguments args
// bound from Go floats (t.argFloat, taken: positional arguments by their
// static type, named ones — sql.Named, sqlx's :name from a struct or a
// map, pgx.NamedArgs — by the type they had before boxing, floatValues;
// a decimal is never NaN) may hold a NaN: where none is NaN the statement runs as
// modelled; where one is, the path reads a value marked as an
// approximation (ir.Var.Approx), so that a counterexample through it is
// UNKNOWN, never UNSAFE (see above).
func (t *translator) nanArgs(args []ir.Expr, text string) {
	floats := t.argFloat
	t.argFloat = nil
	var nans []ir.Expr
	for i, a := range args {
		if a == nil || a.Sort() != ir.Real || !floats[i] {
			continue
		}
		vars := map[*ir.Var]bool{}
		ir.CollectVars(a, vars)
		if len(vars) == 0 {
			continue
		}
		nans = append(nans, t.isNaN(a, fmt.Sprintf("isNaN(arg%d)", i+1)))
	}
	if len(nans) == 0 {
		return
	}
	nan := ir.Or(nans...)
	join := t.p.NewLoc()
	from := t.cur
	t.edge(join, &ir.Assume{Cond: ir.Not(nan), Info: t.info(ir.KindModel, "")})
	t.cur = from
	t.emit(&ir.Assume{Cond: nan, Info: t.info(ir.KindModel, "")})
	mark := t.freshVar("nanArg", ir.Bool, ir.KindModel)
	mark.Approx = fmt.Sprintf("a NaN float bound as an argument of %q at %s (SQLite binds NULL, PostgreSQL stores NaN, MariaDB refuses it), not modelled",
		text, t.posString(t.pos))
	t.edge(join, &ir.Assume{Cond: mark, Info: t.info(ir.KindModel, "")})
}

// floatArgs returns the positions of the arguments of the call instr's
// variadic parameter (number params, as unsignedArgs counts) that are Go
// floats; nil if none.
func floatArgs(instr ssa.CallInstruction, params, n int) map[int]bool {
	return argsOfType(instr, params, n, func(typ types.Type) bool {
		b, ok := typ.Underlying().(*types.Basic)
		return ok && b.Info()&types.IsFloat != 0
	})
}
