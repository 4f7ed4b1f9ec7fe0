package harness

import (
	"fmt"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// FrontendTime is the reference front end: it loads the packages matching
// patterns in dir with go/packages (full syntax and types of every
// dependency, as dbverify needs) and builds SSA for the whole program, in
// this process, and returns how long that took. dbverify cannot be faster
// than this; its time over this one measures the verifier's own cost.
func FrontendTime(dir string, patterns ...string) (time.Duration, error) {
	start := time.Now()
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
			packages.NeedImports | packages.NeedDeps | packages.NeedTypes |
			packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedTypesSizes |
			packages.NeedModule,
		Dir: dir,
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return 0, err
	}
	var msgs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			msgs = append(msgs, e.Error())
		}
	})
	if len(msgs) > 0 {
		return 0, fmt.Errorf("%s", strings.Join(msgs, "; "))
	}
	prog, _ := ssautil.AllPackages(pkgs, ssa.InstantiateGenerics)
	prog.Build()
	return time.Since(start), nil
}
