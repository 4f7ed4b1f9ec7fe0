package witness

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// HandlePackages are loaded with the program so that interfaces can be
// matched against the handle types.
var HandlePackages = []string{
	"database/sql",
	"github.com/jmoiron/sqlx",
	"github.com/jackc/pgx/v5",
	"github.com/jackc/pgx/v5/pgxpool",
}

// Build compiles the driver into dir/witness-driver with `go build
// -overlay`, run in the module directory, and returns the binary's path.
func (s *DriverSource) Build(dir string) (string, error) {
	ov := struct{ Replace map[string]string }{Replace: map[string]string{}}
	for i, name := range sortedKeys(s.Files) {
		f := filepath.Join(dir, fmt.Sprintf("overlay%d.go", i))
		if err := os.WriteFile(f, s.Files[name], 0o644); err != nil {
			return "", fmt.Errorf("writing overlay file: %w", err)
		}
		ov.Replace[name] = f
	}
	data, err := json.Marshal(ov)
	if err != nil {
		return "", err
	}
	ovPath := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(ovPath, data, 0o644); err != nil {
		return "", fmt.Errorf("writing overlay: %w", err)
	}
	bin := filepath.Join(dir, "witness-driver")
	out, err := s.goBuild(nil, ovPath, bin)
	if err != nil && missingModule.Match(out) {
		// A module that does not require (all of) the runtime's libraries.
		var modArgs []string
		if modArgs, err = s.modFile(dir); err != nil {
			return "", err
		}
		out, err = s.goBuild(modArgs, ovPath, bin)
	}
	if err != nil {
		return "", fmt.Errorf("building the witness driver: %w\n%s", err, out)
	}
	return bin, nil
}

// missingModule is go build's error for an import no required module
// provides, whose module's checksum go.sum lacks, or whose module go.mod
// lists only indirectly (a module tidied without it: go-sql-driver/mysql
// in go.sum through sqlx).
var missingModule = regexp.MustCompile(`no required module provides package|missing go.sum entry|updates to go.mod needed`)

func (s *DriverSource) goBuild(modArgs []string, overlay, bin string) ([]byte, error) {
	// -s -w: the driver is run once and thrown away; without the symbol
	// table and DWARF its link takes a third less (1.9 s of CPU against
	// 3.0 s for a driver with SQLite), and its panics still print their
	// stacks (the runtime's line tables stay).
	args := append(append([]string{"build", "-ldflags=-s -w"}, modArgs...), "-overlay", overlay, "-o", bin, "./"+MainDir)
	cmd := exec.Command("go", args...)
	cmd.Dir = s.ModuleDir
	if len(modArgs) > 0 {
		cmd.Env = append(os.Environ(), "GOWORK=off")
	}
	return cmd.CombinedOutput()
}

// runtimePackages are the packages the driver's runtime imports whatever
// the program uses (the database drivers it opens, the handles it gives
// entries), with the version of their module added to a module that does
// not require it (dbverify's own).
var runtimePackages = []struct{ pkg, module, version string }{
	{"github.com/go-sql-driver/mysql", "github.com/go-sql-driver/mysql", "v1.10.1"},
	{"github.com/jackc/pgx/v5", "github.com/jackc/pgx/v5", "v5.12.0"},
	{"github.com/jackc/pgx/v5/pgxpool", "github.com/jackc/pgx/v5", "v5.12.0"},
	{"github.com/jackc/pgx/v5/stdlib", "github.com/jackc/pgx/v5", "v5.12.0"},
	{"github.com/jmoiron/sqlx", "github.com/jmoiron/sqlx", "v1.4.0"},
}

// runtimeSQLite is the SQLite driver a replay on SQLite registers, added
// like runtimePackages (dbverify's version) to a module that does not
// require it.
var runtimeSQLite = struct{ pkg, module, version string }{SQLiteDriverPackage, SQLiteDriverPackage, "v1.62.0"}

// modFile returns the go flags that build the driver with the runtime's
// packages: -modfile naming a copy of the module's go.mod (and go.sum) in
// dir to which go get adds them — at the version the module requires,
// else dbverify's —, so that the module's own files are left as they are.
func (s *DriverSource) modFile(dir string) ([]string, error) {
	var get []string
	pkgs := runtimePackages
	if s.needsSQLite() {
		pkgs = append(pkgs[:len(pkgs):len(pkgs)], runtimeSQLite)
	}
	for _, p := range pkgs {
		v := requiredVersion(s.ModuleDir, p.module)
		if v == "" {
			v = p.version
		}
		get = append(get, p.pkg+"@"+v)
	}
	modDir := filepath.Join(dir, "mod")
	if err := os.MkdirAll(modDir, 0o755); err != nil {
		return nil, err
	}
	for _, f := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(s.ModuleDir, f))
		if err != nil && !(f == "go.sum" && os.IsNotExist(err)) {
			return nil, fmt.Errorf("copying the module's %s: %w", f, err)
		}
		if err := os.WriteFile(filepath.Join(modDir, f), data, 0o644); err != nil {
			return nil, fmt.Errorf("copying the module's %s: %w", f, err)
		}
	}
	flag := "-modfile=" + filepath.Join(modDir, "go.mod")
	cmd := exec.Command("go", append([]string{"get", flag}, get...)...)
	cmd.Dir = s.ModuleDir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("adding the witness runtime's packages (%s) to a copy of go.mod: %w\n%s", strings.Join(get, ", "), err, out)
	}
	return []string{flag}, nil
}
