package schedule

import (
	"bytes"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/dbverify/dbverify/sqlparse"
	"github.com/dbverify/dbverify/witness"
	"github.com/dbverify/dbverify/witness/schedule/gate"
)

//go:embed rt_schedule.go.tmpl
var scheduleRuntime []byte

// Program is a built schedule driver for some entries of a module.
type Program struct {
	// Bin is the driver binary.
	Bin string
	// Entries are the driver's entries by dbverify's name.
	Entries map[string]*witness.EntrySpec
}

// Build loads the packages of entries (dbverify's names) from the module
// containing dir and builds their schedule driver under workDir, for
// PostgreSQL and MySQL.
func Build(dir string, entries []string, workDir string) (*Program, error) {
	return BuildFor(dir, sqlparse.Postgres, entries, workDir)
}

// BuildFor is Build for a database of dialect d: a driver for SQLite
// registers modernc.org/sqlite (as the sequential replay's does).
func BuildFor(dir string, d sqlparse.Dialect, entries []string, workDir string) (*Program, error) {
	pkgSet := map[string]bool{}
	for _, e := range entries {
		p, ok := entryPackage(e)
		if !ok {
			return nil, fmt.Errorf("schedule: cannot split entry %s into package and function", e)
		}
		pkgSet[p] = true
	}
	var own []string
	for p := range pkgSet {
		own = append(own, p)
	}
	sort.Strings(own)
	// With the module's syntax and types, as the sequential replay loads
	// them (dependencies' types from export data): the driver reads off a
	// handler's code the struct it decodes a JSON body into (and builds
	// the body from it); loaded without syntax, it only sent a body
	// guessed from the trace's field names.
	pkgs, err := witness.LoadProgram(dir, own...)
	if err != nil {
		return nil, fmt.Errorf("schedule: %w", err)
	}
	var module *packages.Module
	for _, p := range pkgs {
		if !pkgSet[p.PkgPath] {
			continue
		}
		if len(p.Errors) > 0 {
			return nil, fmt.Errorf("schedule: loading %s: %v", p.PkgPath, p.Errors[0])
		}
		if p.Module != nil {
			module = p.Module
		}
	}
	if module == nil {
		return nil, fmt.Errorf("schedule: the entries' packages are not in a module under %s", dir)
	}
	src, err := witness.GenerateDriver(pkgs, module.Dir, module.Path, entries)
	if err != nil {
		return nil, fmt.Errorf("schedule: %w", err)
	}
	if d == sqlparse.SQLite {
		src.RequireSQLite()
	}
	if err := extend(src); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(workDir, 0o755); err != nil {
		return nil, fmt.Errorf("schedule: %w", err)
	}
	bin, err := src.Build(workDir)
	if err != nil {
		return nil, fmt.Errorf("schedule: %w", err)
	}
	return &Program{Bin: bin, Entries: src.Entries}, nil
}

// extend turns a witness driver into a schedule driver: the gate and the
// schedule runtime join the runtime package, and main serves schedules.
func extend(src *witness.DriverSource) error {
	rt := filepath.Join(src.ModuleDir, witness.RuntimeDir)
	src.Files[filepath.Join(rt, "zz_gate.go")] = gate.Source(witness.RuntimeDir)
	src.Files[filepath.Join(rt, "zz_schedule.go")] = scheduleRuntime
	mainPath := filepath.Join(src.ModuleDir, witness.MainDir, "main.go")
	main, ok := src.Files[mainPath]
	if !ok || !bytes.Contains(main, []byte("zzrt.Serve(")) {
		return fmt.Errorf("schedule: the witness driver's main does not call zzrt.Serve")
	}
	src.Files[mainPath] = bytes.Replace(main, []byte("zzrt.Serve("), []byte("zzrt.ServeSchedule("), 1)
	return nil
}

// entryPackage is the package path of an entry name
// ("example.com/m/p.(*T).M" → "example.com/m/p").
func entryPackage(name string) (string, bool) {
	slash := strings.LastIndex(name, "/")
	dot := strings.Index(name[slash+1:], ".")
	if dot < 0 {
		return "", false
	}
	return name[:slash+1+dot], true
}
