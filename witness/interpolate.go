package witness

import (
	"go/ast"
	"go/token"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// interpolates reports whether the program's code turns on
// go-sql-driver/mysql's client-side interpolation: a string literal with
// "interpolateParams=true" (a DSN), or a mysql.Config's InterpolateParams
// set to true (a composite literal's field or an assignment). The engine
// computes differently then — an unsigned argument is a plain number in
// the SQL text, not a BIGINT UNSIGNED parameter — so a replay must
// connect the same way. (The check's front end reads any mention of
// interpolateParams as interpolation, the sound side for its verdict;
// a replay copies the program's setting, so it looks for the value.)
func interpolates(pkgs []*packages.Package) bool {
	found := false
	for _, p := range pkgs {
		for _, f := range p.Syntax {
			ast.Inspect(f, func(n ast.Node) bool {
				if found {
					return false
				}
				switch n := n.(type) {
				case *ast.BasicLit:
					if n.Kind == token.STRING {
						if s, err := strconv.Unquote(n.Value); err == nil && strings.Contains(strings.ToLower(s), "interpolateparams=true") {
							found = true
						}
					}
				case *ast.KeyValueExpr:
					found = isInterpolateField(n.Key) && isTrue(n.Value)
				case *ast.AssignStmt:
					for i, l := range n.Lhs {
						if i < len(n.Rhs) && isInterpolateField(l) && isTrue(n.Rhs[i]) {
							found = true
						}
					}
				}
				return !found
			})
		}
	}
	return found
}

// ProgramDSN is dsn, a DSN for driverName, set to connect as the program
// in pkgs does: for go-sql-driver/mysql, with interpolateParams=true
// exactly when the program turns client-side interpolation on
// (interpolated reports it). Other drivers' DSNs are returned as they are.
func ProgramDSN(driverName, dsn string, pkgs []*packages.Package) (_ string, interpolated bool) {
	if driverName != "mysql" {
		return dsn, false
	}
	on := interpolates(pkgs)
	return withInterpolation(dsn, on), on
}

// isInterpolateField reports whether e names a field InterpolateParams
// (a key of a composite literal, or x.InterpolateParams).
func isInterpolateField(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name == "InterpolateParams"
	case *ast.SelectorExpr:
		return e.Sel.Name == "InterpolateParams"
	}
	return false
}

func isTrue(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "true"
}

// withInterpolation is dsn (a go-sql-driver/mysql DSN) with
// interpolateParams=true if on, and without any interpolateParams
// parameter (the driver's default, off) if not: the program's setting,
// whatever a --dsn given to replay says.
func withInterpolation(dsn string, on bool) string {
	base, query, _ := strings.Cut(dsn, "?")
	var params []string
	for _, p := range strings.Split(query, "&") {
		if p != "" && !strings.HasPrefix(strings.ToLower(p), "interpolateparams=") {
			params = append(params, p)
		}
	}
	if on {
		params = append(params, "interpolateParams=true")
	}
	if len(params) == 0 {
		return base
	}
	return base + "?" + strings.Join(params, "&")
}
