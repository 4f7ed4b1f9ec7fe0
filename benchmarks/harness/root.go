package harness

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"
)

// ModulePath is the import path of dbverify's module.
const ModulePath = "github.com/dbverify/dbverify"

// ModuleRoot finds the root of dbverify's module: the nearest directory at
// or above start whose go.mod declares ModulePath, or else the directory
// of `go env GOMOD` run in start if that go.mod declares it.
func ModuleRoot(start string) (string, error) {
	dir, err := filepath.Abs(start)
	if err != nil {
		return "", err
	}
	for d := dir; ; {
		if isModuleRoot(d) {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	cmd := exec.Command("go", "env", "GOMOD")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err == nil {
		if gomod := strings.TrimSpace(string(out)); gomod != "" && gomod != os.DevNull {
			if d := filepath.Dir(gomod); isModuleRoot(d) {
				return d, nil
			}
		}
	}
	return "", fmt.Errorf("no go.mod of %s at or above %s", ModulePath, dir)
}

func isModuleRoot(dir string) bool {
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	return err == nil && modfile.ModulePath(data) == ModulePath
}

// BuildBinary builds cmd/dbverify of the module at root into dir and
// returns the binary's path.
func BuildBinary(root, dir string) (string, error) {
	bin := filepath.Join(dir, "dbverify")
	// Without the symbol table and DWARF (-s -w), which no test reads,
	// the link takes a third less.
	cmd := exec.Command("go", "build", "-ldflags=-s -w", "-o", bin, "./cmd/dbverify")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build ./cmd/dbverify: %v\n%s", err, stderr.String())
	}
	return bin, nil
}
