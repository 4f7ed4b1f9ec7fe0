package frontend

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strings"
)

// Implementations of the module's interfaces in packages not analysed.
//
// The dispatch and the dynamic-type choice (dyntypes.go) know the types
// of the loaded packages. A package of the module under the working
// directory that was not loaded (`check ./svc`, the store the server
// wires in left out) may declare another: its calls would run code the
// model has not seen, and a type assertion could fail on a non-nil
// value. Those packages are only parsed (not type-checked): a named type
// there may implement an interface when it declares a method of each of
// the interface's names, or when it has an embedded field (a promoted
// method) or is defined from another named type; an unnamed struct type
// with an embedded field may too. Over-approximate on purpose: a type
// counted that does not implement the interface costs an UNKNOWN, one
// missed a wrong SAFE.

// unanalysedDecls is what the parsed files of one package directory
// declare: the method names of each receiver type; for each named type
// the method names it may get from its embedded fields or the type it is
// defined from (promoted; "*" for any name), and whether an unnamed
// struct type has an embedded field.
type unanalysedDecls struct {
	dir      string
	pkg      string
	methods  map[string]map[string]bool
	promotes map[string]map[string]bool
	mocks    map[string]bool
	unnamed  bool
}

// otherImplementations names the types of the module's packages not
// analysed ("store.Loose in ./store") that may implement it, sorted.
func (l *Loaded) otherImplementations(it *types.Interface) []string {
	var out []string
	for _, d := range l.unanalysedDeclarations() {
		for _, name := range d.candidates(it) {
			out = append(out, d.pkg+"."+name+" in "+d.dir)
		}
	}
	sort.Strings(out)
	return out
}

// candidates lists the types of d that may implement it: each of its
// method names declared or promoted (test doubles left out, as
// implementations does).
func (d *unanalysedDecls) candidates(it *types.Interface) []string {
	var out []string
	names := map[string]bool{}
	for n := range d.methods {
		names[n] = true
	}
	for n := range d.promotes {
		names[n] = true
	}
	for n := range names {
		if !d.mocks[n] && d.covers(n, it) {
			out = append(out, n)
		}
	}
	if d.unnamed {
		out = append(out, "(an unnamed struct type with an embedded field)")
	}
	sort.Strings(out)
	return out
}

// covers reports whether type name of d may have a method of every name
// of it.
func (d *unanalysedDecls) covers(name string, it *types.Interface) bool {
	has := d.methodNames(name, map[string]bool{})
	if has["*"] {
		return true
	}
	for i := 0; i < it.NumMethods(); i++ {
		if !has[it.Method(i).Name()] {
			return false
		}
	}
	return true
}

// methodNames returns the names of the methods type name of d declares
// or may get promoted, those of its embedded types of the same package
// included ("*": any).
func (d *unanalysedDecls) methodNames(name string, seen map[string]bool) map[string]bool {
	out := map[string]bool{}
	if seen[name] {
		return out
	}
	seen[name] = true
	for m := range d.methods[name] {
		out[m] = true
	}
	for m := range d.promotes[name] {
		local, ok := strings.CutPrefix(m, localType)
		if !ok {
			out[m] = true
			continue
		}
		for n := range d.methodNames(local, seen) {
			out[n] = true
		}
	}
	return out
}

// localType prefixes, among the names a field brings (fieldMethods), the
// name of a type of the same package: its own methods and promotions.
const localType = "="

// unanalysedDeclarations parses the packages of the module not analysed
// (unanalysedPackages; computed once).
func (l *Loaded) unanalysedDeclarations() []*unanalysedDecls {
	if l.otherDecls != nil {
		return l.otherDecls
	}
	l.otherDecls = []*unanalysedDecls{}
	root, err := filepath.Abs(l.cfg.Dir)
	if err != nil {
		return l.otherDecls
	}
	byDir := map[string]*unanalysedDecls{}
	for _, rel := range l.unanalysedPackages() {
		byDir[filepath.Join(root, filepath.FromSlash(rel))] = &unanalysedDecls{dir: rel, methods: map[string]map[string]bool{}, promotes: map[string]map[string]bool{}, mocks: map[string]bool{}}
	}
	fset := token.NewFileSet()
	walkGoFiles(root, func(path string) bool {
		d := byDir[filepath.Dir(path)]
		if d == nil {
			return true
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			// Unreadable: any type there may implement anything.
			d.unnamed = true
			return true
		}
		d.pkg = f.Name.Name
		d.add(f, l.fieldMethods(f))
		return true
	})
	for _, d := range byDir {
		l.otherDecls = append(l.otherDecls, d)
	}
	sort.Slice(l.otherDecls, func(i, j int) bool { return l.otherDecls[i].dir < l.otherDecls[j].dir })
	return l.otherDecls
}

// add records the declarations of one file; methodsOfField gives the
// method names a field of a type expression brings (promoted).
func (d *unanalysedDecls) add(f *ast.File, methodsOfField func(ast.Expr) map[string]bool) {
	for _, decl := range f.Decls {
		if fd, ok := decl.(*ast.FuncDecl); ok && fd.Recv != nil && len(fd.Recv.List) == 1 {
			recv := receiverTypeName(fd.Recv.List[0].Type)
			if d.methods[recv] == nil {
				d.methods[recv] = map[string]bool{}
			}
			d.methods[recv][fd.Name.Name] = true
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.TypeSpec:
			if n.Assign.IsValid() {
				return true
			}
			if st, ok := n.Type.(*ast.StructType); ok {
				d.addStruct(n.Name.Name, st, methodsOfField)
				return false
			}
			if definedFromOther(n) {
				d.promote(n.Name.Name, map[string]bool{"*": true})
			}
		case *ast.StructType:
			if hasEmbeddedField(n) {
				d.unnamed = true
			}
		}
		return true
	})
}

// addStruct records what the embedded fields of a named struct type
// promote, and whether a field makes it a test double.
func (d *unanalysedDecls) addStruct(name string, st *ast.StructType, methodsOfField func(ast.Expr) map[string]bool) {
	for _, fld := range st.Fields.List {
		if methodsOfField(fld.Type)[mockField] {
			d.mocks[name] = true
		}
		if len(fld.Names) == 0 {
			d.promote(name, methodsOfField(fld.Type))
		}
	}
}

// promote adds names to what type name may get from its fields.
func (d *unanalysedDecls) promote(name string, names map[string]bool) {
	if d.promotes[name] == nil {
		d.promotes[name] = map[string]bool{}
	}
	for n := range names {
		d.promotes[name][n] = true
	}
}

// mockField marks, among fieldMethods' names, a field of a test double
// library's type (mockPackages).
const mockField = "(mock)"

// fieldMethods returns, for the files of one package not analysed, the
// method names a field of type expression e may bring: those of a named
// type of a loaded package (its pointer's method set) or of the same
// package (localType), "*" (any) for one the model cannot see (of a
// package not loaded, a generic instance, a literal type), mockField for
// a test double library's.
func (l *Loaded) fieldMethods(f *ast.File) func(ast.Expr) map[string]bool {
	imports := map[string]string{}
	for _, imp := range f.Imports {
		path := strings.Trim(imp.Path.Value, "`\"")
		name := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		imports[name] = path
	}
	return func(e ast.Expr) map[string]bool {
		if star, ok := e.(*ast.StarExpr); ok {
			e = star.X
		}
		if id, ok := e.(*ast.Ident); ok && types.Universe.Lookup(id.Name) == nil {
			return map[string]bool{localType + id.Name: true}
		}
		sel, ok := e.(*ast.SelectorExpr)
		if !ok {
			return map[string]bool{"*": true}
		}
		pkgName, ok := sel.X.(*ast.Ident)
		if !ok {
			return map[string]bool{"*": true}
		}
		path := imports[pkgName.Name]
		if mockPackages[path] {
			return map[string]bool{mockField: true, "*": true}
		}
		return l.loadedMethodNames(path, sel.Sel.Name)
	}
}

// loadedMethodNames returns the method names of *T for type T of the
// loaded package path, or of interface T ("*": not loaded).
func (l *Loaded) loadedMethodNames(path, name string) map[string]bool {
	unknown := map[string]bool{"*": true}
	p := l.Prog.ImportedPackage(path)
	if p == nil {
		return unknown
	}
	tn, ok := p.Pkg.Scope().Lookup(name).(*types.TypeName)
	if !ok {
		return unknown
	}
	typ := tn.Type()
	if !types.IsInterface(typ) {
		typ = types.NewPointer(typ)
	}
	out := map[string]bool{}
	ms := l.Prog.MethodSets.MethodSet(typ)
	for i := 0; i < ms.Len(); i++ {
		out[ms.At(i).Obj().Name()] = true
	}
	return out
}

// receiverTypeName is the name of a method's receiver type (T of *T,
// T[P]).
func receiverTypeName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// definedFromOther reports whether a type declaration defines a type from
// another named one (not a predeclared type): the methods promoted
// through its fields come with it.
func definedFromOther(ts *ast.TypeSpec) bool {
	switch x := ts.Type.(type) {
	case *ast.SelectorExpr, *ast.IndexExpr, *ast.IndexListExpr:
		return true
	case *ast.Ident:
		return types.Universe.Lookup(x.Name) == nil
	}
	return false
}

// hasEmbeddedField reports whether a struct type has an embedded field.
func hasEmbeddedField(st *ast.StructType) bool {
	for _, fld := range st.Fields.List {
		if len(fld.Names) == 0 {
			return true
		}
	}
	return false
}

// otherImplsText is the reason's part naming the types not analysed.
func otherImplsText(others []string) string {
	if len(others) > 3 {
		return strings.Join(others[:3], ", ") + " and others"
	}
	return strings.Join(others, ", ")
}

// implementedElsewhere reports (as unsupported) an interface call of
// the module whose receiver may be a type of a package not analysed:
// that type's method would run code the model has not seen.
func (t *translator) implementedElsewhere(m *types.Func) bool {
	if m.Pkg() == nil || !t.l.declaredInModule(m.Pkg()) {
		return false
	}
	it, ok := m.Type().(*types.Signature).Recv().Type().Underlying().(*types.Interface)
	if !ok {
		return false
	}
	others := t.l.otherImplementations(it)
	if len(others) == 0 {
		return false
	}
	t.unsupported("%s.%s may run the method of %s, which is not analysed: it may write the database (analyse it too, e.g. ./...)", ifaceName(m), m.Name(), otherImplsText(others))
	return true
}
