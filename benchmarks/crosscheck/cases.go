package crosscheck

import (
	"path/filepath"
	"regexp"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/dbverify/dbverify/benchmarks/harness"
	"github.com/dbverify/dbverify/sqlparse"
)

// caseArgs are the dbverify arguments of a case that the execution needs.
type caseArgs struct {
	constraints []string
	table       string
	schema      string
	dialect     string
	assume      []string
	noInferKey  bool
}

func parseArgs(args []string) caseArgs {
	var a caseArgs
	for i := 0; i < len(args); i++ {
		arg := args[i]
		val := ""
		if k, v, ok := strings.Cut(arg, "="); ok && strings.HasPrefix(k, "--") {
			arg, val = k, v
		} else if i+1 < len(args) {
			val = args[i+1]
		}
		take := func() string {
			if !strings.Contains(args[i], "=") {
				i++
			}
			return val
		}
		switch arg {
		case "--constraint", "-c":
			a.constraints = append(a.constraints, take())
		case "--table":
			a.table = take()
		case "--schema":
			a.schema = take()
		case "--dialect":
			a.dialect = take()
		case "--assume":
			a.assume = append(a.assume, take())
		case "--no-infer-key":
			a.noInferKey = true
		case "--entry", "--max-refinements", "--timeout", "--time-limit", "--engine", "--format", "--jobs", "-j":
			take()
		}
	}
	return a
}

var driverDialects = map[string]sqlparse.Dialect{
	"github.com/lib/pq":               sqlparse.Postgres,
	"github.com/jackc/pgx/v5":         sqlparse.Postgres,
	"github.com/jackc/pgx/v5/stdlib":  sqlparse.Postgres,
	"github.com/jackc/pgx/v5/pgxpool": sqlparse.Postgres,
	"github.com/go-sql-driver/mysql":  sqlparse.MySQL,
	"modernc.org/sqlite":              sqlparse.SQLite,
	"github.com/mattn/go-sqlite3":     sqlparse.SQLite,
}

var dollar = regexp.MustCompile(`\$[0-9]+`)

// caseDialect is the dialect dbverify uses for the case: --dialect, else
// the drivers its packages import when they agree, else postgres when
// the SQL uses $n, else mysql (frontend.chooseDialect's rule).
func caseDialect(a caseArgs, pkgs []*packages.Package) sqlparse.Dialect {
	if a.dialect != "" {
		d, _ := sqlparse.ParseDialect(a.dialect)
		return d
	}
	found := importedDialects(pkgs)
	if len(found) == 1 {
		for d := range found {
			return d
		}
	}
	for _, p := range pkgs {
		if p.TypesInfo == nil {
			continue
		}
		for _, tv := range p.TypesInfo.Types {
			if tv.Value != nil && dollar.MatchString(tv.Value.ExactString()) {
				return sqlparse.Postgres
			}
		}
	}
	return sqlparse.MySQL
}

// importedDialects are the dialects of the drivers the packages import,
// with a driver of each.
func importedDialects(pkgs []*packages.Package) map[sqlparse.Dialect]string {
	found := map[sqlparse.Dialect]string{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if d, ok := driverDialects[p.PkgPath]; ok {
			found[d] = p.PkgPath
		}
	})
	return found
}

// casePackages are the loaded packages under the case's directory.
func casePackages(c *harness.Case, all []*packages.Package) []*packages.Package {
	var out []*packages.Package
	for _, p := range all {
		if len(p.GoFiles) == 0 {
			continue
		}
		dir := filepath.Dir(p.GoFiles[0])
		if dir == c.Dir || strings.HasPrefix(dir, c.Dir+string(filepath.Separator)) {
			out = append(out, p)
		}
	}
	return out
}
