package frontend

import (
	"go/constant"
	"go/token"
	"go/types"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// SQL text in files embedded with //go:embed.
//
//	//go:embed queries/debit.sql
//	var debitSQL string
//
//	//go:embed queries/*.sql
//	var queries embed.FS
//	… b, err := queries.ReadFile("queries/debit.sql"); db.Exec(string(b), …)
//
// The compiler fills such a variable from the files at build time: its
// content is as static as a constant's. A string variable whose one
// pattern names one file, never stored to by the module and not exported
// from an importable package, is a constant holding the file's text; the
// string conversion of an embed.FS's ReadFile of a constant name the
// patterns embed is that file's text.

// embedPatterns returns the //go:embed patterns written above the
// declaration of g (in the comment lines right before it), and the
// directory they are relative to.
func (l *Loaded) embedPatterns(g *ssa.Global) (patterns []string, dir string) {
	if !g.Pos().IsValid() {
		return nil, ""
	}
	p := l.Fset.Position(g.Pos())
	l.sourceLine(g.Pos()) // (reads the file)
	lines := l.srcLine[p.Filename]
	for i := p.Line - 2; i >= 0 && i < len(lines); i-- {
		line := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(line, "//") {
			break
		}
		rest, ok := strings.CutPrefix(line, "//go:embed ")
		if !ok {
			continue
		}
		for _, f := range strings.Fields(rest) {
			if uq, err := strconv.Unquote(f); err == nil {
				f = uq
			}
			patterns = append(patterns, f)
		}
	}
	return patterns, filepath.Dir(p.Filename)
}

// embeddedString returns the text of the file the string variable g
// embeds (one pattern naming one regular file).
func (l *Loaded) embeddedString(g *ssa.Global) (string, bool) {
	ptr, ok := g.Type().(*types.Pointer)
	if !ok || !isString(ptr.Elem()) {
		return "", false
	}
	pats, dir := l.embedPatterns(g)
	if len(pats) != 1 || strings.HasPrefix(pats[0], "all:") {
		return "", false
	}
	matches, err := filepath.Glob(filepath.Join(dir, filepath.FromSlash(pats[0])))
	if err != nil || len(matches) != 1 {
		return "", false
	}
	return readRegular(matches[0])
}

// readRegular returns the content of the regular file name.
func readRegular(name string) (string, bool) {
	st, err := os.Stat(name)
	if err != nil || !st.Mode().IsRegular() {
		return "", false
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return "", false
	}
	return string(data), true
}

// embedGlobals returns the string variables of the module filled by
// //go:embed that behave as constants (see above), with their text, given
// the variables some module code uses other than by loading them (bad).
func (l *Loaded) embedGlobals(bad map[*ssa.Global]bool) map[*ssa.Global]*ssa.Const {
	out := map[*ssa.Global]*ssa.Const{}
	for p := range l.module {
		for _, mem := range p.Members {
			g, ok := mem.(*ssa.Global)
			if !ok || bad[g] || (g.Object() != nil && g.Object().Exported() && p.Pkg.Name() != "main") {
				continue
			}
			if text, ok := l.embeddedString(g); ok {
				out[g] = ssa.NewConst(constant.MakeString(text), g.Type().(*types.Pointer).Elem())
			}
		}
	}
	return out
}

// embedRead returns the text v holds when v is the []byte result of
// fs.ReadFile(name) on an embed.FS package variable fs filled by
// //go:embed, name a constant the variable's patterns embed.
func (l *Loaded) embedRead(v ssa.Value) (string, bool) {
	ex, ok := v.(*ssa.Extract)
	if !ok || ex.Index != 0 {
		return "", false
	}
	call, ok := ex.Tuple.(*ssa.Call)
	if !ok {
		return "", false
	}
	return l.embedFileRead(call.Common())
}

// embedFileRead returns the text of the file the call c reads when it is
// fs.ReadFile(name) as embedRead describes.
func (l *Loaded) embedFileRead(c *ssa.CallCommon) (string, bool) {
	fn := c.StaticCallee()
	if fn == nil || fn.Name() != "ReadFile" || fn.Signature.Recv() == nil || types.TypeString(fn.Signature.Recv().Type(), nil) != "embed.FS" || len(c.Args) != 2 {
		return "", false
	}
	load, ok := c.Args[0].(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return "", false
	}
	g, ok := load.X.(*ssa.Global)
	if !ok || !l.module[g.Pkg] || l.escapedGlobal(g) {
		return "", false
	}
	name, ok := constString(c.Args[1])
	if !ok {
		return "", false
	}
	pats, dir := l.embedPatterns(g)
	if !embeds(pats, name) {
		return "", false
	}
	return readRegular(filepath.Join(dir, filepath.FromSlash(name)))
}

// embeds reports whether the //go:embed patterns embed the file name (a
// slash-separated path relative to the package): a pattern matches it,
// or a directory pattern holds it (files whose names begin with . or _
// are left out of a directory unless the pattern starts with all:).
func embeds(patterns []string, name string) bool {
	if name != path.Clean(name) || path.IsAbs(name) || strings.HasPrefix(name, "../") {
		return false
	}
	for _, p := range patterns {
		all := strings.HasPrefix(p, "all:")
		p = strings.TrimPrefix(p, "all:")
		if ok, _ := path.Match(p, name); ok {
			return true
		}
		for d := path.Dir(name); d != "." && d != "/"; d = path.Dir(d) {
			if ok, _ := path.Match(p, d); !ok {
				continue
			}
			rel := strings.TrimPrefix(name, d+"/")
			hidden := false
			for _, part := range strings.Split(rel, "/") {
				hidden = hidden || strings.HasPrefix(part, ".") || strings.HasPrefix(part, "_")
			}
			if all || !hidden {
				return true
			}
		}
	}
	return false
}

// staticText returns the text of v when it is fixed at build time though
// not a Go constant: a load of a package-level variable that behaves as a
// constant (constGlobal, //go:embed included), or string(b) of an
// embedded file read.
func (l *Loaded) staticText(v ssa.Value) (string, bool) {
	switch v := v.(type) {
	case *ssa.UnOp:
		if g, ok := v.X.(*ssa.Global); ok && v.Op == token.MUL {
			if c, ok := l.constGlobal(g); ok {
				return constString(c)
			}
		}
	case *ssa.Convert:
		if isString(v.Type()) {
			return l.embedRead(v.X)
		}
	}
	return "", false
}

// staticString is the value of a text fixed at build time that is not a
// constant of the function (staticText), recorded for traces.
func (t *translator) staticString(text string) value {
	if _, num := ir.CanonicalInt(text); !num {
		if t.p.Strings == nil {
			t.p.Strings = map[string]string{}
		}
		t.p.Strings[ir.StringCode(text).V.String()] = text
	}
	return value{expr: ir.StringCode(text), str: text, strKnown: true}
}
