package frontend

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/frontend/dblib"
)

// A library type that holds a database connection the front end does
// not model — GORM's *gorm.DB (its ConnPool), a struct of a library
// holding a *sql.DB (gorm's postgres.Config), pgx's wire-protocol
// *pgconn.PgConn — runs SQL dbverify does not read when one is given to
// a call outside the module: the entry is UNKNOWN naming the call, and
// the function a possible writer of every table (mayRunUnknownSQL).
// Types of the module are not: their methods are analysed.

// maxHolderDepth bounds how deep into struct fields and pointers a
// connection is looked for.
const maxHolderDepth = 8

// connHolderArg returns the type of the first argument of c (the
// receiver of a method is one, as is the receiver bound in a method
// value g.Save) that holds a connection the front end does not model,
// unless the callee is a method of a raw connection that runs no SQL
// (pgconn's PID). fn, when not nil, is the function the call runs.
func (l *Loaded) connHolderArg(c *ssa.CallCommon, fn *ssa.Function) (types.Type, bool) {
	var ts []types.Type
	for _, callee := range []*ssa.Function{c.StaticCallee(), fn} {
		if callee == nil {
			continue
		}
		if f, ok := callee.Object().(*types.Func); ok && dblib.RunsNoSQL(f) {
			return nil, false
		}
		for _, fv := range callee.FreeVars {
			ts = append(ts, fv.Type())
		}
	}
	for _, a := range c.Args {
		t := a.Type()
		if mi, ok := a.(*ssa.MakeInterface); ok {
			t = mi.X.Type()
		}
		ts = append(ts, t)
	}
	for _, t := range ts {
		if l.holdsUnmodelledConn(t) {
			return t, true
		}
	}
	return nil, false
}

// holdsUnmodelledConn reports whether typ (or *typ) is a type declared
// outside the module, not a handle the libraries model, that holds a
// connection: a raw connection of a library, or a struct whose fields
// (through pointers and embedding) hold a modelled connection,
// transaction or statement, a database interface (GORM's ConnPool) or a
// raw connection.
func (l *Loaded) holdsUnmodelledConn(typ types.Type) bool {
	n := namedOf(typ)
	if n == nil || n.Obj().Pkg() == nil || l.declaredInModule(n.Obj().Pkg()) {
		return false
	}
	if _, ok := dblib.KindOf(typ); ok {
		return false
	}
	return holdsConn(typ, map[types.Type]bool{}, 0)
}

// namedOf returns the named type of t or *t, or nil.
func namedOf(t types.Type) *types.Named {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := t.(*types.Named)
	return n
}

// holdsConn reports whether a value of typ holds a connection (see
// holdsUnmodelledConn), looking through pointers, struct fields and
// arrays, not through maps, slices, channels or functions.
func holdsConn(typ types.Type, seen map[types.Type]bool, depth int) bool {
	if depth > maxHolderDepth || seen[typ] {
		return false
	}
	seen[typ] = true
	if k, ok := dblib.KindOf(typ); ok {
		return k == dblib.DB || k == dblib.Tx || k == dblib.Stmt
	}
	if dblib.IsRawConn(typ) {
		return true
	}
	if types.IsInterface(typ) {
		return dblib.IsDBInterface(typ)
	}
	switch u := typ.Underlying().(type) {
	case *types.Pointer:
		return holdsConn(u.Elem(), seen, depth+1)
	case *types.Array:
		return holdsConn(u.Elem(), seen, depth+1)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if holdsConn(u.Field(i).Type(), seen, depth+1) {
				return true
			}
		}
	}
	return false
}

// connHolderCall makes the entry UNKNOWN when the call of fn (outside
// the module) is given a value that holds a connection the front end
// does not model.
func (t *translator) connHolderCall(fn *ssa.Function, c *ssa.CallCommon) bool {
	typ, ok := t.l.connHolderArg(c, fn)
	if !ok {
		return false
	}
	t.unsupported("%s runs SQL dbverify does not read: a %s holds a database connection the analysis does not model", libCalleeText(fn), types.TypeString(typ, (*types.Package).Name))
	return true
}

// libCalleeText names fn as calleeText does, and a method value's bound
// wrapper ((*gorm.DB).Save$bound) as its method.
func libCalleeText(fn *ssa.Function) string {
	if f, ok := fn.Object().(*types.Func); ok && fn.Signature.Recv() == nil {
		if recv := f.Type().(*types.Signature).Recv(); recv != nil {
			return "(" + types.TypeString(recv.Type(), (*types.Package).Name) + ")." + f.Name()
		}
	}
	return calleeText(fn)
}
