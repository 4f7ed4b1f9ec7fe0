package dblib

import (
	"go/types"
)

// Call is a call of a library method or function, with the positions of
// its operands in the call's argument list (the receiver of a method is
// argument 0; -1: absent).
type Call struct {
	Kind Kind   // the kind of the handle the call is on
	Pkg  string // the library's import path ("" for a user interface's method)
	Name string // the method or function name
	Method
	Self int // the handle
	// Query is the SQL text, Params the variadic placeholder values, Dest
	// sqlx's destination, Named sqlx's named argument.
	Query, Params, Dest, Named int
}

// Resolve describes a call of f, a function or method of a modelled
// library; sig is the call's signature (nil: f's). A package function is
// on its first handle-typed (or database-interface-typed) parameter
// (sqlx.Get(q, dest, query, …)), or NoHandle.
func Resolve(f *types.Func, sig *types.Signature) (Call, bool) {
	if f == nil || f.Pkg() == nil || !IsLibraryPackage(f.Pkg().Path()) {
		return Call{}, false
	}
	m := index.methods[f.FullName()]
	fsig := f.Type().(*types.Signature)
	if recv := fsig.Recv(); recv != nil {
		kind, ok := KindOf(recv.Type())
		if !ok {
			return Call{}, false
		}
		if sig == nil {
			sig = fsig
		}
		c := describe(kind, f.Name(), m, sig, 0, 1)
		c.Pkg = f.Pkg().Path()
		return c, true
	}
	for i := 0; i < fsig.Params().Len(); i++ {
		t := fsig.Params().At(i).Type()
		kind, ok := KindOf(t)
		if !ok && IsDBInterface(t) {
			kind, ok = DB, true
		}
		if ok {
			c := describe(kind, f.Name(), m, fsig, i, 0)
			c.Pkg = f.Pkg().Path()
			return c, true
		}
	}
	c := describe(NoHandle, f.Name(), m, fsig, -1, 0)
	c.Pkg = f.Pkg().Path()
	return c, true
}

// OnHandle describes a call of method m (an interface method) on a handle
// of kind: a library interface's method by its qualified name (pgx.Tx's
// Exec), a user interface's (sqlc's DBTX) by its bare name (ByName).
// self and off are as in describe: the receiver is argument 0 of the
// translated call, its parameters start at 1.
func OnHandle(kind Kind, m *types.Func, sig *types.Signature, self, off int) Call {
	meth, ok := index.methods[m.FullName()]
	if !ok {
		meth = ByName(m.Name())
	}
	c := describe(kind, m.Name(), meth, sig, self, off)
	if ok && m.Pkg() != nil {
		c.Pkg = m.Pkg().Path() // a library interface's method (pgx.Row's Scan)
	}
	return c
}

// ByName returns what a method of that name does on a database-shaped
// interface the program declares: the first library (in Libraries order)
// with a method of that name says.
func ByName(name string) Method { return index.byName[name] }

// describe computes the operand positions of a call of name on a handle
// of kind from its signature, whose parameters start at argument index
// off; self is the handle's argument index.
func describe(kind Kind, name string, m Method, sig *types.Signature, self, off int) Call {
	c := Call{Kind: kind, Name: name, Method: m, Self: self, Query: -1, Params: -1, Dest: -1, Named: -1}
	params := sig.Params()
	first := -1 // first parameter that is not a context (nor the handle)
	for i := 0; i < params.Len(); i++ {
		if i+off == self || isContext(params.At(i).Type()) {
			continue
		}
		if first < 0 {
			first = i
		}
		if c.Query < 0 && isString(params.At(i).Type()) {
			c.Query = i + off
		}
	}
	if sig.Variadic() {
		c.Params = params.Len() - 1 + off
	}
	switch c.Op {
	case Get, Select:
		if c.Query >= 0 {
			c.Dest = c.Query - 1
		} else if first >= 0 {
			c.Dest = first + off // (*Stmt).Get(dest, args...)
			if kind == Stmt && !sig.Variadic() && first+1 < params.Len() {
				c.Named = first + 1 + off // (*NamedStmt).Get(dest, arg)
			}
		}
	case NamedExec, NamedQuery:
		if c.Query >= 0 {
			c.Named = c.Query + 1
		}
	}
	if kind == Stmt && !sig.Variadic() && c.Named < 0 && first >= 0 && (c.Op == Exec || c.Op == Query || c.Op == QueryRow) {
		c.Named = first + off // (*NamedStmt).Exec(arg)
	}
	return c
}

// SQLSite reports whether the call runs SQL text given as an argument on
// a connection or transaction.
func (c Call) SQLSite() bool {
	return c.Op.RunsText() && c.Query >= 0 && (c.Kind == DB || c.Kind == Tx)
}

// isContext reports whether t is context.Context.
func isContext(t types.Type) bool {
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}
