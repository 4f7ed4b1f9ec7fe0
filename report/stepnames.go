package report

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"regexp"
	"strconv"
	"strings"
)

// labelSteps labels each step by what its Go line does, not by the first
// statement the frontend made of it: a line with an if (for, switch,
// case) is a branch, or a call where the line calls a function whose
// steps follow before the condition is decided (the same line appears
// again later, with its outcome); a line that starts a function is the
// call's entry; a return line is a return. (An independent review found
// `if err := qtx.ConsumeCredits(…); err != nil {` labelled assign.)
func labelSteps(steps []Step) {
	for k := range steps {
		s := &steps[k]
		if s.Kind == "sql" {
			continue
		}
		text := strings.TrimSpace(s.Text)
		switch {
		case isBranchLine(text):
			s.Kind = "branch"
			if s.Outcome == "" && decidedLater(steps, k) {
				s.Kind = "call"
			}
		case strings.HasPrefix(text, "func ") || strings.HasPrefix(text, "func("):
			s.Kind = "call"
		case text == "return" || strings.HasPrefix(text, "return ") && s.Kind != "call":
			s.Kind = "return"
		case s.Kind == "assign" && callsInto(steps, k):
			s.Kind = "call"
		}
	}
}

// undecidedCall matches a call in a Go line: a name and its "(".
var undecidedCall = regexp.MustCompile(`[\w\]]\(`)

// typeAssertion matches a type assertion x.(T) in a Go line (not a type
// switch's x.(type)): its step is the assertion holding, the path's
// choice of x's dynamic type (`q := s.Querier.(*Queries)`).
var typeAssertion = regexp.MustCompile(`\.\(\*?[\w.\[\]]+\)`)

// assertsType reports whether a Go line has a type assertion.
func assertsType(line string) bool {
	for _, m := range typeAssertion.FindAllString(line, -1) {
		if m != ".(type)" {
			return true
		}
	}
	return false
}

// foldUndecided gives every branch step without an outcome that
// labelSteps left one (and an assign of no value that calls into another
// line whose return the path never reaches, a call): a line that calls a function whose steps follow
// and whose condition the path never decides (it ends in the callee: `if
// err := a.Store.SpendPoints(…); err != nil {` then the callee's
// violating UPDATE) is the call; a step that assigns values is an
// assign; any other decides nothing the trace shows (the jump to an
// if's end after a return or a w.WriteHeader, a range loop's advance)
// and is left out. Such lines printed "branch" without a way (an
// independent tester, adv18: `B orderdep.go:63 branch if n, _ :=
// res.RowsAffected(); n == 0 {` after B's w.WriteHeader).
func foldUndecided(steps []Step) []Step {
	out := steps[:0:0]
	for k, s := range steps {
		if s.Kind == "assign" && len(s.Values) == 0 && undecidedCall.MatchString(s.Text) && entersOtherLine(steps, k) {
			s.Kind = "call" // (err = st.SpendPoints(…), the path ending in it)
		}
		if s.Kind != "branch" || s.Outcome != "" {
			out = append(out, s)
			continue
		}
		switch {
		case undecidedCall.MatchString(s.Text) && entersOtherLine(steps, k):
			s.Kind = "call"
		case len(s.Values) > 0 || s.Note != "" || s.Fails || s.NoRows || assertsType(s.Text):
			s.Kind = "assign"
		default:
			continue
		}
		out = append(out, s)
	}
	return out
}

// entersOtherLine reports whether the next step of step k's request is
// at another line: the path goes on elsewhere (into a callee).
func entersOtherLine(steps []Step, k int) bool {
	for _, t := range steps[k+1:] {
		if t.Request == steps[k].Request {
			return t.Position != steps[k].Position
		}
	}
	return false
}

// isBranchLine reports whether a Go line (trimmed) decides a branch.
func isBranchLine(text string) bool {
	for _, p := range []string{"if ", "} else if ", "for ", "for{", "switch ", "switch{", "case ", "default:", "select {"} {
		if strings.HasPrefix(text, p) {
			return true
		}
	}
	return text == "for {" || text == "} else {"
}

// decidedLater reports whether the line of step k appears again later in
// the same request with an outcome: its condition is decided after the
// steps of a call it makes.
func decidedLater(steps []Step, k int) bool {
	for _, s := range steps[k+1:] {
		if s.Request == steps[k].Request && s.Position == steps[k].Position && s.Text == steps[k].Text && s.Outcome != "" {
			return true
		}
	}
	return false
}

// callsInto reports whether the statement of step k calls a function
// whose steps follow at other lines before the statement goes on (the
// same line again later in the request): `x := f(a)` is a call there.
func callsInto(steps []Step, k int) bool {
	s := steps[k]
	next := -1
	for j := k + 1; j < len(steps); j++ {
		if steps[j].Request == s.Request {
			next = j
			break
		}
	}
	if next < 0 || steps[next].Position == s.Position {
		return false
	}
	for _, t := range steps[next:] {
		if t.Request == s.Request && t.Position == s.Position && t.Text == s.Text {
			return true
		}
	}
	return false
}

// resultName matches the name of an inlined function's result:
// "GetAvailable.ret1", "A.validate.ret0" (in request A).
var resultName = regexp.MustCompile(`^(?:([A-Z])\.)?(.+)\.ret(\d+)$`)

// nameResults renames, in the steps' values, the results of inlined calls
// (GetAvailable.ret0) after the call as the developer wrote it: the
// variable the call site assigns the result to (`left`, `err`), else the
// call's text (`validate(amount)`); the entry's own result after the entry
// (`Redeem(…)`). A name already shown at the step keeps its value.
func (b *traceBuilder) nameResults(steps []Step) {
	for k := range steps {
		renamed := map[string]string{}
		for name, v := range steps[k].Values {
			m := resultName.FindStringSubmatch(name)
			if m == nil {
				continue
			}
			n, _ := strconv.Atoi(m[3])
			shown := callResultName(steps, k, m[1], m[2], n)
			if m[1] != "" {
				shown = m[1] + "." + shown
			}
			if old, taken := steps[k].Values[shown]; taken && old == v {
				renamed[name] = shown // (the callee's own bal, returned as the caller's bal)
				continue
			} else if taken || shown == name {
				continue
			}
			renamed[name] = shown
			if b.errs[name] {
				b.errs[shown] = true
			}
			steps[k].Values[shown] = v
		}
		for name := range renamed {
			delete(steps[k].Values, name)
		}
	}
}

// callResultName names result n of function fn (as the trace names it:
// "GetAvailable", "(*Queries).GetAvailable", "book$1") returned at step k
// of request req: from the nearest earlier step of the request that
// calls it.
func callResultName(steps []Step, k int, req, fn string, n int) string {
	short := fn
	if i := strings.LastIndexAny(short, ".)"); i >= 0 {
		short = short[i+1:]
	}
	for j := k - 1; j >= 0; j-- {
		s := steps[j]
		text := strings.TrimSpace(s.Text)
		if s.Request != req || s.Kind == "sql" || strings.HasPrefix(text, "func") || !callsName(text, short) {
			continue
		}
		if name, ok := resultAt(text, short, n); ok {
			return name
		}
		break
	}
	return short + "(…)" + resultSuffix(n, -1)
}

// callsName reports whether a Go line calls a function or method named
// name.
func callsName(text, name string) bool {
	for i := strings.Index(text, name+"("); i >= 0; {
		if i == 0 || !isNameChar(text[i-1]) {
			return true
		}
		j := strings.Index(text[i+1:], name+"(")
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// resultAt names result n of the call of name on a Go line: the variable
// an assignment of the call's results gives it, else the call's text.
func resultAt(line, name string, n int) (string, bool) {
	body := strings.TrimPrefix(line, "} else ")
	if strings.HasSuffix(body, "{") {
		body += "}"
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", "package p\nfunc _() {\n"+body+"\n}\n", 0)
	if err != nil {
		return "", false
	}
	var call *ast.CallExpr
	var lhs []ast.Expr
	ast.Inspect(f, func(x ast.Node) bool {
		if call != nil {
			return false
		}
		switch x := x.(type) {
		case *ast.AssignStmt:
			if len(x.Rhs) == 1 && isCallOf(x.Rhs[0], name) {
				call = x.Rhs[0].(*ast.CallExpr)
				if x.Tok == token.ASSIGN || x.Tok == token.DEFINE {
					lhs = x.Lhs // (total += f(x): total is not f's result)
				}
			}
		case *ast.ValueSpec:
			if len(x.Values) == 1 && isCallOf(x.Values[0], name) {
				call = x.Values[0].(*ast.CallExpr)
				for _, id := range x.Names {
					lhs = append(lhs, id)
				}
			}
		case *ast.CallExpr:
			if isCallOf(x, name) {
				call = x
			}
		}
		return true
	})
	if call == nil {
		return "", false
	}
	if n < len(lhs) {
		if id, ok := lhs[n].(*ast.Ident); ok && id.Name != "_" {
			return id.Name, true
		} else if !ok {
			return exprText(fset, lhs[n]), true
		}
	}
	return shortCall(fset, call) + resultSuffix(n, len(lhs)), true
}

// resultSuffix tells result n of a call apart where the call has more
// than one (results: the number assigned, -1 when not known).
func resultSuffix(n, results int) string {
	if n == 0 && results <= 1 {
		return ""
	}
	return " (result " + strconv.Itoa(n+1) + ")"
}

// isCallOf reports whether e is a call of a function or method named
// name.
func isCallOf(e ast.Expr, name string) bool {
	c, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	switch f := c.Fun.(type) {
	case *ast.Ident:
		return f.Name == name
	case *ast.SelectorExpr:
		return f.Sel.Name == name
	case *ast.IndexExpr: // a generic function's instance
		return isCallOf(&ast.CallExpr{Fun: f.X}, name)
	}
	return false
}

// maxCallText bounds a call's text in a value's name; a longer call
// shows its arguments as "…".
const maxCallText = 48

// shortCall is a call's text as written, its arguments elided where it
// is long.
func shortCall(fset *token.FileSet, c *ast.CallExpr) string {
	s := exprText(fset, c)
	if len(s) <= maxCallText {
		return s
	}
	return exprText(fset, c.Fun) + "(…)"
}

func exprText(fset *token.FileSet, e ast.Expr) string {
	var buf bytes.Buffer
	if err := printer.Fprint(&buf, fset, e); err != nil {
		return ""
	}
	return buf.String()
}
