package frontend

import (
	"fmt"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"
)

// A PackageSet is the result of one load of many packages (every package
// of a module, say), from which Load takes the packages of several runs
// without running the go command again: a run costs a `go list` of its
// packages and their dependencies (0.3 s of CPU for a small program, most
// of a check of one), and a load of export data for the dependencies,
// which the runs of one set share.
//
// A run that loads from a set sees the same packages a run of its own
// would load: its packages and the packages of their modules they import
// with syntax, everything else from export data. Its patterns must be
// directory patterns ("." or "./dir", with or without "/...").
type PackageSet struct {
	pkgs []*packages.Package // the roots, with syntax, in go list's order
}

// LoadPackageSet loads the packages patterns match in dir (e.g. "./..."
// in a module's root) for later runs of Load (Config.Packages).
func LoadPackageSet(dir string, patterns ...string) (*PackageSet, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("loading a package set: %w", err)
	}
	pkgs, err := loadPackages(abs, patterns)
	if err != nil {
		return nil, err
	}
	return &PackageSet{pkgs: pkgs}, nil
}

// match returns the packages of the set that patterns, relative to dir,
// match (withModuleImports adds what they import of their modules).
func (s *PackageSet) match(dir string, patterns []string) ([]*packages.Package, error) {
	base, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	type dirPattern struct {
		dir       string
		recursive bool
	}
	var want []dirPattern
	for _, p := range patterns {
		rec := false
		if p == "..." || strings.HasSuffix(p, "/...") {
			rec = true
			p = strings.TrimSuffix(strings.TrimSuffix(p, "..."), "/")
			if p == "" {
				p = "."
			}
		}
		if p != "." && !strings.HasPrefix(p, "./") && !strings.HasPrefix(p, "../") {
			return nil, fmt.Errorf("package pattern %q: a run from a package set takes directory patterns (./dir, ./dir/...)", p)
		}
		want = append(want, dirPattern{filepath.Join(base, p), rec})
	}
	matches := func(d string) bool {
		for _, w := range want {
			if d == w.dir || w.recursive && strings.HasPrefix(d, w.dir+string(filepath.Separator)) {
				return true
			}
		}
		return false
	}
	var roots []*packages.Package
	for _, p := range s.pkgs {
		if d := packageDir(p); d != "" && matches(d) {
			roots = append(roots, p)
		}
	}
	return roots, nil
}

// packageDir is the directory of p's files ("" when it has none).
func packageDir(p *packages.Package) string {
	for _, files := range [][]string{p.GoFiles, p.CompiledGoFiles, p.OtherFiles} {
		if len(files) > 0 {
			return filepath.Dir(files[0])
		}
	}
	return ""
}

// withModuleImports returns roots and the packages of the modules mods
// they import (transitively), as a run of its own loads them: from
// source, which the set holds them with; in the set's order.
func (s *PackageSet) withModuleImports(roots []*packages.Package, matched, mods map[string]bool) ([]*packages.Package, error) {
	all := map[*packages.Package]bool{}
	for _, p := range roots {
		all[p] = true
	}
	var missing []string
	packages.Visit(roots, nil, func(p *packages.Package) {
		if matched[p.PkgPath] || !inModules(p, mods) {
			return
		}
		if p.Syntax == nil || p.Types == nil {
			missing = append(missing, p.PkgPath)
			return
		}
		all[p] = true
	})
	if len(missing) > 0 {
		return nil, fmt.Errorf("packages %s are imported but not in the package set: load them with the set", strings.Join(missing, ", "))
	}
	// In the set's order (go list's, dependencies first), as a load of
	// their own would return them.
	var out []*packages.Package
	for _, p := range s.pkgs {
		if all[p] {
			out = append(out, p)
		}
	}
	return out, nil
}
