package frontend

// The constant beginning of SQL text built at run time: a query built as
// "SELECT … WHERE " + cond, or fmt.Sprintf("SELECT … %s", cond), is a
// read whatever the rest; coverage does not list its function as a writer
// of unknown SQL.

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"
	"unicode"

	"golang.org/x/tools/go/ssa"
)

// maxPrefixDepth bounds the values followed for a constant prefix.
const maxPrefixDepth = 12

// isSelectPrefix reports whether SQL text v, not a constant, begins with
// constant text whose first keyword is SELECT: the statement reads (a
// single statement; WITH is not taken, its CTEs may write).
func isSelectPrefix(v ssa.Value) bool {
	p := constPrefix(v, map[ssa.Value]bool{}, 0)
	p = strings.TrimLeftFunc(p, func(r rune) bool { return unicode.IsSpace(r) || r == '(' })
	if len(p) < len("select ") {
		return false
	}
	return strings.EqualFold(p[:len("select")], "select") && unicode.IsSpace(rune(p[len("select")]))
}

// constPrefix is the longest text every value of v begins with, as far as
// constants say: a constant, the prefix of the left operand of + (and of
// the right one when the left is constant), a constant format's text up
// to its first verb, the common prefix of a φ's edges.
func constPrefix(v ssa.Value, seen map[ssa.Value]bool, depth int) string {
	if depth > maxPrefixDepth || seen[v] {
		return ""
	}
	seen[v] = true
	defer delete(seen, v)
	switch v := v.(type) {
	case *ssa.Const:
		if v.Value != nil && v.Value.Kind() == constant.String {
			return constant.StringVal(v.Value)
		}
	case *ssa.BinOp:
		if v.Op != token.ADD {
			return ""
		}
		if s, ok := constString(v.X); ok {
			return s + constPrefix(v.Y, seen, depth+1)
		}
		return constPrefix(v.X, seen, depth+1)
	case *ssa.ChangeType:
		return constPrefix(v.X, seen, depth+1)
	case *ssa.Convert:
		if isString(v.X.Type()) {
			return constPrefix(v.X, seen, depth+1)
		}
	case *ssa.Phi:
		return phiPrefix(v, seen, depth)
	case *ssa.Call:
		if p := sprintfPrefix(v.Common()); p != "" {
			return p
		}
		return builderPrefix(v.Common())
	}
	return ""
}

// builderPrefix is the constant text first written to a strings.Builder
// whose String() c is: the builder is a local of the function's entry
// block, and the first call on it there is WriteString of a constant
// (nothing can be written to it before).
func builderPrefix(c *ssa.CallCommon) string {
	if !isBuilderMethod(c, "String") || len(c.Args) != 1 {
		return ""
	}
	b, ok := c.Args[0].(*ssa.Alloc)
	if !ok || b.Block() == nil || b.Block().Index != 0 {
		return ""
	}
	for _, instr := range b.Block().Instrs {
		call, ok := instr.(*ssa.Call)
		if !ok || len(call.Call.Args) == 0 || call.Call.Args[0] != ssa.Value(b) {
			continue
		}
		if isBuilderMethod(call.Common(), "WriteString") && len(call.Call.Args) == 2 {
			s, _ := constString(call.Call.Args[1])
			return s
		}
		return ""
	}
	return ""
}

// isBuilderMethod reports whether c calls (*strings.Builder).name.
func isBuilderMethod(c *ssa.CallCommon, name string) bool {
	fn := c.StaticCallee()
	if fn == nil || fn.Name() != name || fn.Signature.Recv() == nil {
		return false
	}
	p, ok := fn.Signature.Recv().Type().(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := p.Elem().(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "strings" && n.Obj().Name() == "Builder"
}

// phiPrefix is the common prefix of a φ's edges; an edge that comes back
// to the φ (query += "…" in a loop) keeps the prefix of the others.
func phiPrefix(v *ssa.Phi, seen map[ssa.Value]bool, depth int) string {
	var out string
	first := true
	for _, e := range v.Edges {
		if seen[e] || backTo(e, v) {
			continue
		}
		p := constPrefix(e, seen, depth+1)
		if first {
			out, first = p, false
			continue
		}
		n := 0
		for n < len(out) && n < len(p) && out[n] == p[n] {
			n++
		}
		out = out[:n]
	}
	return out
}

// backTo reports whether e is v + "…" (text appended to the φ itself).
func backTo(e ssa.Value, v *ssa.Phi) bool {
	b, ok := e.(*ssa.BinOp)
	return ok && b.Op == token.ADD && b.X == v
}

// sprintfPrefix is the text of fmt.Sprintf's constant format up to its
// first verb.
func sprintfPrefix(c *ssa.CallCommon) string {
	fn := c.StaticCallee()
	if fn == nil || fn.Pkg == nil || fn.Pkg.Pkg.Path() != "fmt" || fn.Name() != "Sprintf" || len(c.Args) == 0 {
		return ""
	}
	format, ok := constString(c.Args[0])
	if !ok {
		return ""
	}
	if i := strings.IndexByte(format, '%'); i >= 0 {
		return format[:i]
	}
	return format
}
