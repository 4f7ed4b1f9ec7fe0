package frontend

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/frontend/dblib"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlparse"
)

// libCall is the dblib.Builder a library's Special handler translates
// one call with.
type libCall struct {
	t       *translator
	f       *frame
	instr   ssa.CallInstruction
	a       apiCall
	args    []value
	results *types.Tuple
}

var _ dblib.Builder = (*libCall)(nil)

// asValue returns the translator value a dblib.Value holds (the opaque
// value for anything else).
func asValue(v dblib.Value) value {
	x, _ := v.(value)
	return x
}

func (b *libCall) Arg(i int) dblib.Value { return argAt(b.args, i) }
func (b *libCall) NumArgs() int          { return len(b.args) }

func (b *libCall) ConstString(i int) (string, bool) {
	v := argAt(b.args, i)
	return v.str, v.strKnown
}

func (b *libCall) Dialect() sqlparse.Dialect { return b.t.dialect }

func (b *libCall) Text(s string) dblib.Value {
	return value{expr: ir.StringCode(s), str: s, strKnown: true}
}

func (b *libCall) Results() dblib.Value { return b.t.freshResults(b.a.Name+"()", b.results) }

func (b *libCall) Result(i int, name string) dblib.Value {
	if b.results == nil || i >= b.results.Len() {
		return value{}
	}
	return b.t.fresh(name, b.results.At(i).Type())
}

func (b *libCall) Err() dblib.Value { return value{expr: b.t.freshVar("err", ir.Bool, ir.KindCall)} }

func (b *libCall) Tuple(vs ...dblib.Value) dblib.Value {
	out := make([]value, len(vs))
	for i, v := range vs {
		out[i] = asValue(v)
	}
	return value{tuple: out}
}

func (b *libCall) Element(v dblib.Value, i int) dblib.Value {
	x := asValue(v)
	if x.tuple == nil {
		return x
	}
	return argAt(x.tuple, i)
}

func (b *libCall) Approx(v dblib.Value, why string) dblib.Value {
	x := asValue(v)
	markValueApprox(x, why)
	if o := x.obj; o != nil && o.kind == objSlice && o.cell == nil {
		// A slice the call made (pgx.CollectRows' rows): its length and
		// elements are approximations too, not values a counterexample
		// may choose (adv13 m7).
		o.approxElems = why
		if n, ok := o.length.(*ir.Var); ok {
			n.Approx = why
		}
	}
	return v
}

func (b *libCall) Elems(v dblib.Value) ([]dblib.Value, bool) {
	elems := b.t.sliceElems(asValue(v))
	if elems == nil {
		return nil, false
	}
	out := make([]dblib.Value, len(elems))
	for i, e := range elems {
		out[i] = e
	}
	return out, true
}

func (b *libCall) IsScalar(v dblib.Value) bool { return asValue(v).expr != nil }

func (b *libCall) Scalar(name string) dblib.Value {
	return value{expr: b.t.freshVar(name, ir.Int, ir.KindCall)}
}

func (b *libCall) Slice(vs ...dblib.Value) dblib.Value {
	if len(vs) > 64 {
		return value{obj: &object{kind: objSlice, length: ir.IntLit(int64(len(vs)))}}
	}
	arr := b.t.newCell(types.NewArray(types.Universe.Lookup("any").Type(), int64(len(vs))), b.a.Name+"()", false)
	for i, v := range vs {
		b.t.store(b.t.field(arr, i), asValue(v))
	}
	return value{obj: &object{kind: objSlice, cell: arr, length: ir.IntLit(int64(len(vs)))}}
}

func (b *libCall) ApproxElems(v dblib.Value, why string) dblib.Value {
	x := asValue(v)
	if x.obj != nil && x.obj.kind == objSlice {
		cp := *x.obj
		cp.approxElems = why
		x.obj = &cp
	}
	return x
}

func (b *libCall) RunInTx(db, fn dblib.Value) dblib.Value {
	return b.t.runInTx(b.a, asValue(db), asValue(fn), b.results, b.t.txOptionsOf(b.f, b.instr, b.a, b.args))
}

func (b *libCall) Unsupported(format string, args ...any) { b.t.unsupported(format, args...) }

func (b *libCall) Escape() {
	rest := b.args
	if b.a.Self >= 0 && b.a.Self < len(b.args) {
		rest = append(append([]value(nil), b.args[:b.a.Self]...), b.args[b.a.Self+1:]...)
	}
	b.t.callbacks(rest, b.a.Pkg+"."+b.a.Name)
	b.t.escape(rest)
}

func (b *libCall) Position() string { return b.t.info(ir.KindCall, "").Position() }

// runInTx is pgx.BeginFunc(ctx, db, fn) (BeginTxFunc: with options
// opts): begin, run fn with the transaction, roll back if it fails, else
// commit.
func (t *translator) runInTx(a apiCall, db, fn value, results *types.Tuple, opts txOptions) value {
	if db.obj != nil && db.obj.kind == objTx {
		t.unsupported("nested transaction (%s on a transaction: a savepoint)", a.Name)
		return t.freshResults(a.Name+"()", results)
	}
	if fn.obj == nil || (fn.obj.kind != objClosure && fn.obj.kind != objFunc) {
		t.unsupported("%s with a function the analysis cannot resolve", a.Name)
		return t.freshResults(a.Name+"()", results)
	}
	id, beginErr := t.beginTx(opts)
	out := t.errVar()
	join := t.p.NewLoc()
	from := t.cur
	t.emit(&ir.Assume{Cond: beginErr, Info: t.info(ir.KindBranch, "")})
	t.edge(join, &ir.Assign{Lhs: []*ir.Var{out}, Rhs: []ir.Expr{ir.True}, Info: t.info(ir.KindModel, "")})
	t.cur = from
	t.emit(&ir.Assume{Cond: ir.Not(beginErr), Info: t.info(ir.KindBranch, "")})
	pos := t.pos
	res := t.callValue(fn, []value{{obj: &object{kind: objTx, tx: id}}})
	t.pos = pos
	fnErr := res.expr
	if fnErr == nil {
		fnErr = t.freshVar("err", ir.Bool, ir.KindCall)
	}
	failed := t.cur
	t.emit(&ir.Assume{Cond: fnErr, Info: t.info(ir.KindBranch, "")})
	rbErr := t.errVar()
	t.emit(&ir.TxOp{Op: ir.Rollback, Tx: id, Err: rbErr, Info: t.info(ir.KindSQL, "ROLLBACK")})
	t.edge(join, &ir.Assign{Lhs: []*ir.Var{out}, Rhs: []ir.Expr{ir.True}, Info: t.info(ir.KindModel, "")})
	t.cur = failed
	t.emit(&ir.Assume{Cond: ir.Not(fnErr), Info: t.info(ir.KindBranch, "")})
	commitErr := t.errVar()
	t.emit(&ir.TxOp{Op: ir.Commit, Tx: id, Err: commitErr, Info: t.info(ir.KindSQL, "COMMIT")})
	t.edge(join, &ir.Assign{Lhs: []*ir.Var{out}, Rhs: []ir.Expr{commitErr}, Info: t.info(ir.KindModel, "")})
	t.cur = join
	return value{expr: out}
}
