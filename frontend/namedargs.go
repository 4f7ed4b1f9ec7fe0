package frontend

import (
	"go/types"

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

// namedArgCall models sql.Named(name, value).
func (t *translator) namedArgCall(path, name string, args []value) (value, bool) {
	if path != "database/sql" || name != "Named" || len(args) != 2 {
		return value{}, false
	}
	return value{fields: []value{{}, args[0], args[1]}}, true
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
// arguments) is unsupported and its values arbitrary.
func (t *translator) sqlNamedArgs(params value, text string) ([]ir.Expr, bool) {
	elems := t.sliceElems(params)
	named := false
	for _, e := range elems {
		named = named || isNamedArg(e)
	}
	if !named {
		return nil, false
	}
	if t.dialect != sqlparse.SQLite {
		t.unsupported("sql.Named arguments with the %s driver (it rejects named arguments; only SQLite drivers bind them)", t.dialect)
		return nil, true
	}
	names, numParams, err := t.l.placeholders(t.dialect, text)
	if err != nil {
		return nil, true // (runSQL reports the text)
	}
	if len(names) != numParams {
		t.unsupported("sql.Named arguments for a query with positional placeholders")
		return nil, true
	}
	byName := map[string]value{}
	for _, e := range elems {
		if !isNamedArg(e) || len(e.fields) <= namedArgValue || !e.fields[namedArgName].strKnown {
			t.unsupported("an argument list that mixes sql.Named values with others, or names not known here")
			return nil, true
		}
		byName[e.fields[namedArgName].str] = e.fields[namedArgValue]
	}
	out := make([]ir.Expr, numParams)
	for i, n := range names {
		v, ok := byName[n]
		if !ok {
			t.unsupported("placeholder :%s has no sql.Named argument", n)
			return nil, true
		}
		out[i] = v.expr
	}
	return out, true
}
