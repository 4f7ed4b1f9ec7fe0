package frontend

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlparse"
)

// database/sql's named arguments: sql.Named("n", n) is a NamedArg
// {Name, Value}, bound by SQLite drivers to the placeholder :n, @n or $n
// of that name. The MySQL and PostgreSQL drivers reject them.

// namedArgFields are the fields of database/sql.NamedArg: an unexported
// marker, Name, Value.
const (
	namedArgName  = 1
	namedArgValue = 2
)

// namedArgCall models sql.Named(name, value); the value keeps its Go
// type (boxed).
func (t *translator) namedArgCall(instr ssa.CallInstruction, path, name string, args []value) (value, bool) {
	if path != "database/sql" || name != "Named" || len(args) != 2 {
		return value{}, false
	}
	v := args[1]
	if ops := instr.Common().Args; len(ops) == 2 {
		v = boxed(ops[1], v)
	}
	return value{fields: []value{{}, args[0], v}}, true
}

// boxed returns scalar v, the translation of x, with the Go type it had
// before x boxed it into an interface as its dynamic type (x's own type
// when x is not a boxing): what floatValues reads.
func boxed(x ssa.Value, v value) value {
	if v.expr == nil || v.dyn != nil {
		return v
	}
	if mi, ok := x.(*ssa.MakeInterface); ok {
		v.dyn = mi.X.Type()
	} else if _, isIface := x.Type().Underlying().(*types.Interface); !isIface {
		v.dyn = x.Type()
	}
	return v
}

// isNamedArg reports whether v is an interface value holding a
// database/sql.NamedArg.
func isNamedArg(v value) bool {
	n, ok := v.dyn.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "database/sql" && n.Obj().Name() == "NamedArg"
}

// sqlNamedArgs binds the arguments of a call that passes sql.Named values:
// by name to the query's named placeholders. ok is false when no argument
// is a NamedArg; a binding the model cannot make (a name not known, a
// placeholder without its argument, a driver that rejects named
// arguments) is unsupported and its values arbitrary. floats are the
// placeholders bound to Go floats (floatValues).
func (t *translator) sqlNamedArgs(params value, text string) (_ []ir.Expr, floats map[int]bool, _ bool) {
	elems := t.sliceElems(params)
	named := false
	for _, e := range elems {
		named = named || isNamedArg(e)
	}
	if !named {
		return nil, nil, false
	}
	if t.dialect != sqlparse.SQLite {
		t.unsupported("sql.Named arguments with the %s driver (it rejects named arguments; only SQLite drivers bind them)", t.dialect)
		return nil, nil, true
	}
	names, numParams, err := t.l.placeholders(t.dialect, text)
	if err != nil {
		return nil, nil, true // (runSQL reports the text)
	}
	if len(names) != numParams {
		t.unsupported("sql.Named arguments for a query with positional placeholders")
		return nil, nil, true
	}
	byName := map[string]value{}
	for _, e := range elems {
		if !isNamedArg(e) || len(e.fields) <= namedArgValue || !e.fields[namedArgName].strKnown {
			t.unsupported("an argument list that mixes sql.Named values with others, or names not known here")
			return nil, nil, true
		}
		byName[e.fields[namedArgName].str] = e.fields[namedArgValue]
	}
	out := make([]ir.Expr, numParams)
	bound := make([]value, numParams)
	for i, n := range names {
		v, ok := byName[n]
		if !ok {
			t.unsupported("placeholder :%s has no sql.Named argument", n)
			return nil, nil, true
		}
		out[i], bound[i] = v.expr, v
	}
	return out, floatValues(bound), true
}

// floatValues returns the indexes of vals that hold Go floats (their
// dynamic type when bound through an interface): a NaN among them is
// bound as the real part of nothing the model follows (floatnan.go
// nanArgs), as for positional arguments.
func floatValues(vals []value) map[int]bool {
	var out map[int]bool
	for i, v := range vals {
		if isFloatType(v.dyn) {
			if out == nil {
				out = map[int]bool{}
			}
			out[i] = true
		}
	}
	return out
}

// isFloatType reports whether typ is a Go float type.
func isFloatType(typ types.Type) bool {
	if typ == nil {
		return false
	}
	b, ok := typ.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsFloat != 0
}
