package dblib

import (
	"go/types"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// loadLibraries type-checks the real library packages (the corpus module
// requires sqlx and pgx v5).
func loadLibraries(t *testing.T) map[string]*types.Package {
	t.Helper()
	dir, err := filepath.Abs("../../benchmarks/corpus")
	if err != nil {
		t.Fatal(err)
	}
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedImports | packages.NeedDeps, Dir: dir}
	pkgs, err := packages.Load(cfg, "database/sql", "github.com/jmoiron/sqlx",
		"github.com/jackc/pgx/v5", "github.com/jackc/pgx/v5/pgxpool", "github.com/jackc/pgx/v5/pgconn")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*types.Package{}
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			t.Fatalf("%s: %v", p.PkgPath, p.Errors)
		}
		out[p.PkgPath] = p.Types
	}
	return out
}

// handleMethods returns the methods of every handle type of the loaded
// packages, as the front end resolves them: a promoted method is the
// embedded type's (sqlx.DB's Exec is database/sql's).
func handleMethods(pkgs map[string]*types.Package) map[string]*types.Func {
	out := map[string]*types.Func{}
	for name := range index.handles {
		dot := strings.LastIndex(name, ".")
		p := pkgs[name[:dot]]
		if p == nil {
			continue // pgx v4: not in the corpus module
		}
		tn, _ := p.Scope().Lookup(name[dot+1:]).(*types.TypeName)
		if tn == nil {
			continue
		}
		t := tn.Type()
		if !types.IsInterface(t) {
			t = types.NewPointer(t)
		}
		ms := types.NewMethodSet(t)
		for i := 0; i < ms.Len(); i++ {
			if f, ok := ms.At(i).Obj().(*types.Func); ok && f.Exported() {
				out[f.FullName()] = f
			}
		}
	}
	return out
}

// TestTablesNameRealMethods checks the tables against the libraries
// themselves: every qualified key of a loaded package names a function or
// method that exists, and every method of a handle type whose bare name
// some library gives a meaning is in the tables (a method missing there
// would get arbitrary results and no effect on rows).
func TestTablesNameRealMethods(t *testing.T) {
	pkgs := loadLibraries(t)
	methods := handleMethods(pkgs)
	for _, key := range sortedKeys(index.methods) {
		if strings.HasPrefix(key, "(") {
			recv := strings.TrimPrefix(key[1:strings.Index(key, ")")], "*")
			if pkgs[recv[:strings.LastIndex(recv, ".")]] == nil {
				continue
			}
			if methods[key] == nil {
				t.Errorf("table key %s: no such method", key)
			}
			continue
		}
		dot := strings.LastIndex(key, ".")
		if p := pkgs[key[:dot]]; p != nil {
			if _, ok := p.Scope().Lookup(key[dot+1:]).(*types.Func); !ok {
				t.Errorf("table key %s: no such function", key)
			}
		}
	}
	for _, key := range sortedKeys(methods) {
		name := methods[key].Name()
		if ByName(name).Op == None {
			continue
		}
		if _, ok := index.methods[key]; !ok {
			t.Errorf("%s is missing from the tables (other libraries' %s means %v)", key, name, ByName(name).Op)
		}
	}
}

// TestResolve checks what a call resolves to on the real packages.
func TestResolve(t *testing.T) {
	pkgs := loadLibraries(t)
	method := func(typ, name string) *types.Func {
		dot := strings.LastIndex(typ, ".")
		tn := pkgs[typ[:dot]].Scope().Lookup(typ[dot+1:]).(*types.TypeName)
		var rt types.Type = tn.Type()
		if !types.IsInterface(rt) {
			rt = types.NewPointer(rt)
		}
		obj, _, _ := types.LookupFieldOrMethod(rt, true, nil, name)
		return obj.(*types.Func)
	}
	fn := func(pkg, name string) *types.Func { return pkgs[pkg].Scope().Lookup(name).(*types.Func) }
	tests := []struct {
		f                   *types.Func
		kind                Kind
		op                  Op
		must, special       bool
		query, params, dest int
		named               int
	}{
		{method("database/sql.DB", "ExecContext"), DB, Exec, false, false, 2, 3, -1, -1},
		{method("database/sql.Tx", "QueryRow"), Tx, QueryRow, false, false, 1, 2, -1, -1},
		{method("github.com/jmoiron/sqlx.DB", "MustExec"), DB, Exec, true, false, 1, 2, -1, -1},
		{method("github.com/jmoiron/sqlx.DB", "Exec"), DB, Exec, false, false, 1, 2, -1, -1}, // promoted from database/sql
		{method("github.com/jmoiron/sqlx.Tx", "GetContext"), Tx, Get, false, false, 3, 4, 2, -1},
		{method("github.com/jmoiron/sqlx.NamedStmt", "Exec"), Stmt, Exec, false, false, -1, -1, -1, 1},
		{method("github.com/jmoiron/sqlx.DB", "NamedExec"), DB, NamedExec, false, false, 1, -1, -1, 2},
		{fn("github.com/jmoiron/sqlx", "Get"), DB, Get, false, false, 2, 3, 1, -1},
		{fn("github.com/jmoiron/sqlx", "In"), NoHandle, None, false, true, 0, 1, -1, -1},
		{method("github.com/jackc/pgx/v5.Tx", "Exec"), Tx, Exec, false, false, 2, 3, -1, -1},
		{method("github.com/jackc/pgx/v5.Tx", "SendBatch"), Tx, OpaqueSQL, false, false, -1, -1, -1, -1},
		{method("github.com/jackc/pgx/v5/pgxpool.Tx", "Prepare"), Tx, Prepare, false, true, 2, -1, -1, -1},
		{method("github.com/jackc/pgx/v5/pgxpool.Pool", "Acquire"), DB, Conn, false, false, -1, -1, -1, -1},
		{fn("github.com/jackc/pgx/v5", "BeginFunc"), NoHandle, None, false, true, -1, -1, -1, -1},
		{fn("github.com/jackc/pgx/v5", "CollectOneRow"), Rows, None, false, true, -1, -1, -1, -1},
	}
	for _, tt := range tests {
		c, ok := Resolve(tt.f, nil)
		if !ok {
			t.Errorf("Resolve(%s): not a library call", tt.f.FullName())
			continue
		}
		if c.Kind != tt.kind || c.Op != tt.op || c.Must != tt.must || (c.Special != nil) != tt.special ||
			c.Query != tt.query || c.Params != tt.params || c.Dest != tt.dest || c.Named != tt.named {
			t.Errorf("Resolve(%s) = kind %d op %d must %v special %v query %d params %d dest %d named %d; want %+v",
				tt.f.FullName(), c.Kind, c.Op, c.Must, c.Special != nil, c.Query, c.Params, c.Dest, c.Named, tt)
		}
	}
}
