package gen

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// check parses and type-checks a program and returns its file.
func check(t *testing.T, p *Program) *ast.File {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, p.Package+".go", p.Source, parser.ParseComments)
	if err != nil {
		t.Fatalf("%s: %v\n%s", p.Name, err, p.Source)
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	if _, err := conf.Check(Module+"/"+p.Package, fset, []*ast.File{f}, nil); err != nil {
		t.Fatalf("%s: %v\n%s", p.Name, err, p.Source)
	}
	return f
}

// count returns how many nodes of f satisfy pred.
func count(f *ast.File, pred func(ast.Node) bool) int {
	n := 0
	ast.Inspect(f, func(x ast.Node) bool {
		if x != nil && pred(x) {
			n++
		}
		return true
	})
	return n
}

func isExec(x ast.Node) bool {
	c, ok := x.(*ast.CallExpr)
	if !ok {
		return false
	}
	s, ok := c.Fun.(*ast.SelectorExpr)
	return ok && s.Sel.Name == "Exec"
}

func isIf(x ast.Node) bool { _, ok := x.(*ast.IfStmt); return ok }

func isFor(x ast.Node) bool { _, ok := x.(*ast.ForStmt); return ok }

func isFunc(x ast.Node) bool { _, ok := x.(*ast.FuncDecl); return ok }

func TestSequential(t *testing.T) {
	for _, n := range []int{1, 2, 7} {
		p, err := Sequential(n)
		if err != nil {
			t.Fatal(err)
		}
		f := check(t, p)
		if got := count(f, isExec); got != n {
			t.Errorf("N=%d: %d Exec calls", n, got)
		}
		if got := count(f, isIf); got != n {
			t.Errorf("N=%d: %d ifs", n, got)
		}
		if p.Paths != 1<<uint(n) || len(p.Entries) != 1 || p.Entries[0] != "example.com/gen/seq.Apply" {
			t.Errorf("N=%d: paths %d entries %q", n, p.Paths, p.Entries)
		}
		fn := f.Decls[len(f.Decls)-1].(*ast.FuncDecl)
		params := 0
		for _, fld := range fn.Type.Params.List {
			params += len(fld.Names)
		}
		if params != n+2 {
			t.Errorf("N=%d: Apply has %d parameters, want db, id and %d deltas", n, params, n)
		}
	}
	if _, err := Sequential(0); err == nil {
		t.Error("Sequential(0) succeeded")
	}
}

func TestEntryPoints(t *testing.T) {
	p, err := EntryPoints(5)
	if err != nil {
		t.Fatal(err)
	}
	f := check(t, p)
	if got := count(f, isFunc); got != 5 || len(p.Entries) != 5 {
		t.Errorf("%d functions, %d entries; want 5", got, len(p.Entries))
	}
	if p.Entries[4] != "example.com/gen/entries.Withdraw5" {
		t.Errorf("entries %q", p.Entries)
	}
	if !strings.Contains(string(p.Source), "amt > bal") {
		t.Error("withdrawal is not guarded by the balance")
	}
}

func TestLoopNest(t *testing.T) {
	for _, d := range []int{1, 4} {
		p, err := LoopNest(d)
		if err != nil {
			t.Fatal(err)
		}
		f := check(t, p)
		if got := count(f, isFor); got != d {
			t.Errorf("D=%d: %d loops", d, got)
		}
		if got := count(f, isExec); got != 1 {
			t.Errorf("D=%d: %d Exec calls", d, got)
		}
	}
}

func TestWrite(t *testing.T) {
	p, err := Sequential(3)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := p.Write(dir); err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil || !strings.HasPrefix(string(mod), "module example.com/gen\n") {
		t.Errorf("go.mod %q, %v", mod, err)
	}
	src, err := os.ReadFile(filepath.Join(dir, "seq", "seq.go"))
	if err != nil || string(src) != string(p.Source) {
		t.Errorf("seq/seq.go differs from the source: %v", err)
	}
}
