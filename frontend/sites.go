package frontend

import (
	"go/constant"
	"go/token"
	"go/types"
	"iter"
	"sort"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/dbverify/dbverify/frontend/dblib"
	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
)

// Site is a call that runs SQL given as text.
type Site struct {
	Call  ssa.CallInstruction
	Named bool   // sqlx :name parameters
	Query string // the SQL text, when constant
	Known bool   // Query is known
	// Select: the text is not known but begins with constant text whose
	// first keyword is SELECT ("SELECT … WHERE " + cond): a read.
	Select bool
	Stmt   sqlir.Statement
	Err    error // why Stmt is nil (unsupported dialect feature)
	File   string
	Line   int
	// Dialect is the dialect the SQL is read in: the program's, or, when
	// the program opens handles of two dialects, the one of the handle
	// the site runs on (Open, when OpenKnown).
	Dialect   sqlparse.Dialect
	Open      driverOpen
	OpenKnown bool
	api       apiCall
}

// siteAPI returns the library call c is when it runs SQL text given as
// an argument: a method of a modelled library, a sqlx package function,
// or a method of the same shape called through an interface (sqlc's
// DBTX). The indexes are into c.Args.
func siteAPI(c *ssa.CallCommon) (apiCall, bool) {
	var a apiCall
	if c.IsInvoke() {
		a.Call = dblib.OnHandle(dblib.DB, c.Method, c.Signature(), -1, 0)
		if !a.Op.RunsText() || !dblib.ResultsLookDB(c.Signature()) {
			return a, false
		}
	} else if fn := c.StaticCallee(); fn != nil {
		var ok bool
		if a, ok = staticAPICall(fn, c.Signature()); !ok {
			return a, false
		}
	} else {
		return a, false
	}
	return a, a.SQLSite()
}

// findSites records every call that passes SQL text, picks the dialect
// and parses the text. SQL that does not parse is kept as the site's Err:
// the entries that run it are UNKNOWN, not the whole run.
func (l *Loaded) findSites() error {
	var order []*Site
	for _, fn := range l.allModuleFunctions() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if name, ok := openedDriver(call.Common()); ok {
					l.openDrivers = append(l.openDrivers, name)
					l.recordOpen(call, name)
				}
				a, ok := siteAPI(call.Common())
				if !ok {
					continue
				}
				site := &Site{Call: call, Named: a.Op.Named(), api: a}
				site.File, site.Line = l.position(call.Pos())
				args := call.Common().Args
				if a.Query < len(args) {
					site.Query, site.Known = constString(args[a.Query])
					if !site.Known {
						site.Query, site.Known = l.staticText(args[a.Query])
					}
					site.Select = !site.Known && isSelectPrefix(args[a.Query])
				}
				l.sites[call] = site
				order = append(order, site)
			}
		}
	}
	l.chooseDialect(order)
	l.findHandleDialects()
	l.findFilledMaps()
	l.mixed = l.opensDiffer() || l.dialectsDiffer()
	mixed := l.mixed
	if mixed {
		l.DialectSource = "per statement, from the handle it runs on or the driver its package imports: " + l.dialectSourcesText() + "; " + l.Dialect.String() + " where none is named"
	}
	for _, site := range order {
		site.Dialect = l.Dialect
		if mixed {
			o, ok := l.siteDialect(site.Call, site.api)
			if !ok {
				o, ok = l.packageDriver(site.Call.Parent())
			}
			site.Dialect, site.Open, site.OpenKnown = o.dialect, o, ok
			if !ok {
				site.Dialect = l.Dialect // (for the tables it names only)
			}
		}
		if !site.Known {
			continue
		}
		text := site.Query
		if site.Named {
			text, _ = dblib.CompileNamed(text, site.Dialect == sqlparse.Postgres)
		}
		// SQL that does not parse makes the entries that run it UNKNOWN
		// (the translation of the call reports it with its position).
		if lock, ok := advisoryLockSQL(site.Dialect, text); ok {
			text = lock // it reads and writes no table (advisory.go)
		}
		site.Stmt, site.Err = l.parseIn(site.Dialect, text)
	}
	return nil
}

// allModuleFunctions returns the functions with bodies of every module package.
func (l *Loaded) allModuleFunctions() []*ssa.Function {
	var out []*ssa.Function
	seen := map[*ssa.Function]bool{}
	for fn := range ssautil.AllFunctions(l.Prog) {
		if l.inModule(fn) {
			out = append(out, fn)
			seen[fn] = true
		}
	}
	// AllFunctions leaves out the generic functions themselves (only
	// their instantiations are needed to run the program): the methods of
	// a generic type that nothing here instantiates are entries all the
	// same.
	for _, fn := range l.Functions() {
		if !seen[fn] {
			out = append(out, fn)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// moduleStrings yields the string constants the module's code uses, with
// the instruction that uses each, in allModuleFunctions' order: the texts
// the code may hand a driver (a DSN, a SET, a PRAGMA, SQL).
func (l *Loaded) moduleStrings() iter.Seq2[ssa.Instruction, string] {
	return func(yield func(ssa.Instruction, string) bool) {
		var ops []*ssa.Value
		for _, fn := range l.allModuleFunctions() {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					for _, op := range instr.Operands(ops[:0]) {
						c, ok := (*op).(*ssa.Const)
						if !ok || c.Value == nil || c.Value.Kind() != constant.String {
							continue
						}
						if !yield(instr, constant.StringVal(c.Value)) {
							return
						}
					}
				}
			}
		}
	}
}

// constString resolves v to a constant string: a constant, or the
// concatenation of constants.
func constString(v ssa.Value) (string, bool) {
	switch v := v.(type) {
	case *ssa.Const:
		if v.Value != nil && v.Value.Kind() == constant.String {
			return constant.StringVal(v.Value), true
		}
	case *ssa.BinOp:
		if v.Op == token.ADD {
			a, ok1 := constString(v.X)
			b, ok2 := constString(v.Y)
			if ok1 && ok2 {
				return a + b, true
			}
		}
	case *ssa.ChangeType:
		return constString(v.X)
	case *ssa.Convert:
		if isString(v.X.Type()) {
			return constString(v.X)
		}
	}
	return "", false
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// siteOf is the SQL site of call: its own, or, for the Exec or Query of
// a statement prepared elsewhere, the statement Prepare was given
// (preparedCall); nil when the call runs no SQL the frontend knows of.
func (l *Loaded) siteOf(call ssa.CallInstruction) *Site {
	if s := l.sites[call]; s != nil {
		return s
	}
	if stmt, ok := l.preparedCall(call.Common()); ok {
		return &Site{Known: true, Stmt: stmt}
	}
	return nil
}

// writes reports which tables a function writes directly, whether it
// runs SQL whose text is not known, and whether it runs SQL that reads.
func (l *Loaded) writes(fn *ssa.Function) (tables map[string]bool, unknownSQL, reads bool) {
	tables = map[string]bool{}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			s := l.siteOf(call)
			if s == nil {
				if l.mayRunUnknownSQL(call.Common()) {
					unknownSQL = true
				}
				continue
			}
			if !s.Known && s.Select {
				reads = true // a SELECT built at run time
				continue
			}
			if !s.Known || s.Stmt == nil {
				unknownSQL = true
				continue
			}
			if s.api.Op == dblib.Prepare || s.api.Op == dblib.PrepareNamed {
				// Preparing runs nothing: the statement's execution is
				// the write (a statement field: preparedCall; a local
				// one: SQL not known at its call).
				continue
			}
			if len(userFunctions(s.Stmt)) > 0 {
				unknownSQL = true // a function may write any table
			}
			if sqlir.IsWrite(s.Stmt) {
				for _, t := range s.Stmt.Tables() {
					tables[t] = true
				}
			} else {
				reads = true
			}
		}
	}
	return tables, unknownSQL, reads
}

// mayRunUnknownSQL reports whether a call that passes no SQL text may
// still run SQL the front end cannot see: a prepared statement executed,
// a pgx batch or COPY, or a database handle handed to code outside the
// module (a query builder, a migration tool).
func (l *Loaded) mayRunUnknownSQL(c *ssa.CallCommon) bool {
	callee := c.StaticCallee()
	if callee != nil && l.inModule(callee) {
		return false
	}
	if callee != nil {
		if a, ok := staticAPICall(callee, c.Signature()); ok {
			return (a.kind() == objStmt && a.Op != dblib.None) || a.Op == dblib.OpaqueSQL
		}
	} else if c.IsInvoke() {
		if k, ok := dbObjectKind(c.Value.Type()); ok {
			return k == objTx && dblib.OnHandle(dblib.Tx, c.Method, c.Signature(), -1, 0).Op == dblib.OpaqueSQL
		}
		if dblib.IsDBInterface(c.Value.Type()) || len(l.implementations(c.Method)) > 0 {
			return false
		}
	} else {
		return false
	}
	for _, a := range c.Args {
		t := a.Type()
		if mi, ok := a.(*ssa.MakeInterface); ok {
			t = mi.X.Type()
		}
		if k, ok := dbObjectKind(t); ok && (k == objDB || k == objTx || k == objStmt) {
			return true
		}
		if dblib.IsDBInterface(t) {
			return true
		}
	}
	_, held := l.connHolderArg(c, nil)
	return held
}

// Tables returns every table a module function writes or reads by SQL
// with known text.
func (l *Loaded) Tables() []string {
	set := map[string]bool{}
	for _, s := range l.sites {
		if s.Stmt != nil {
			for _, t := range s.Stmt.Tables() {
				set[t] = true
			}
		}
	}
	var out []string
	for t := range set {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}
