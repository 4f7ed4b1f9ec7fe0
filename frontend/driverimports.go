package frontend

import (
	"fmt"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/frontend/dblib"
	"github.com/dbverify/dbverify/sqlparse"
)

// A module whose packages import drivers of two dialects (a MySQL
// service and a SQLite one, side by side) has no one dialect either,
// even when only one of them calls sql.Open: reading the SQLite
// package's UPDATE … SET balance = balance - ?, reserved = balance in
// MySQL's left-to-right SET order gave a wrong SAFE (independent tester
// adv14 m3). A site whose handle cannot be traced to an sql.Open is then
// read in the dialect of the drivers its own package imports, directly
// or through its imports, when they name one; otherwise it is UNKNOWN
// naming the ambiguity (useSiteDialect).

// importedDialects returns the dialects of the drivers the program's
// packages import, each with the drivers' import paths, sorted.
func (l *Loaded) importedDialects() map[sqlparse.Dialect][]string {
	out := map[sqlparse.Dialect][]string{}
	for _, p := range l.Prog.AllPackages() {
		if d, ok := dblib.DriverDialect(p.Pkg.Path()); ok {
			out[d] = append(out[d], p.Pkg.Path())
		}
	}
	for d := range out {
		sort.Strings(out[d])
	}
	return out
}

// dialectsDiffer reports whether the handles the program opens and the
// drivers it imports name more than one dialect (and --dialect does not
// settle it).
func (l *Loaded) dialectsDiffer() bool {
	if l.cfg.Dialect != "" {
		return false
	}
	seen := map[sqlparse.Dialect]bool{}
	for _, o := range l.opens {
		seen[o.dialect] = true
	}
	for d := range l.importedDialects() {
		seen[d] = true
	}
	return len(seen) > 1
}

// packageDriver returns, for the function fn holding a SQL site, the
// driver its package imports (directly or through its imports), when the
// drivers found name one dialect: the handle the site runs on is then of
// that dialect's driver, the only one the package can reach.
func (l *Loaded) packageDriver(fn *ssa.Function) (driverOpen, bool) {
	if fn == nil || fn.Pkg == nil {
		return driverOpen{}, false
	}
	pkg := fn.Pkg.Pkg
	var drivers []string
	dialects := map[sqlparse.Dialect]bool{}
	seen := map[*types.Package]bool{}
	var walk func(p *types.Package)
	walk = func(p *types.Package) {
		if seen[p] {
			return
		}
		seen[p] = true
		if d, ok := dblib.DriverDialect(p.Path()); ok {
			drivers = append(drivers, p.Path())
			dialects[d] = true
			return
		}
		for _, q := range p.Imports() {
			walk(q)
		}
	}
	walk(pkg)
	if len(dialects) != 1 {
		return driverOpen{}, false
	}
	sort.Strings(drivers)
	d, _ := dblib.DriverDialect(drivers[0])
	return driverOpen{name: drivers[0], dialect: d, pos: pkg.Path(), imported: true}, true
}

// String describes where the dialect of o comes from: `sql.Open("mysql")
// at main.go:20`, or `the driver modernc.org/sqlite that package
// example.com/m/cache imports`.
func (o driverOpen) String() string {
	if o.imported {
		return fmt.Sprintf("the driver %s that package %s imports", o.name, o.pos)
	}
	return fmt.Sprintf("sql.Open(%q) at %s", o.name, o.pos)
}

// dialectSourcesText describes, for a message, what names a dialect in
// the program: its opens and the drivers it imports, by dialect.
func (l *Loaded) dialectSourcesText() string {
	var parts []string
	if o := l.opensText(); o != "" {
		parts = append(parts, o)
	}
	imp := l.importedDialects()
	var ds []sqlparse.Dialect
	for d := range imp {
		ds = append(ds, d)
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i].String() < ds[j].String() })
	for _, d := range ds {
		parts = append(parts, fmt.Sprintf("%s drivers imported: %s", d, strings.Join(imp[d], ", ")))
	}
	return strings.Join(parts, "; ")
}
