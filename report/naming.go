package report

import (
	"strings"

	"github.com/dbverify/dbverify/ir"
)

// rowNaming tells BuildTrace which row symbol is the watched one and
// which columns are the row model's bookkeeping. It is the one place that
// knows package dbmodel's naming convention; once the lowering result
// names its watched symbols and ghosts, rowNaming is made from it.
type rowNaming struct {
	watched string // the watched row's symbol
}

// conventionalNaming is dbmodel's convention: the watched row is "r", a
// column whose name starts with "$" (r.$exists) is a ghost.
func conventionalNaming() rowNaming { return rowNaming{watched: "r"} }

// isWatched reports whether sym is the watched row: the row whose state
// at entry is shown first and whose state at the end is the violation.
func (n rowNaming) isWatched(sym string) bool { return sym == n.watched }

// isGhostColumn reports whether v is a bookkeeping column of a row
// symbol, such as r.$exists: never shown.
func (n rowNaming) isGhostColumn(v *ir.Var) bool { return strings.HasPrefix(v.Col, "$") }

// displayName drops the numeric suffix that keeps variable names unique
// (bal#2 is the Go variable bal).
func displayName(name string) string {
	if i := strings.LastIndexByte(name, '#'); i > 0 {
		return name[:i]
	}
	return name
}

// isTemporary reports whether a variable is a compiler temporary or a
// model artefact rather than something the user wrote: SSA values (t12),
// lengths, call results, values returned by RETURNING before they reach a
// Go variable.
func isTemporary(name string) bool {
	name = displayName(name)
	base := name
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		base = name[i+1:]
	}
	switch {
	case strings.ContainsAny(name, "$()"), base == "merged", base == "noRows":
		return true
	case strings.HasPrefix(base, "returned") && isDigits(base[len("returned"):]):
		return true
	case len(base) > 1 && base[0] == 't' && isDigits(base[1:]):
		return true
	}
	return false
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
