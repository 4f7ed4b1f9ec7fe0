package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/dbverify/dbverify/frontend"
	"github.com/dbverify/dbverify/report"
)

// testSets holds, by module root, the packages of each test module loaded
// once (a func returning the frontend.PackageSet): the tests of this
// package make a few hundred runs over a handful of modules, and a run's
// own load (a go list of the module's packages and their dependencies)
// costs more CPU than deciding most of them.
var testSets sync.Map

// runShared is Run with cfg's packages taken from its module's shared
// set, when the module is one of this package's testdata and the
// patterns are directory patterns (else as Run loads them: the corpus
// module, whose load the few runs on its cases would not repay).
func runShared(ctx context.Context, cfg Config) (*report.Report, error) {
	if cfg.Packages == nil && dirPatterns(cfg.Patterns) {
		if root := moduleRoot(cfg.Dir); isTestdata(root) {
			load, _ := testSets.LoadOrStore(root, sync.OnceValues(func() (*frontend.PackageSet, error) {
				return frontend.LoadPackageSet(root, "./...")
			}))
			if set, err := load.(func() (*frontend.PackageSet, error))(); err == nil {
				cfg.Packages = set
			}
		}
	}
	return Run(ctx, cfg)
}

// dirPatterns says whether every pattern is a directory pattern ("./x",
// "./x/...", "."), which a package set matches.
func dirPatterns(patterns []string) bool {
	for _, p := range patterns {
		if p != "." && !strings.HasPrefix(p, "./") {
			return false
		}
	}
	return len(patterns) > 0
}

// moduleRoot is the directory of the go.mod at or above dir ("" if none).
func moduleRoot(dir string) string {
	d, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// isTestdata says whether dir is a module of this package's testdata.
func isTestdata(dir string) bool {
	abs, err := filepath.Abs("testdata")
	return err == nil && dir != "" && strings.HasPrefix(dir, abs+string(filepath.Separator))
}
