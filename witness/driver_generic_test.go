package witness

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// TestTypeArgs chooses type arguments from constraints as the driver
// instantiates a generic entry.
func TestTypeArgs(t *testing.T) {
	src := `package p
type Number interface{ ~int64 | ~float64 }
type Named interface{ Name() string }
func Any[T any]() {}
func Cmp[K comparable]() {}
func Num[N Number]() {}
func Meth[T Named]() {}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ fn, want, err string }{
		{"Any", "struct{}", ""},
		{"Cmp", "struct{}", ""},
		{"Num", "int64", ""},
		{"Meth", "", "type parameter T has a constraint with methods"},
	}
	for _, tc := range tests {
		sig := pkg.Scope().Lookup(tc.fn).Type().(*types.Signature)
		args, err := typeArgs(sig.TypeParams())
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%s: err = %v, want %q", tc.fn, err, tc.err)
			}
			continue
		}
		if err != nil || len(args) != 1 || args[0].String() != tc.want {
			t.Errorf("%s: typeArgs = %v, %v; want [%s]", tc.fn, args, err, tc.want)
		}
	}
}
