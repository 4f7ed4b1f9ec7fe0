package frontend

// Arbitrary values: the results of code the model does not see, and the
// inputs of an entry point (its arguments and the memory they reach).

import (
	"go/types"

	"github.com/dbverify/dbverify/frontend/dblib"
	"github.com/dbverify/dbverify/ir"
)

// errVar returns a new variable for the error a database call returns.
func (t *translator) errVar() *ir.Var {
	v := t.p.NewVar("err", ir.Bool, ir.Local)
	v.Err = true
	return v
}

// markSQLErr marks the error result of a database operation (ir.Var.SQLErr).
func markSQLErr(s ir.Stmt) {
	var err *ir.Var
	switch s := s.(type) {
	case *ir.Exec:
		err = s.Err
	case *ir.Select:
		err = s.Err
	case *ir.TxOp:
		err = s.Err
	}
	if err != nil {
		err.SQLErr = true
	}
}

// freshVar returns a new variable with an arbitrary value (a Havoc edge).
func (t *translator) freshVar(name string, s ir.Sort, kind ir.StepKind) *ir.Var {
	v := t.p.NewVar(name, s, ir.Local)
	t.emit(&ir.Havoc{Vars: []*ir.Var{v}, Info: t.info(kind, "")})
	return v
}

// fresh returns an arbitrary value of type typ.
func (t *translator) fresh(name string, typ types.Type) value {
	if s, ok := sortOf(typ); ok {
		if s == ir.Real {
			// A float the model does not compute may be NaN (floatnan.go).
			v := t.p.NewVar(name, s, ir.Local)
			t.emit(&ir.Havoc{Vars: []*ir.Var{v, t.nanSource(v)}, Info: t.info(ir.KindCall, "")})
			return value{expr: v}
		}
		v := t.freshVar(name, s, ir.KindCall)
		v.Str, v.Err = isStringType(typ), isError(typ)
		t.unsignedRange(v, typ, ir.KindFact)
		return value{expr: v}
	}
	if h, ok := t.freshHandle(typ); ok {
		return h
	}
	switch u := typ.Underlying().(type) {
	case *types.Struct:
		fs := make([]value, u.NumFields())
		for i := range fs {
			fs[i] = t.fresh(name+"."+u.Field(i).Name(), u.Field(i).Type())
			if t.internalField(u.Field(i)) {
				markInternal(fs[i])
			}
		}
		return value{fields: fs}
	case *types.Tuple:
		if u.Len() == 1 {
			// A single result is the value itself (as an inlined call's
			// is), so that every use of it is the same variable.
			return t.fresh(name, u.At(0).Type())
		}
		ts := make([]value, u.Len())
		for i := range ts {
			ts[i] = t.fresh(name, u.At(i).Type())
		}
		return value{tuple: ts}
	case *types.Slice, *types.Map, *types.Array:
		return value{obj: &object{kind: objSlice, length: t.freshLen(name), arbitrary: true}}
	}
	return value{}
}

// freshHandle is a database handle a call returns (sql.Open,
// pgxpool.New, a constructor outside the module): tracked as a handle, so
// that handing it to code the model does not see is reported as such
// (it was an untracked value, and a main that opens a handle and passes
// it to a library that writes was SAFE).
func (t *translator) freshHandle(typ types.Type) (value, bool) {
	if k, ok := dbObjectKind(typ); ok && (k == objDB || k == objTx || k == objStmt) {
		if dblib.IsConn(typ) {
			return value{obj: t.newConn()}, true
		}
		return value{obj: &object{kind: k}}, true
	}
	if dblib.IsDBInterface(typ) {
		return value{obj: &object{kind: objDB}}, true
	}
	return value{}, false
}

func (t *translator) freshLen(name string) ir.Expr {
	n := t.freshVar("len("+name+")", ir.Int, ir.KindCall)
	t.emit(&ir.Assume{Cond: ir.Cmp(ir.OpGe, n, ir.IntLit(0)), Info: t.info(ir.KindModel, "")})
	return n
}

// input returns the value of an entry argument (or of memory reached from
// one): arbitrary, named after the Go expression.
func (t *translator) input(name string, typ types.Type, depth int) value {
	if s, ok := sortOf(typ); ok {
		v := t.p.NewVar(name, s, ir.Input)
		v.Str, v.Err = isStringType(typ), isError(typ)
		t.nanSource(v) // a float input may be NaN (floatnan.go)
		if depth == 0 {
			t.p.Inputs = append(t.p.Inputs, v)
		}
		t.unsignedRange(v, typ, ir.KindModel)
		return value{expr: v}
	}
	if k, ok := dbObjectKind(typ); ok {
		if dblib.IsConn(typ) {
			return t.inputHandle(name, t.newConn())
		}
		return t.inputHandle(name, &object{kind: k})
	}
	if dblib.IsDBInterface(typ) {
		// A DBTX-like interface handed in from outside: a connection (or a
		// transaction begun by the caller) whose statements take effect
		// as they run.
		return t.inputHandle(name, &object{kind: objDB})
	}
	switch u := typ.Underlying().(type) {
	case *types.Pointer:
		if depth > 6 {
			return value{}
		}
		c := t.newCell(u.Elem(), name, true)
		return value{obj: &object{kind: objPtr, cell: c}, nonNil: t.p.NewVar(name+" != nil", ir.Bool, ir.Input)}
	case *types.Struct:
		if depth > 6 {
			return value{}
		}
		fs := make([]value, u.NumFields())
		for i := range fs {
			if text, ok := t.l.preparedText(u.Field(i)); ok {
				// A statement field the program prepares once (prepared.go).
				fs[i] = value{obj: &object{kind: objStmt, text: text}}
				continue
			}
			fs[i] = t.input(name+"."+u.Field(i).Name(), u.Field(i).Type(), depth+1)
			if texts, ok := t.l.constFieldTexts(u.Field(i)); ok {
				fs[i] = t.constTexts(fs[i], texts)
			}
			t.markFilledMap(fs[i], u.Field(i), name+"."+u.Field(i).Name())
			if t.internalField(u.Field(i)) {
				markInternal(fs[i])
			}
		}
		return value{fields: fs}
	case *types.Slice, *types.Map, *types.Array:
		n := t.p.NewVar("len("+name+")", ir.Int, ir.Input)
		t.emit(&ir.Assume{Cond: ir.Cmp(ir.OpGe, n, ir.IntLit(0)), Info: t.info(ir.KindModel, "")})
		return value{obj: &object{kind: objSlice, length: n, arbitrary: true}}
	}
	if types.IsInterface(typ) {
		// An interface argument: one dynamic type for every call on it
		// (see implOf), carried by a cell of its own.
		return value{src: &cell{typ: typ, name: name, input: true}}
	}
	return value{}
}

// inputHandle is a database handle the caller hands in (an argument, a
// field of the receiver): its nil-ness is an input too, one variable
// that every `h != nil` reads. Each test was a new arbitrary value, so
// that a repository's `if r.tx != nil` could run its read on the
// transaction and its write on the pool in one call (adv18 m1).
func (t *translator) inputHandle(name string, o *object) value {
	return value{obj: o, nonNil: t.p.NewVar(name+" != nil", ir.Bool, ir.Input)}
}

// unsignedRange assumes an arbitrary value of an unsigned integer type is
// not negative. The result of a call is assumed so as a fact
// (ir.KindFact): it holds of whatever the call really returns, so a
// counterexample that passes it does not depend on a result the model
// approximates (vcgen.ApproxReads; adv8 F2: t.Add's wall field, copied
// into a column nothing reads, made an expiry reset "may be spurious").
// An entry's input keeps the model's kind, which refinement may take
// predicates from.
func (t *translator) unsignedRange(v *ir.Var, typ types.Type, kind ir.StepKind) {
	if b, ok := typ.Underlying().(*types.Basic); ok && b.Info()&types.IsUnsigned != 0 {
		t.emit(&ir.Assume{Cond: ir.Cmp(ir.OpGe, v, ir.IntLit(0)), Info: t.info(kind, "")})
	}
}

// sortOf returns the IR sort of a scalar Go type: integers and strings are
// Int, floats and shopspring/decimal.Decimal Real, booleans and error
// values Bool.
func sortOf(typ types.Type) (ir.Sort, bool) {
	if isError(typ) {
		return ir.Bool, true
	}
	if isDecimal(typ) {
		return ir.Real, true
	}
	b, ok := typ.Underlying().(*types.Basic)
	if !ok {
		return 0, false
	}
	switch {
	case b.Info()&types.IsBoolean != 0:
		return ir.Bool, true
	case b.Info()&types.IsInteger != 0, b.Info()&types.IsString != 0:
		return ir.Int, true
	case b.Info()&types.IsFloat != 0:
		return ir.Real, true
	}
	return 0, false
}

var errorType = types.Universe.Lookup("error").Type()

func isError(t types.Type) bool { return types.Identical(t, errorType) }
