package frontend

// Trace steps name a Go statement by the line where it starts, shown as
// one line of text: a call written over several lines (the SQL on the
// next line, the arguments after it), a struct literal, a condition
// continued on the next line are one statement, not one step per line
// go/ssa gives its parts (issue 12, round 15).

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"regexp"
	"strings"

	"github.com/dbverify/dbverify/ir"
)

// stmtLines are the statements of one source file: for each line inside
// a statement that starts on an earlier line, that line (start), and for
// each line where a statement spanning several lines starts, the
// statement as one line of text (text).
type stmtLines struct {
	start map[int]int
	text  map[int]string
}

// maxStmtText bounds a statement's text shown on one line; a longer one
// shows its long string literals shortened, then its first line.
const maxStmtText = 200

// stmtAt returns the line where the Go statement holding pos starts and
// the statement's text on one line ("" where it is the line's own text).
func (l *Loaded) stmtAt(pos token.Pos) (int, string) {
	p := l.Fset.Position(pos)
	if p.Filename == "" {
		return p.Line, ""
	}
	s, ok := l.stmts[p.Filename]
	if !ok {
		s = parseStmtLines(p.Filename)
		l.stmts[p.Filename] = s
	}
	line := p.Line
	if st, ok := s.start[line]; ok {
		line = st
	}
	return line, s.text[line]
}

// parseStmtLines reads the statements of a file; none when it does not
// parse.
func parseStmtLines(filename string) stmtLines {
	s := stmtLines{start: map[int]int{}, text: map[int]string{}}
	src, err := os.ReadFile(filename)
	if err != nil {
		return s
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filename, src, parser.SkipObjectResolution)
	if err != nil {
		return s
	}
	line := func(p token.Pos) int { return fset.Position(p).Line }
	span := func(n ast.Node, from, to token.Pos, header ast.Node) {
		first, last := line(from), line(to)
		for k := first + 1; k <= last; k++ {
			s.start[k] = first
		}
		if _, set := s.text[first]; !set && last > first {
			// (A statement inside another that starts on its line, an
			// if's init, is shown as part of it.)
			s.text[first] = oneLine(header)
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncDecl:
			if x.Body != nil {
				span(x, x.Pos(), x.Body.Lbrace, &ast.FuncDecl{Recv: x.Recv, Name: x.Name, Type: x.Type, Body: &ast.BlockStmt{}})
			}
		case *ast.FuncLit:
			// The literal's body is statements of their own.
			for k := line(x.Body.Lbrace) + 1; k <= line(x.Body.Rbrace); k++ {
				delete(s.start, k)
			}
		case *ast.IfStmt:
			span(x, x.Pos(), x.Body.Lbrace, &ast.IfStmt{Init: x.Init, Cond: x.Cond, Body: &ast.BlockStmt{}})
		case *ast.ForStmt:
			span(x, x.Pos(), x.Body.Lbrace, &ast.ForStmt{Init: x.Init, Cond: x.Cond, Post: x.Post, Body: &ast.BlockStmt{}})
		case *ast.RangeStmt:
			span(x, x.Pos(), x.Body.Lbrace, &ast.RangeStmt{Key: x.Key, Value: x.Value, Tok: x.Tok, X: x.X, Body: &ast.BlockStmt{}})
		case *ast.SwitchStmt:
			span(x, x.Pos(), x.Body.Lbrace, &ast.SwitchStmt{Init: x.Init, Tag: x.Tag, Body: &ast.BlockStmt{}})
		case *ast.TypeSwitchStmt:
			span(x, x.Pos(), x.Body.Lbrace, &ast.TypeSwitchStmt{Init: x.Init, Assign: x.Assign, Body: &ast.BlockStmt{}})
		case *ast.CaseClause:
			span(x, x.Pos(), x.Colon, &ast.CaseClause{List: x.List})
		case *ast.AssignStmt, *ast.ExprStmt, *ast.ReturnStmt, *ast.DeclStmt, *ast.IncDecStmt, *ast.SendStmt, *ast.GoStmt, *ast.DeferStmt:
			span(x, x.Pos(), x.End(), x)
		}
		return true
	})
	return s
}

// spaces are the blanks that go/printer leaves where the source breaks a
// line.
var spaces = regexp.MustCompile(`\s*\n\s*`)

// oneLine prints a statement (or a header: an if's, a func's) on one
// line, without comments; long string literals shortened when it is
// longer than maxStmtText, "" when still longer.
func oneLine(n ast.Node) string {
	lit := false
	ast.Inspect(n, func(x ast.Node) bool {
		_, ok := x.(*ast.FuncLit)
		lit = lit || ok
		return !lit
	})
	if lit {
		return "" // a function literal's body is steps of its own
	}
	text := printLine(n)
	if len(text) > maxStmtText {
		ast.Inspect(n, func(x ast.Node) bool {
			if lit, ok := x.(*ast.BasicLit); ok && lit.Kind == token.STRING && len(lit.Value) > 24 {
				lit.Value = lit.Value[:20] + "…" + lit.Value[len(lit.Value)-1:]
			}
			return true
		})
		text = printLine(n)
	}
	if len(text) > maxStmtText {
		return ""
	}
	return text
}

// printLine prints n with its line breaks joined by one space; a header's
// empty body ({}) is printed as "{".
func printLine(n ast.Node) string {
	var buf bytes.Buffer
	if err := printer.Fprint(&buf, token.NewFileSet(), n); err != nil {
		return ""
	}
	text := spaces.ReplaceAllString(strings.TrimSpace(buf.String()), " ")
	if t, ok := strings.CutSuffix(text, " {}"); ok {
		text = t + " {"
	} else if t, ok := strings.CutSuffix(text, "{ }"); ok {
		text = t + "{"
	}
	return text
}

// markScopes sets the Scope of the inlined functions' locals: the
// longest prefix of an inlined function their name starts with.
func (t *translator) markScopes() {
	for _, v := range t.p.Vars {
		if v.Kind != ir.Local {
			continue
		}
		for p := range t.scopes {
			if strings.HasPrefix(v.Name, p) && len(p) > len(v.Scope) && len(v.Name) > len(p) {
				v.Scope = p
			}
		}
	}
}
