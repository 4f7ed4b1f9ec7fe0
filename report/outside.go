package report

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"

	"github.com/dbverify/dbverify/ir"
)

// maxOutside bounds the outside values listed (the steps show them all).
const maxOutside = 8

// outsideRead is a value the path reads from a call outside the
// analysed code, with the call's step.
type outsideRead struct {
	v    *ir.Var
	r    *ir.Var // the path's copy of v, whose value is read
	info *ir.Info
}

// outside lists the values the path reads from calls outside the
// analysed code: variables a call step havocs (not the entry's inputs,
// rows, ghosts or errors), with the value the path first reads. A name
// is listed once per call site, with the value of the first call that
// gives it: the fields of a decoded body (`A.body.Delta`) are havocked
// again by every later call the body's address may reach
// (`w.WriteHeader`), each a variable of its own, and the line listed
// `A.body.Delta` three times with three values (an independent tester's
// p20twohandlers: which body does A send?); the request sends the first,
// which the steps show decoded. A callee whose results the path reads
// at two call sites is listed at each, named by the call as written and
// its line (`strconv.ParseInt(os.Getenv("SURCHARGE"), 10, 64) (line
// 20)`): listed once by its name, the line read `strconv.ParseInt() =
// 0` without saying which of three calls (an independent tester's
// fiberplans).
func (b *traceBuilder) outside() (Inputs, error) {
	reads := b.outsideReads()
	sites := map[string]map[int]bool{}
	for _, o := range reads {
		name := displayName(o.v.Name)
		if !isCallResultName(name) {
			continue // (a body's field havocked again by a later call: one value)
		}
		if sites[name] == nil {
			sites[name] = map[int]bool{}
		}
		sites[name][o.info.Line] = true
	}
	out := Inputs{}
	listed := map[string]bool{}
	for _, o := range reads {
		name := displayName(o.v.Name)
		key := name
		if len(sites[name]) > 1 {
			key += "@" + strconv.Itoa(o.info.Line)
		}
		if listed[key] {
			continue
		}
		listed[key] = true
		s, err := b.value(o.r)
		if err != nil {
			return nil, err
		}
		shown := shownName(o.v, nil, s)
		if len(sites[name]) > 1 {
			shown = callAtSite(shown, o.info)
		}
		out = append(out, Binding{Name: shown, Value: s})
		if len(out) == maxOutside {
			break
		}
	}
	return out, nil
}

// outsideReads are the values of calls outside the analysed code that
// the path reads later, in the order of their steps.
func (b *traceBuilder) outsideReads() []outsideRead {
	var out []outsideRead
	seen := map[*ir.Var]bool{}
	for _, st := range b.pf.Steps {
		h, ok := st.Edge.Stmt.(*ir.Havoc)
		if !ok || h.Info.Kind != ir.KindCall || h.Info.File == "" {
			continue
		}
		for _, r := range st.Defs {
			v := b.pf.Origin[r].Orig
			if seen[v] || !b.readLater[r] || !outsideValue(v) || b.hidden(v) {
				continue
			}
			seen[v] = true
			out = append(out, outsideRead{v: v, r: r, info: &h.Info})
		}
	}
	return out
}

// callAtSite names the result of a call (`strconv.ParseInt()`, `Getenv()`,
// with a result index `.1`) by the call as its line writes it and the
// line: `strconv.ParseInt(os.Getenv("SURCHARGE"), 10, 64) (line 20)`. A
// name that is no call's result, or whose call the line does not
// spell, keeps its name and gets the line.
func callAtSite(name string, info *ir.Info) string {
	line := " (line " + strconv.Itoa(info.Line) + ")"
	open := strings.IndexByte(name, '(')
	if open <= 0 || !strings.HasSuffix(name, "()") {
		return name + line // (a result index: `Lookup().1 (line 20)`)
	}
	short := name[:open]
	if i := strings.LastIndexByte(short, '.'); i >= 0 {
		short = short[i+1:]
	}
	if text, ok := callText(info.Text, short); ok {
		return text + line
	}
	return name + line
}

// callText is the text of the first call of a function or method named
// name on a Go line ("strconv.ParseInt(os.Getenv(\"A\"), 10, 64)").
func callText(line, name string) (string, bool) {
	body := strings.TrimPrefix(strings.TrimSpace(line), "} else ")
	if strings.HasSuffix(body, "{") {
		body += "}"
	}
	const prefix = "package p\nfunc _() {\n"
	src := prefix + body + "\n}\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, 0)
	if err != nil {
		return "", false
	}
	var call *ast.CallExpr
	ast.Inspect(f, func(x ast.Node) bool {
		if call == nil && isCallOf(asExpr(x), name) {
			call = x.(*ast.CallExpr)
		}
		return call == nil
	})
	if call == nil {
		return "", false
	}
	return src[fset.Position(call.Pos()).Offset:fset.Position(call.End()).Offset], true
}

// asExpr is x as an expression (nil when it is none).
func asExpr(x ast.Node) ast.Expr {
	e, _ := x.(ast.Expr)
	return e
}

// isCallResultName reports whether name is the result of an outside call
// as the model names it: `Getenv()`, `strconv.ParseInt()`, `Lookup().0`.
func isCallResultName(name string) bool {
	if i := strings.LastIndexByte(name, '.'); i >= 0 && i == len(name)-2 && name[i+1] >= '0' && name[i+1] <= '9' {
		name = name[:i]
	}
	return strings.HasSuffix(name, "()")
}
