package dblib

import (
	"go/types"
	"strings"

	"github.com/dbverify/dbverify/sqlparse"
)

// Libraries returns the modelled libraries, in the order in which ByName
// consults them.
func Libraries() []*Library { return []*Library{databaseSQL(), sqlx(), pgx()} }

// index merges the tables of every library. It is built once, when the
// package is initialised, and never changed.
var index = newIndex(Libraries())

type tables struct {
	packages    map[string]bool
	handles     map[string]Kind
	conns       map[string]bool
	methods     map[string]Method
	byName      map[string]Method
	drivers     map[string]sqlparse.Dialect
	driverNames map[string]sqlparse.Dialect
	openers     map[string]bool
	namedArgs   map[string]func(string) (string, []string, bool)
	nullable    map[string]string
	rawConns    map[string]bool
	noSQL       map[string]bool
}

func newIndex(libs []*Library) *tables {
	x := &tables{
		packages: map[string]bool{}, handles: map[string]Kind{}, conns: map[string]bool{},
		methods: map[string]Method{}, byName: map[string]Method{},
		drivers: map[string]sqlparse.Dialect{}, driverNames: map[string]sqlparse.Dialect{},
		openers: map[string]bool{}, namedArgs: map[string]func(string) (string, []string, bool){},
		nullable: map[string]string{}, rawConns: map[string]bool{}, noSQL: map[string]bool{},
	}
	for _, l := range libs {
		for _, p := range l.Packages {
			x.packages[p] = true
		}
		for k, v := range l.Handles {
			x.handles[k] = v
		}
		for _, c := range l.Conns {
			x.conns[c] = true
		}
		for k, v := range l.Drivers {
			x.drivers[k] = v
		}
		for k, v := range l.DriverNames {
			x.driverNames[k] = v
		}
		for k, v := range l.Nullable {
			x.nullable[k] = v
		}
		for k, v := range l.NamedArgs {
			x.namedArgs[k] = v
		}
		for _, o := range l.Openers {
			x.openers[o] = true
		}
		for typ, methods := range l.RawConns {
			x.rawConns[typ] = true
			for _, m := range methods {
				x.noSQL[typ+"."+m] = true
			}
		}
	}
	for _, l := range libs {
		for _, k := range sortedKeys(l.Methods) {
			m := l.Methods[k]
			x.methods[k] = m
			if !strings.HasPrefix(k, "(") {
				continue // a package function
			}
			name := k[strings.LastIndex(k, ".")+1:]
			if _, ok := x.byName[name]; !ok && m.Op != None {
				bare := m
				bare.Special = nil // (a library's own code needs its own types)
				x.byName[name] = bare
			}
		}
	}
	return x
}

// IsLibraryPackage reports whether path is one of the modelled libraries.
func IsLibraryPackage(path string) bool { return index.packages[path] }

// typeName returns "import/path.Name" of t or *t, or "".
func typeName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return ""
	}
	return n.Obj().Pkg().Path() + "." + n.Obj().Name()
}

// KindOf classifies the handle types of the modelled libraries (t or *t).
func KindOf(t types.Type) (Kind, bool) {
	k, ok := index.handles[typeName(t)]
	return k, ok
}

// IsConn reports whether t (or *t) is a handle of one connection of a pool.
func IsConn(t types.Type) bool { return index.conns[typeName(t)] }

// DriverDialect returns the dialect of a driver package.
func DriverDialect(path string) (sqlparse.Dialect, bool) {
	d, ok := index.drivers[path]
	return d, ok
}

// DriverNames maps the driver names passed to sql.Open to their dialect.
func DriverNames() map[string]sqlparse.Dialect { return index.driverNames }

// IsOpener reports whether f opens a handle from the driver name given as
// its first argument (sql.Open, sqlx.Connect, …).
func IsOpener(f *types.Func) bool { return f != nil && index.openers[f.FullName()] }

// IsDBInterface reports whether typ is an interface with a query method
// shaped like a library's (ExecContext(ctx, query string, …), pgx's
// Exec(ctx, sql string, …)) whose results look like a library's: sqlc's
// DBTX, sqlx's Ext.
func IsDBInterface(typ types.Type) bool {
	it, ok := typ.Underlying().(*types.Interface)
	if !ok {
		return false
	}
	if _, ok := KindOf(typ); ok {
		return false
	}
	for i := 0; i < it.NumMethods(); i++ {
		m := it.Method(i)
		meth := ByName(m.Name())
		if !meth.Op.RunsText() {
			continue
		}
		// (The results must look like a database library's too: echo's
		// Context has Get(key string) any.)
		sig := m.Type().(*types.Signature)
		if c := describe(DB, m.Name(), meth, sig, 0, 1); c.Query >= 0 && ResultsLookDB(sig) {
			return true
		}
	}
	return false
}

// ResultsLookDB reports whether an interface method's results look like a
// database library's: (X, error) or Row where X or Row is a handle type or
// has a Scan, Next or RowsAffected method; or a lone error (sqlx's Get).
func ResultsLookDB(sig *types.Signature) bool {
	res := sig.Results()
	dbLike := func(t types.Type) bool {
		if _, ok := KindOf(t); ok {
			return true
		}
		ms := types.NewMethodSet(t)
		if _, isPtr := t.(*types.Pointer); !isPtr && !types.IsInterface(t) {
			ms = types.NewMethodSet(types.NewPointer(t))
		}
		for _, name := range []string{"Scan", "Next", "RowsAffected"} {
			if ms.Lookup(nil, name) != nil {
				return true
			}
		}
		return false
	}
	switch res.Len() {
	case 1:
		return isError(res.At(0).Type()) || dbLike(res.At(0).Type())
	case 2:
		return isError(res.At(1).Type()) && dbLike(res.At(0).Type())
	}
	return false
}

// NamedArgs returns, for an argument of type t that names the
// placeholders of its query (pgx.NamedArgs), the function that rewrites
// the query's named placeholders into positional ones.
func NamedArgs(t types.Type) (func(query string) (string, []string, bool), bool) {
	if t == nil {
		return nil, false
	}
	if _, ok := t.(*types.Named); !ok {
		return nil, false
	}
	f, ok := index.namedArgs[typeName(t)]
	return f, ok
}

// Nullable returns, for a nullable scan destination type (sql.NullInt64,
// sql.Null[T]), the name of its validity field.
func Nullable(t types.Type) (valid string, ok bool) {
	if _, named := t.(*types.Named); !named {
		return "", false
	}
	valid, ok = index.nullable[typeName(t)]
	return valid, ok
}

// IsRawConn reports whether t (or *t) is a connection type of a library
// whose SQL the model does not read (pgx's pgconn.PgConn).
func IsRawConn(t types.Type) bool { return index.rawConns[typeName(t)] }

// RunsNoSQL reports whether f is a method of a raw connection type
// (IsRawConn) that runs no SQL (pgconn.PgConn's PID).
func RunsNoSQL(f *types.Func) bool {
	sig, ok := f.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	return index.noSQL[typeName(sig.Recv().Type())+"."+f.Name()]
}
