package witness

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"golang.org/x/tools/go/packages"
)

// LoadMode is what GenerateDriver needs of the loaded packages.
const LoadMode = packages.NeedName | packages.NeedFiles | packages.NeedTypes |
	packages.NeedImports | packages.NeedDeps | packages.NeedModule

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
	cmd := exec.Command("go", "build", "-overlay", ovPath, "-o", bin, "./"+MainDir)
	cmd.Dir = s.ModuleDir
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the witness driver: %w\n%s", err, out)
	}
	return bin, nil
}
