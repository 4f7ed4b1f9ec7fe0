package frontend

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"regexp"
	"sort"
	"strings"

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
	Stmt  sqlir.Statement
	Err   error // why Stmt is nil (unsupported dialect feature)
	File  string
	Line  int
	// Dialect is the dialect the SQL is read in: the program's, or, when
	// the program opens handles of two dialects, the one of the handle
	// the site runs on (Open, when OpenKnown).
	Dialect   sqlparse.Dialect
	Open      driverOpen
	OpenKnown bool
	api       apiCall
}

var dollarParam = regexp.MustCompile(`\$[0-9]+`)

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
				}
				l.sites[call] = site
				order = append(order, site)
			}
		}
	}
	l.chooseDialect(order)
	l.findHandleDialects()
	mixed := l.mixedDialects()
	if mixed {
		l.DialectSource = "per statement, from the handle it runs on: " + l.opensText() + "; " + l.Dialect.String() + " where none is named"
	}
	for _, site := range order {
		site.Dialect = l.Dialect
		if mixed {
			o, ok := l.siteDialect(site.Call, site.api)
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
		site.Stmt, site.Err = l.parseIn(site.Dialect, text)
	}
	return nil
}

// openedDriver returns the driver name a call of sql.Open (or sqlx.Open,
// Connect, MustOpen, MustConnect) passes as a constant.
func openedDriver(c *ssa.CallCommon) (string, bool) {
	fn := c.StaticCallee()
	if fn == nil || len(c.Args) == 0 {
		return "", false
	}
	if f, ok := fn.Object().(*types.Func); ok && dblib.IsOpener(f) {
		return constString(c.Args[0])
	}
	return "", false
}

// chooseDialect sets l.Dialect: --dialect if given, else the driver the
// program names in sql.Open, else the driver it imports, else Postgres if
// the SQL uses $n placeholders, else MySQL.
func (l *Loaded) chooseDialect(sites []*Site) {
	if l.cfg.Dialect != "" {
		d, _ := sqlparse.ParseDialect(l.cfg.Dialect)
		l.Dialect, l.DialectSource = d, "--dialect"
		return
	}
	// The drivers named in sql.Open (the driver may be imported by a
	// package not analysed), when they agree.
	if d, name, ok := agreeing(l.openDrivers, dblib.DriverNames()); ok {
		l.Dialect, l.DialectSource = d, fmt.Sprintf("sql.Open(%q, …)", name)
		return
	}
	// The drivers the program imports, in a fixed order; drivers of
	// different dialects leave the choice to the SQL.
	var drivers []string
	for _, p := range l.Prog.AllPackages() {
		if _, ok := dblib.DriverDialect(p.Pkg.Path()); ok {
			drivers = append(drivers, p.Pkg.Path())
		}
	}
	sort.Strings(drivers)
	agree := len(drivers) > 0
	var first sqlparse.Dialect
	if agree {
		first, _ = dblib.DriverDialect(drivers[0])
	}
	for _, d := range drivers {
		dd, _ := dblib.DriverDialect(d)
		agree = agree && dd == first
	}
	if agree {
		l.Dialect, l.DialectSource = first, "driver "+drivers[0]
		return
	}
	for _, s := range sites {
		if s.Known && dollarParam.MatchString(s.Query) {
			l.Dialect, l.DialectSource = sqlparse.Postgres, "$n placeholders in the SQL"
			return
		}
	}
	l.Dialect, l.DialectSource = sqlparse.MySQL, "the default: no driver import, sql.Open or $n placeholder names a dialect; --dialect sets it"
}

// allModuleFunctions returns the functions with bodies of every module package.
func (l *Loaded) allModuleFunctions() []*ssa.Function {
	var out []*ssa.Function
	for fn := range ssautil.AllFunctions(l.Prog) {
		if l.inModule(fn) {
			out = append(out, fn)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
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
			s := l.sites[call]
			if s == nil {
				if l.mayRunUnknownSQL(call.Common()) {
					unknownSQL = true
				}
				continue
			}
			if !s.Known || s.Stmt == nil {
				unknownSQL = true
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
	return false
}

// callees returns the module functions fn may call: static callees,
// its closures, and module methods an interface call may dispatch to.
func (l *Loaded) callees(fn *ssa.Function) []*ssa.Function {
	if out, ok := l.calleeCache[fn]; ok {
		return out
	}
	out := l.findCallees(fn)
	l.calleeCache[fn] = out
	return out
}

// findCallees computes callees.
func (l *Loaded) findCallees(fn *ssa.Function) []*ssa.Function {
	escaping := l.escapingFuncs()
	var out []*ssa.Function
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			var c *ssa.CallCommon
			switch instr := instr.(type) {
			case ssa.CallInstruction:
				c = instr.Common()
			case *ssa.MakeClosure:
				// (A closure that escapes is an entry of its own.)
				if f, ok := instr.Fn.(*ssa.Function); ok && !escaping[l.unwrap(f)] {
					out = append(out, f)
					if m := l.unwrap(f); m != f && l.inModule(m) {
						out = append(out, m) // a method value: the method itself
					}
				}
				continue
			default:
				// Function values taken as operands (method values, funcs).
				for _, op := range instr.Operands(nil) {
					if f, ok := (*op).(*ssa.Function); ok && l.inModule(f) && !escaping[f] {
						out = append(out, f)
					}
				}
				continue
			}
			if f := c.StaticCallee(); f != nil {
				if l.inModule(f) {
					out = append(out, f)
				}
			} else if c.IsInvoke() {
				out = append(out, l.implementations(c.Method)...)
			}
			for _, a := range c.Args {
				if f, ok := a.(*ssa.Function); ok && l.inModule(f) && !escaping[f] {
					out = append(out, f)
				}
			}
		}
	}
	return out
}

// implementations returns the module methods that implement m.
func (l *Loaded) implementations(m *types.Func) []*ssa.Function {
	iface, ok := m.Type().(*types.Signature).Recv().Type().Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	if out, ok := l.implCache[m]; ok {
		return out
	}
	var out []*ssa.Function
	seen := map[*ssa.Function]bool{}
	for p := range l.module {
		for _, mem := range p.Members {
			tm, ok := mem.(*ssa.Type)
			if !ok {
				continue
			}
			for _, t := range []types.Type{tm.Type(), types.NewPointer(tm.Type())} {
				if _, isIface := t.Underlying().(*types.Interface); isIface {
					continue
				}
				if !types.Implements(t, iface) || isMock(tm.Type()) {
					continue
				}
				sel := l.Prog.MethodSets.MethodSet(t).Lookup(m.Pkg(), m.Name())
				if sel == nil {
					continue
				}
				f := l.unwrap(l.Prog.MethodValue(sel))
				if f != nil && l.inModule(f) && !seen[f] {
					seen[f] = true
					out = append(out, f)
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	l.implCache[m] = out
	return out
}

// mockPackages are the packages of test-double generators: a type with a
// field from one (gomock's Controller, testify's Mock) is a mock that
// tests create, never the dynamic type of an interface in a real run.
var mockPackages = map[string]bool{
	"github.com/golang/mock/gomock":      true,
	"go.uber.org/mock/gomock":            true,
	"github.com/stretchr/testify/mock":   true,
	"github.com/gojuno/minimock/v3":      true,
	"github.com/vektra/mockery/v2/mocks": true,
}

// isMock reports whether t is a generated test double.
func isMock(t types.Type) bool {
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		ft := st.Field(i).Type()
		if p, ok := ft.(*types.Pointer); ok {
			ft = p.Elem()
		}
		if n, ok := ft.(*types.Named); ok && n.Obj().Pkg() != nil && mockPackages[n.Obj().Pkg().Path()] {
			return true
		}
	}
	return false
}

// Reach describes what a function can do to the database, directly or
// through its callees.
type Reach struct {
	Tables     map[string]bool // tables it may write
	UnknownSQL bool            // it may run SQL whose text is not known
	Reads      bool            // it may run SQL that only reads
}

// reach computes Reach for every module function (a fixpoint over callees).
func (l *Loaded) reach() map[*ssa.Function]*Reach {
	if l.reachCache != nil {
		return l.reachCache
	}
	fns := l.allModuleFunctions()
	r := map[*ssa.Function]*Reach{}
	calls := map[*ssa.Function][]*ssa.Function{}
	for _, fn := range fns {
		t, u, rd := l.writes(fn)
		r[fn] = &Reach{Tables: t, UnknownSQL: u, Reads: rd}
		calls[fn] = l.callees(fn)
	}
	for changed := true; changed; {
		changed = false
		for _, fn := range fns {
			me := r[fn]
			for _, c := range calls[fn] {
				rc := r[c]
				if rc == nil {
					continue
				}
				for t := range rc.Tables {
					if !me.Tables[t] {
						me.Tables[t] = true
						changed = true
					}
				}
				if rc.UnknownSQL && !me.UnknownSQL {
					me.UnknownSQL = true
					changed = true
				}
				if rc.Reads && !me.Reads {
					me.Reads = true
					changed = true
				}
			}
		}
	}
	l.reachCache = r
	return r
}

// Entries returns the entry points for constraints on tables: functions of
// the matched packages that may write one of the tables (or run unknown
// SQL) and that code outside the analysis may call: functions no other
// module function calls (main, init, a var initializer's callee),
// exported functions and methods of exported types (another package may
// call them whatever their callers here check first), and functions whose
// value escapes (handlers given to a router, closures returned by a
// factory, operations kept in a table; see escapingFuncs). If match is not
// nil, every matched-package function whose name it matches is an entry
// instead (see EntryMatches).
func (l *Loaded) Entries(tables []string, match *regexp.Regexp) []*ssa.Function {
	want := map[string]bool{}
	for _, t := range tables {
		want[strings.ToLower(t)] = true
	}
	reach := l.reach()
	// Calls from the matched packages only: a function that only code
	// outside them calls (gRPC handlers a generated package dispatches to,
	// when only the service package is checked) is an entry. The package
	// initializer (Go's runtime runs it) calls no one in this sense.
	matched := map[*ssa.Package]bool{}
	for _, p := range l.Pkgs {
		matched[p] = true
	}
	called := map[*ssa.Function]bool{}
	for _, fn := range l.allModuleFunctions() {
		if !matched[fn.Package()] || fn.Synthetic != "" {
			continue
		}
		for _, c := range l.callees(fn) {
			if c != fn {
				called[c] = true
			}
		}
	}
	escaping := l.escapingFuncs()
	var out []*ssa.Function
	for _, fn := range l.Functions() {
		if fn.Synthetic != "" {
			continue
		}
		if match != nil {
			// Any function, closures included (their captured variables
			// are then arbitrary).
			if EntryMatches(fn, match) {
				out = append(out, fn)
			}
			continue
		}
		if fn.Parent() != nil && !escaping[fn] {
			continue
		}
		if called[fn] && !escaping[fn] && (!exportedAPI(fn) || l.generated(fn)) {
			continue
		}
		rc := reach[fn]
		if rc == nil {
			continue
		}
		relevant := rc.UnknownSQL
		for t := range rc.Tables {
			if want[t] {
				relevant = true
			}
		}
		if relevant {
			out = append(out, fn)
		}
	}
	return out
}

// EntryMatches reports whether --entry's pattern selects fn: its full
// name (EntryName: "example.com/shop.(*Store).Reserve",
// "example.com/api.makeWithdraw$1" for the first closure in
// makeWithdraw), its name within its package ("(*Store).Reserve",
// "makeWithdraw$1"), that name without pointer marks ("Store.Reserve"), or
// its SSA name, so that ^Reserve$ and makeWithdraw\$1 both work. A
// closure is selected only by a match that reaches into its $n suffix
// (makeWithdraw\$1, \$1$), not by its enclosing function's name.
func EntryMatches(fn *ssa.Function, match *regexp.Regexp) bool {
	name := EntryName(fn)
	short := name
	if fn.Pkg != nil {
		short = strings.TrimPrefix(name, fn.Pkg.Pkg.Path()+".")
	}
	plain := strings.NewReplacer("(*", "", ")", "").Replace(short)
	for _, s := range []string{fn.String(), name, short, plain, fn.Name()} {
		if fn.Parent() == nil {
			if match.MatchString(s) {
				return true
			}
			continue
		}
		// A closure is selected by a pattern that reaches into its $n
		// suffix: Withdraw selects the method, not the closures in it.
		dollar := strings.LastIndex(s, "$")
		for _, m := range match.FindAllStringIndex(s, -1) {
			if m[1] > dollar {
				return true
			}
		}
	}
	return false
}

// generated reports whether fn is in a generated file (sqlc's queries, a
// gRPC stub): its exported functions are the program's data access layer,
// entries only when nothing in the program calls them.
func (l *Loaded) generated(fn *ssa.Function) bool {
	if !fn.Pos().IsValid() {
		return false
	}
	name := l.Fset.Position(fn.Pos()).Filename
	l.sourceLine(fn.Pos()) // (reads the file)
	for _, line := range l.srcLine[name] {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "package ") {
			return false
		}
		if strings.HasPrefix(line, "// Code generated ") && strings.HasSuffix(line, " DO NOT EDIT.") {
			return true
		}
	}
	return false
}

// exportedAPI reports whether code in another package may call fn
// directly: an exported function or an exported method of an exported
// type, outside package main.
func exportedAPI(fn *ssa.Function) bool {
	if fn.Parent() != nil || fn.Pkg == nil || fn.Pkg.Pkg.Name() == "main" || !token.IsExported(fn.Name()) {
		return false
	}
	recv := fn.Signature.Recv()
	if recv == nil {
		return true
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Exported()
}

// unwrap maps a synthetic method wrapper (bound method, thunk) to the
// method it calls.
func (l *Loaded) unwrap(fn *ssa.Function) *ssa.Function {
	if fn == nil || fn.Synthetic == "" {
		return fn
	}
	if f, ok := fn.Object().(*types.Func); ok {
		if m := l.Prog.FuncValue(f); m != nil {
			return m
		}
	}
	return fn
}

// RunsUnknownSQL reports whether some module function may run SQL whose
// text is not known (built at run time, prepared elsewhere, run by a
// library).
func (l *Loaded) RunsUnknownSQL() bool {
	for _, r := range l.reach() {
		if r.UnknownSQL {
			return true
		}
	}
	return false
}

// ReachesWrite reports whether fn may write table (or run unknown SQL).
func (l *Loaded) ReachesWrite(fn *ssa.Function, table string) bool {
	rc := l.reach()[fn]
	return rc != nil && (rc.UnknownSQL || rc.Tables[strings.ToLower(table)])
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

// EntryName names a function the way Go's runtime and profilers do:
// "example.com/bank.Withdraw", "example.com/shop.(*Store).Reserve",
// "example.com/shop.Store.Total", closures with their $n suffix.
func EntryName(fn *ssa.Function) string {
	if fn.Parent() != nil {
		return EntryName(fn.Parent()) + fn.Name()[len(fn.Parent().Name()):]
	}
	recv := fn.Signature.Recv()
	if recv == nil || fn.Pkg == nil {
		return fn.String()
	}
	t := recv.Type()
	ptr := false
	if p, ok := t.(*types.Pointer); ok {
		t, ptr = p.Elem(), true
	}
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return fn.String()
	}
	name := n.Obj().Name()
	if ptr {
		name = "(*" + name + ")"
	}
	return n.Obj().Pkg().Path() + "." + name + "." + fn.Name()
}

// agreeing returns the dialect of names (looked up in dialects; unknown
// names are ignored) when there is at least one and all agree.
func agreeing(names []string, dialects map[string]sqlparse.Dialect) (sqlparse.Dialect, string, bool) {
	var d sqlparse.Dialect
	first := ""
	for _, n := range names {
		x, ok := dialects[n]
		switch {
		case !ok:
		case first == "":
			d, first = x, n
		case x != d:
			return 0, "", false
		}
	}
	return d, first, first != ""
}
