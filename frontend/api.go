package frontend

import (
	"go/types"
	"reflect"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/tools/go/ssa"
)

// The database libraries the front end models: database/sql, sqlx and
// pgx (v4 and v5, with pgxpool and pgconn). Their handle types map to the
// object kinds of values.go, and their methods and functions to a few
// operations (run SQL, begin/commit/rollback, scan).

// handleTypes maps "import path.TypeName" of a library type to the kind of
// object its values are.
var handleTypes = map[string]objKind{
	"database/sql.DB": objDB, "database/sql.Conn": objDB, "database/sql.Tx": objTx,
	"database/sql.Stmt": objStmt, "database/sql.Row": objRow, "database/sql.Rows": objRows,
	"database/sql.Result": objResult,

	"github.com/jmoiron/sqlx.DB": objDB, "github.com/jmoiron/sqlx.Conn": objDB,
	"github.com/jmoiron/sqlx.Tx": objTx, "github.com/jmoiron/sqlx.Stmt": objStmt,
	"github.com/jmoiron/sqlx.NamedStmt": objStmt, "github.com/jmoiron/sqlx.Row": objRow,
	"github.com/jmoiron/sqlx.Rows": objRows,

	"github.com/jackc/pgx/v5.Conn": objDB, "github.com/jackc/pgx/v5.Tx": objTx,
	"github.com/jackc/pgx/v5.Row": objRow, "github.com/jackc/pgx/v5.Rows": objRows,
	"github.com/jackc/pgx/v5/pgxpool.Pool": objDB, "github.com/jackc/pgx/v5/pgxpool.Conn": objDB,
	"github.com/jackc/pgx/v5/pgxpool.Tx":        objTx,
	"github.com/jackc/pgx/v5/pgconn.CommandTag": objResult,

	"github.com/jackc/pgx/v4.Conn": objDB, "github.com/jackc/pgx/v4.Tx": objTx,
	"github.com/jackc/pgx/v4.Row": objRow, "github.com/jackc/pgx/v4.Rows": objRows,
	"github.com/jackc/pgx/v4/pgxpool.Pool": objDB, "github.com/jackc/pgx/v4/pgxpool.Conn": objDB,
	"github.com/jackc/pgx/v4/pgxpool.Tx": objTx,
	"github.com/jackc/pgconn.CommandTag": objResult,
}

// connTypes are the handle types of one connection of a pool: statements
// on it run in order on the same session.
var connTypes = map[string]bool{
	"database/sql.Conn": true, "github.com/jmoiron/sqlx.Conn": true,
	"github.com/jackc/pgx/v5.Conn": true, "github.com/jackc/pgx/v5/pgxpool.Conn": true,
	"github.com/jackc/pgx/v4.Conn": true, "github.com/jackc/pgx/v4/pgxpool.Conn": true,
}

// isConnType reports whether t (or *t) is one of connTypes.
func isConnType(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && connTypes[n.Obj().Pkg().Path()+"."+n.Obj().Name()]
}

// libPackages are the import paths of the modelled libraries.
var libPackages = map[string]bool{
	"database/sql":                    true,
	"github.com/jmoiron/sqlx":         true,
	"github.com/jackc/pgx/v5":         true,
	"github.com/jackc/pgx/v5/pgxpool": true,
	"github.com/jackc/pgx/v5/pgconn":  true,
	"github.com/jackc/pgx/v4":         true,
	"github.com/jackc/pgx/v4/pgxpool": true,
	"github.com/jackc/pgconn":         true,
}

// dbObjectKind classifies the handle types of the modelled libraries.
func dbObjectKind(t types.Type) (objKind, bool) {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return 0, false
	}
	k, ok := handleTypes[n.Obj().Pkg().Path()+"."+n.Obj().Name()]
	return k, ok
}

// sqlOp is what a library call does with SQL.
type sqlOp uint8

const (
	opNone         sqlOp = iota
	opExec               // Exec: run a statement, (Result, error)
	opQuery              // Query: (Rows, error)
	opQueryRow           // QueryRow: Row
	opPrepare            // Prepare: (Stmt, error)
	opGet                // sqlx Get: QueryRow and scan into dest
	opSelect             // sqlx Select: Query and scan every row into a slice
	opNamedExec          // sqlx NamedExec: :name parameters from a struct or map
	opNamedQuery         // sqlx NamedQuery
	opPrepareNamed       // sqlx PrepareNamed
)

// sqlOps maps method and function names to their operation. The
// Context variants take a context first; Must variants panic on error; the
// x variants return sqlx's Rows/Row/Stmt.
var sqlOps = map[string]sqlOp{
	"Exec": opExec, "ExecContext": opExec, "MustExec": opExec, "MustExecContext": opExec,
	"Query": opQuery, "QueryContext": opQuery, "Queryx": opQuery, "QueryxContext": opQuery,
	"QueryRow": opQueryRow, "QueryRowContext": opQueryRow, "QueryRowx": opQueryRow, "QueryRowxContext": opQueryRow,
	"Prepare": opPrepare, "PrepareContext": opPrepare, "Preparex": opPrepare, "PreparexContext": opPrepare,
	"Get": opGet, "GetContext": opGet,
	"Select": opSelect, "SelectContext": opSelect,
	"NamedExec": opNamedExec, "NamedExecContext": opNamedExec,
	"NamedQuery": opNamedQuery, "NamedQueryContext": opNamedQuery,
	"PrepareNamed": opPrepareNamed, "PrepareNamedContext": opPrepareNamed,
}

// beginNames are the methods that begin a transaction.
var beginNames = map[string]bool{
	"Begin": true, "BeginTx": true, "Beginx": true, "BeginTxx": true,
	"MustBegin": true, "MustBeginTx": true,
}

// runsCallback reports whether the call is a library function that runs
// the function it is given inside itself (pgx.BeginFunc): the function is
// inlined there, not an entry point of its own.
func (a apiCall) runsCallback() bool { return a.name == "BeginFunc" || a.name == "BeginTxFunc" }

// isDBMethod reports whether name is a method that runs SQL or controls a
// transaction.
func isDBMethod(name string) bool {
	return sqlOps[name] != opNone || beginNames[name] || name == "Commit" || name == "Rollback"
}

// apiCall is a call of a modelled library method or function, with the
// positions of its operands in the call's argument list (the receiver of
// a method is argument 0).
type apiCall struct {
	kind objKind // the kind of the handle the call is on
	pkg  string  // the library's import path ("" for an interface method)
	name string  // the method or function name
	op   sqlOp
	self int // argument index of the handle, -1: none
	// Argument indexes, -1 when absent: the SQL text, the variadic
	// placeholder values, the sqlx destination, the sqlx named argument.
	query, params, dest, named int
	// argTypes are the arguments' types (before conversion to any).
	argTypes []types.Type
}

// argType returns the type of argument i, or nil.
func (a apiCall) argType(i int) types.Type {
	if i >= 0 && i < len(a.argTypes) {
		return a.argTypes[i]
	}
	return nil
}

// must reports whether the call panics instead of returning an error.
func (a apiCall) must() bool { return strings.HasPrefix(a.name, "Must") }

// newAPICall describes a call of name with signature sig on a handle of
// kind, where the signature's parameters start at argument index off.
func newAPICall(kind objKind, name string, sig *types.Signature, self, off int) apiCall {
	a := apiCall{kind: kind, name: name, op: sqlOps[name], self: self, query: -1, params: -1, dest: -1, named: -1}
	params := sig.Params()
	first := -1 // first parameter that is not a context (nor the handle)
	for i := 0; i < params.Len(); i++ {
		if i+off == self || isContext(params.At(i).Type()) {
			continue
		}
		if first < 0 {
			first = i
		}
		if a.query < 0 && isString(params.At(i).Type()) {
			a.query = i + off
		}
	}
	if sig.Variadic() {
		a.params = params.Len() - 1 + off
	}
	switch a.op {
	case opGet, opSelect:
		if a.query >= 0 {
			a.dest = a.query - 1
		} else if first >= 0 {
			a.dest = first + off // (*Stmt).Get(dest, args...)
			if kind == objStmt && !sig.Variadic() && first+1 < params.Len() {
				a.named = first + 1 + off // (*NamedStmt).Get(dest, arg)
			}
		}
	case opNamedExec, opNamedQuery:
		if a.query >= 0 {
			a.named = a.query + 1
		}
	}
	if kind == objStmt && !sig.Variadic() && a.named < 0 && first >= 0 && (a.op == opExec || a.op == opQuery || a.op == opQueryRow) {
		a.named = first + off // (*NamedStmt).Exec(arg)
	}
	return a
}

// isContext reports whether t is context.Context.
func isContext(t types.Type) bool {
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}

// libFunc returns the library function or method f stands for, following
// promoted-method wrappers (sqlx.DB embeds *sql.DB).
func libFunc(fn *ssa.Function) *types.Func {
	if fn == nil {
		return nil
	}
	f, ok := fn.Object().(*types.Func)
	if !ok || f.Pkg() == nil || !libPackages[f.Pkg().Path()] {
		return nil
	}
	return f
}

// staticAPICall classifies a static call (or a call of a function value
// fn) of a library function or method. Package functions of sqlx
// (sqlx.Get(q, dest, query, …)) are on their first handle-typed argument.
func staticAPICall(fn *ssa.Function, sig *types.Signature) (apiCall, bool) {
	f := libFunc(fn)
	if f == nil {
		return apiCall{}, false
	}
	fsig := f.Type().(*types.Signature)
	if recv := fsig.Recv(); recv != nil {
		kind, ok := dbObjectKind(recv.Type())
		if !ok {
			return apiCall{}, false
		}
		if sig == nil {
			sig = fsig
		}
		a := newAPICall(kind, f.Name(), sig, 0, 1)
		a.pkg = f.Pkg().Path()
		return a, true
	}
	for i := 0; i < fsig.Params().Len(); i++ {
		t := fsig.Params().At(i).Type()
		kind, ok := dbObjectKind(t)
		if !ok && isDBInterface(t) {
			kind, ok = objDB, true
		}
		if ok {
			a := newAPICall(kind, f.Name(), fsig, i, 0)
			a.pkg = f.Pkg().Path()
			return a, true
		}
	}
	return apiCall{kind: objNil, pkg: f.Pkg().Path(), name: f.Name(), self: -1, query: -1, params: -1, dest: -1, named: -1}, true
}

// isDBInterface reports whether typ is an interface with a query method
// shaped like a library's (ExecContext(ctx, query string, …), pgx's
// Exec(ctx, sql string, …)): sqlc's DBTX, sqlx's Ext.
func isDBInterface(typ types.Type) bool {
	it, ok := typ.Underlying().(*types.Interface)
	if !ok {
		return false
	}
	if _, ok := dbObjectKind(typ); ok {
		return false
	}
	for i := 0; i < it.NumMethods(); i++ {
		m := it.Method(i)
		if sqlOps[m.Name()] == opNone {
			continue
		}
		// (The results must look like a database library's too: echo's
		// Context has Get(key string) any.)
		sig := m.Type().(*types.Signature)
		if a := newAPICall(objDB, m.Name(), sig, 0, 1); a.query >= 0 && resultsLookDB(sig) {
			return true
		}
	}
	return false
}

// dbColumnName returns the column sqlx maps struct field f to: its `db`
// tag, else its name in lower case; "" for a field sqlx skips.
func dbColumnName(f *types.Var, tag string) string {
	if !f.Exported() && !f.Embedded() {
		return ""
	}
	if v, ok := reflect.StructTag(tag).Lookup("db"); ok {
		name, _, _ := strings.Cut(v, ",")
		if name == "-" {
			return ""
		}
		if name != "" {
			return name
		}
	}
	return strings.ToLower(f.Name())
}

// compileNamed rewrites sqlx's :name parameters into positional ones
// (`?`, or `$n` when dollar), as sqlx's compileNamedQuery does: `::` is an
// escaped colon and `:=` is kept. It returns the names in order.
func compileNamed(query string, dollar bool) (string, []string) {
	var out strings.Builder
	var names []string
	inName := false
	var name []byte
	last := len(query) - 1
	allowed := func(b byte) bool {
		r := rune(b)
		return unicode.IsLetter(r) || unicode.IsDigit(r) || b == '_' || b == '.'
	}
	flush := func() {
		names = append(names, string(name))
		if dollar {
			out.WriteString("$" + strconv.Itoa(len(names)))
		} else {
			out.WriteByte('?')
		}
	}
	for i := 0; i < len(query); i++ {
		b := query[i]
		switch {
		case b == ':':
			if inName && i > 0 && query[i-1] == ':' {
				out.WriteByte(':')
				inName = false
				continue
			}
			inName, name = true, name[:0]
		case inName && b == '=' && len(name) == 0:
			out.WriteString(":=")
			inName = false
		case inName && allowed(b) && i != last:
			name = append(name, b)
		case inName:
			inName = false
			if i == last && allowed(b) {
				name = append(name, b)
			}
			flush()
			if i != last || !allowed(b) {
				out.WriteByte(b)
			}
		default:
			out.WriteByte(b)
		}
	}
	return out.String(), names
}

// rebindDollar replaces `?` placeholders outside quotes with $1, $2, …
// (sqlx's Rebind for Postgres drivers).
func rebindDollar(query string) string {
	var out strings.Builder
	n := 0
	var quote byte
	for i := 0; i < len(query); i++ {
		b := query[i]
		switch {
		case quote != 0:
			if b == quote {
				quote = 0
			}
		case b == '\'' || b == '"':
			quote = b
		case b == '?':
			n++
			out.WriteString("$" + strconv.Itoa(n))
			continue
		}
		out.WriteByte(b)
	}
	return out.String()
}
