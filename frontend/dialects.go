package frontend

import (
	"fmt"
	"go/token"
	"go/types"
	"regexp"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/frontend/dblib"
	"github.com/dbverify/dbverify/sqlparse"
)

// A program that opens handles of two dialects (sql.Open("postgres", …)
// for the ledger, sql.Open("sqlite", …) for a local cache) has no one
// dialect: each SQL site is read in the dialect of the handle it runs on,
// traced to the sql.Open that created it through a struct field, a
// package variable or a local; a site whose handle cannot be traced is
// UNKNOWN naming the ambiguity, never read in a guessed dialect.

// driverOpen is a call that opens a handle with a constant driver name
// whose dialect is known.
type driverOpen struct {
	name    string
	dialect sqlparse.Dialect
	pos     string // file:line
	// imported: not an open but the driver (name, its import path) that
	// the package pos (its path) of a site imports (driverimports.go).
	imported bool
}

// handleDialects holds the dialect of each handle source: struct fields
// and package variables assigned the result of one dialect's sql.Open.
// conflict marks sources assigned handles of two dialects.
type handleDialects struct {
	fields   map[*types.Var]driverOpen
	globals  map[*ssa.Global]driverOpen
	conflict map[any]bool
}

// mixedDialects reports whether the program uses two dialects: it opens
// handles of two, or its packages import drivers of two (findSites
// decides it once).
func (l *Loaded) mixedDialects() bool {
	return l.mixed
}

// opensDiffer reports whether the program opens handles of two dialects
// (and --dialect does not settle it).
func (l *Loaded) opensDiffer() bool {
	if l.cfg.Dialect != "" {
		return false
	}
	for _, o := range l.opens {
		if o.dialect != l.opens[0].dialect {
			return true
		}
	}
	return false
}

// openedBy returns the open that created the handle v is, directly
// (db, err := sql.Open(…)).
func (l *Loaded) openedBy(v ssa.Value) (driverOpen, bool) {
	if e, ok := v.(*ssa.Extract); ok && e.Index == 0 {
		v = e.Tuple
	}
	call, ok := v.(*ssa.Call)
	if !ok {
		return driverOpen{}, false
	}
	o, ok := l.openAt[call]
	return o, ok
}

// findHandleDialects records the fields and package variables every
// store into assigns the handle of one open.
func (l *Loaded) findHandleDialects() {
	h := &handleDialects{fields: map[*types.Var]driverOpen{}, globals: map[*ssa.Global]driverOpen{}, conflict: map[any]bool{}}
	record := func(key any, o driverOpen, set func(driverOpen), get func() (driverOpen, bool)) {
		if prev, ok := get(); ok && prev.dialect != o.dialect {
			h.conflict[key] = true
		}
		set(o)
	}
	for _, fn := range l.allModuleFunctions() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				o, ok := l.openedBy(st.Val)
				if !ok {
					continue
				}
				switch addr := st.Addr.(type) {
				case *ssa.FieldAddr:
					if f := fieldOf(addr); f != nil {
						record(f, o, func(o driverOpen) { h.fields[f] = o }, func() (driverOpen, bool) { p, ok := h.fields[f]; return p, ok })
					}
				case *ssa.Global:
					record(addr, o, func(o driverOpen) { h.globals[addr] = o }, func() (driverOpen, bool) { p, ok := h.globals[addr]; return p, ok })
				}
			}
		}
	}
	l.handles = h
}

// fieldOf returns the struct field a FieldAddr addresses.
func fieldOf(fa *ssa.FieldAddr) *types.Var {
	p, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	st, ok := p.Elem().Underlying().(*types.Struct)
	if !ok || fa.Field >= st.NumFields() {
		return nil
	}
	return st.Field(fa.Field)
}

// handleDialect returns the open that created handle v: the call itself,
// or a load of a field or package variable only such opens assign.
func (l *Loaded) handleDialect(v ssa.Value) (driverOpen, bool) {
	if o, ok := l.openedBy(v); ok {
		return o, true
	}
	u, ok := v.(*ssa.UnOp)
	if !ok || u.Op != token.MUL {
		return driverOpen{}, false
	}
	switch addr := u.X.(type) {
	case *ssa.FieldAddr:
		f := fieldOf(addr)
		o, ok := l.handles.fields[f]
		return o, ok && !l.handles.conflict[f]
	case *ssa.Global:
		o, ok := l.handles.globals[addr]
		return o, ok && !l.handles.conflict[addr]
	}
	return driverOpen{}, false
}

// siteDialect returns the dialect of the SQL a site runs, from the handle
// it runs on, when the program opens handles of two dialects.
func (l *Loaded) siteDialect(call ssa.CallInstruction, a apiCall) (driverOpen, bool) {
	c := call.Common()
	var handle ssa.Value
	switch {
	case c.IsInvoke():
		handle = c.Value
	case a.Self >= 0 && a.Self < len(c.Args):
		handle = c.Args[a.Self]
	default:
		return driverOpen{}, false
	}
	if mi, ok := handle.(*ssa.MakeInterface); ok {
		handle = mi.X
	}
	return l.handleDialect(handle)
}

// opensText describes the opens for a message: `sql.Open("postgres")
// at main.go:20, sql.Open("sqlite") at cache.go:14`.
func (l *Loaded) opensText() string {
	var parts []string
	for _, o := range l.opens {
		parts = append(parts, fmt.Sprintf("sql.Open(%q) at %s", o.name, o.pos))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

// recordOpen notes a call of sql.Open (or sqlx.Connect, …) with a constant
// driver name of a known dialect.
func (l *Loaded) recordOpen(call ssa.CallInstruction, name string) {
	d, ok := dblib.DriverNames()[name]
	if !ok {
		return
	}
	file, line := l.position(call.Pos())
	o := driverOpen{name: name, dialect: d, pos: fmt.Sprintf("%s:%d", file, line)}
	l.opens = append(l.opens, o)
	if c, ok := call.(*ssa.Call); ok {
		l.openAt[c] = o
	}
}

var dollarParam = regexp.MustCompile(`\$[0-9]+`)

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
	if l.dollarSQLConstant() {
		l.Dialect, l.DialectSource = sqlparse.Postgres, "$n placeholders in the SQL (passed to a helper)"
		return
	}
	l.Dialect, l.DialectSource = sqlparse.MySQL, "the default: no driver import, sql.Open or $n placeholder names a dialect; --dialect sets it"
}

// sqlText matches a string constant that is a SQL statement.
var sqlText = regexp.MustCompile(`(?is)^\s*(select|insert|update|delete|with)\b`)

// dollarSQLConstant reports whether a string constant of the module that
// is a SQL statement uses $n placeholders: SQL handed to a small exec
// helper (execOne(ctx, "UPDATE … $1", …)) is not constant at the
// helper's database call (adv7 D1: every entry of such a repository was
// UNKNOWN, its SQL parsed as MySQL).
func (l *Loaded) dollarSQLConstant() bool {
	for _, text := range l.moduleStrings() {
		if sqlText.MatchString(text) && dollarParam.MatchString(text) {
			return true
		}
	}
	return false
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
