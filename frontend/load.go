package frontend

import (
	"fmt"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
)

// Config says what to load.
type Config struct {
	Dir      string   // working directory for the patterns ("" = current)
	Patterns []string // package patterns, e.g. "./..."
	Dialect  string   // "mysql", "sqlite", "postgres"; "" = detect
	// Packages, when set, holds the packages (loaded once for several
	// runs): the patterns are matched against it instead of loaded.
	Packages *PackageSet
	// MaxInline bounds the depth of inlined calls (default 16).
	MaxInline int
	// Schema, when known, gives the columns of `SELECT *` for sqlx's
	// struct scans.
	Schema *sqlir.Schema
	// AssumeNoOverflow makes integer arithmetic mathematical (an
	// assumption printed with every result) instead of Go's wrap-around.
	AssumeNoOverflow bool
	// CheckGenerated makes sqlc query methods nothing in the module calls
	// entries too (by default they are not: see UncalledGenerated).
	CheckGenerated bool
	// ConfigInputs makes package-level variables set at initialisation
	// (initOnlyGlobal) or by the program's code outside it (setByCode)
	// inputs of the entry, as a deployment may set them, instead of
	// approximations (see translator.global).
	ConfigInputs bool
}

// Loaded is a loaded, type-checked program in SSA form.
type Loaded struct {
	Fset *token.FileSet
	Prog *ssa.Program
	Pkgs []*ssa.Package // the packages matched by the patterns
	// Files are the Go files of Pkgs (absolute paths).
	Files []string
	cfg   Config

	// Dialect is the SQL dialect used to parse queries, DialectSource why.
	Dialect       sqlparse.Dialect
	DialectSource string
	// openDrivers are the driver names passed to sql.Open, in call order;
	// opens those of a known dialect (openAt by call), handles the
	// handle sources they reach (see dialects.go).
	openDrivers []string
	opens       []driverOpen
	openAt      map[*ssa.Call]driverOpen
	// mixed: the program uses two dialects (mixedDialects).
	mixed   bool
	handles *handleDialects
	// filledMaps are the map fields the program fills (filledmaps.go).
	filledMaps map[*types.Var]string

	// pkgVersions are the versions of the modules of the loaded
	// dependencies, by package path ("" when not known: a replacement
	// by a directory).
	pkgVersions map[string]string

	// module holds the import paths of the packages whose functions are
	// inlined: every package of the main module that was loaded.
	module map[*ssa.Package]bool

	sites      map[ssa.CallInstruction]*Site
	reachCache map[*ssa.Function]*Reach
	// escapeCache holds escapingFuncs, implCache implementations,
	// calleeCache callees.
	escapeCache map[*ssa.Function]bool
	implCache   map[*types.Func][]*ssa.Function
	// dynTypesCache holds dynamicTypes by interface type (nil: not known).
	dynTypesCache map[string][]types.Type
	// dbFreeCache holds dbFreeSignature's answers, by signature.
	dbFreeCache map[string]bool
	// preparedCache holds the SQL of statement fields (prepared.go).
	preparedCache map[*types.Var]string
	// constFieldCache holds the texts of constant string fields (constfields.go).
	constFieldCache map[*types.Var][]string
	calleeCache     map[*ssa.Function][]*ssa.Function
	// fieldFuncCache holds storedFuncs (fieldfuncs.go).
	fieldFuncCache *fieldFuncs
	// initTableCache holds initTables (initmaps.go).
	initTableCache map[*ssa.Global]*initTable
	// unsignedCache holds unsignedBinding's answer (unsignedargs.go):
	// 0 not decided, 1 yes, 2 no.
	unsignedCache int
	// intParamsCache holds pgIntParams's answer plus one (intparams.go;
	// 0: not decided).
	intParamsCache int
	// enforcementCache holds enforcementOff's answer by dialect
	// (enforcement.go; a nil value: none found).
	enforcementCache map[sqlparse.Dialect]*engineSetting
	// calledCache holds calledInModule; moduleDirs are the root
	// directories of the loaded modules, calledNames (callNames) the
	// method and function names their Go files call.
	calledCache map[*ssa.Function]bool
	moduleDirs  []string
	calledNames map[string]bool
	// loadedDirs are the directories of the loaded module packages;
	// unanalysed caches unanalysedPackages (nil: not computed yet).
	loadedDirs map[string]bool
	unanalysed []string
	// otherDecls caches unanalysedDeclarations (nil: not parsed yet).
	otherDecls []*unanalysedDecls
	parsed     map[parseKey]parseResult
	// constGlobals holds the package-level variables that are never
	// reassigned, with their constant initialiser (see constGlobal).
	constGlobals map[*ssa.Global]*ssa.Const
	// usedGlobals are the package-level variables some module code uses
	// other than by loading them (see findConstGlobals).
	usedGlobals map[*ssa.Global]bool
	// initGlobals holds those set only by their initialiser (not to a
	// constant): see initOnlyGlobal.
	initGlobals map[*ssa.Global]bool
	// following holds how the programs that follow an element of a
	// collected slice were translated (Unfollowed).
	following map[*ir.Program]translation
	// codeSet memoises setByCode.
	codeSet map[*ssa.Global]string
	// ownSentinels holds the program's own sentinel errors (erridentity.go).
	ownSentinels map[*ssa.Global]bool
	// compared: the own sentinels the program compares errors with
	// (see errpaths.go); comparedSet once computed.
	compared    []*ssa.Global
	comparedSet bool
	// callsBack: a database library may call the program's code (see
	// errpaths.go); callsBackSet once computed.
	callsBack    bool
	callsBackSet bool
	srcLine      map[string][]string
	// stmts holds the statements of the source files read (stmtpos.go).
	stmts map[string]stmtLines
}

type parseKey struct {
	dialect sqlparse.Dialect
	query   string
}

type parseResult struct {
	stmt sqlir.Statement
	err  error
	// names and numParams are the placeholders (sqlparse.Result).
	names     []string
	numParams int
}

// LoadError is a problem with the input: a package that does not compile,
// or no package matched. Each message has a position. (SQL that does not
// parse is not one: the entries that run it are UNKNOWN.)
type LoadError struct {
	Msgs []string
}

func (e *LoadError) Error() string { return strings.Join(e.Msgs, "\n") }

// Load loads and type-checks the packages, builds SSA and finds the
// database call sites. Compile errors and SQL syntax errors are returned as
// a *LoadError.
func Load(cfg Config) (*Loaded, error) {
	if cfg.MaxInline == 0 {
		cfg.MaxInline = 16
	}
	var pkgs []*packages.Package
	var err error
	if cfg.Packages != nil {
		pkgs, err = cfg.Packages.match(cfg.Dir, cfg.Patterns)
	} else {
		pkgs, err = loadPackages(cfg.Dir, cfg.Patterns)
	}
	if err != nil {
		return nil, err
	}
	matched := map[string]bool{}
	for _, p := range pkgs {
		matched[p.PkgPath] = true
	}
	// Packages of the same module that the matched ones import come from
	// export data (no bodies): load them from source too (a set holds
	// them so already), so that calls into them are inlined.
	mods := map[string]bool{}
	for _, p := range pkgs {
		if p.Module != nil {
			mods[p.Module.Path] = true
		}
	}
	if cfg.Packages != nil {
		if pkgs, err = cfg.Packages.withModuleImports(pkgs, matched, mods); err != nil {
			return nil, err
		}
	} else if extra := moduleImports(pkgs, matched, mods); len(extra) > 0 {
		all, err := loadPackages(cfg.Dir, append(append([]string(nil), cfg.Patterns...), extra...))
		if err != nil {
			return nil, err
		}
		pkgs = all
	}
	var msgs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			msgs = append(msgs, e.Error())
		}
	})
	if len(pkgs) == 0 {
		msgs = append(msgs, fmt.Sprintf("no Go packages match %s", strings.Join(cfg.Patterns, " ")))
	}
	if len(msgs) > 0 {
		return nil, &LoadError{Msgs: dedupe(msgs)}
	}
	prog, ssaPkgs := ssautil.AllPackages(pkgs, ssa.GlobalDebug|ssa.InstantiateGenerics)
	prog.Build()
	l := &Loaded{
		Fset: prog.Fset, Prog: prog, cfg: cfg,
		module:        map[*ssa.Package]bool{},
		sites:         map[ssa.CallInstruction]*Site{},
		parsed:        map[parseKey]parseResult{},
		openAt:        map[*ssa.Call]driverOpen{},
		implCache:     map[*types.Func][]*ssa.Function{},
		dynTypesCache: map[string][]types.Type{},
		calleeCache:   map[*ssa.Function][]*ssa.Function{},
		srcLine:       map[string][]string{},
		stmts:         map[string]stmtLines{},
		loadedDirs:    map[string]bool{},
	}
	l.pkgVersions = moduleVersions(pkgs)
	for i, p := range pkgs {
		if ssaPkgs[i] == nil {
			continue
		}
		if matched[p.PkgPath] {
			l.Pkgs = append(l.Pkgs, ssaPkgs[i])
			l.Files = append(l.Files, p.GoFiles...)
		}
		if p.Syntax != nil && inModules(p, mods) {
			l.module[ssaPkgs[i]] = true
			for _, f := range p.GoFiles {
				l.loadedDirs[filepath.Dir(f)] = true
			}
		}
		if p.Module != nil && mods[p.Module.Path] && p.Module.Dir != "" && !slices.Contains(l.moduleDirs, p.Module.Dir) {
			l.moduleDirs = append(l.moduleDirs, p.Module.Dir)
		}
	}
	if err := l.findSites(); err != nil {
		return nil, err
	}
	return l, nil
}

// loadMode loads syntax and types for the requested packages and only
// types (from export data, fast) for their dependencies.
const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedTypes | packages.NeedTypesSizes |
	packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule

func loadPackages(dir string, patterns []string) ([]*packages.Package, error) {
	pkgs, err := packages.Load(&packages.Config{Mode: loadMode, Dir: dir, Tests: false}, patterns...)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", strings.Join(patterns, " "), err)
	}
	return pkgs, nil
}

// moduleImports are the import paths of the packages of modules mods that
// pkgs import (transitively) and that are not matched. (A dependency may
// come with syntax but types from export data, which SSA cannot build
// from: every one is reloaded.)
func moduleImports(pkgs []*packages.Package, matched, mods map[string]bool) []string {
	var extra []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if !matched[p.PkgPath] && inModules(p, mods) {
			extra = append(extra, p.PkgPath)
		}
	})
	return extra
}

func inModules(p *packages.Package, mods map[string]bool) bool {
	return p.Module != nil && mods[p.Module.Path]
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// inModule reports whether fn's body belongs to the loaded module (and so
// is inlined rather than modelled).
func (l *Loaded) inModule(fn *ssa.Function) bool {
	if fn == nil || fn.Blocks == nil {
		return false
	}
	for f := fn; f != nil; f = f.Parent() {
		if f.Pkg != nil {
			return l.module[f.Pkg]
		}
		if f.Origin() != nil && f.Origin().Pkg != nil {
			return l.module[f.Origin().Pkg]
		}
	}
	return false
}

// moduleWrapper reports whether fn is a wrapper the SSA builder
// synthesised (a bound method value such as s.Withdraw, a method
// expression thunk) that calls a function of the module or an interface
// method: it is inlined like the function it wraps.
func (l *Loaded) moduleWrapper(fn *ssa.Function) bool {
	if fn == nil || fn.Synthetic == "" || fn.Blocks == nil {
		return false
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			c, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if c.Common().IsInvoke() {
				return true
			}
			if callee := c.Common().StaticCallee(); callee != nil && l.inModule(callee) {
				return true
			}
		}
	}
	return false
}

// Functions returns every function with a body in the matched packages,
// including methods and anonymous functions, sorted by name.
func (l *Loaded) Functions() []*ssa.Function {
	var out []*ssa.Function
	seen := map[*ssa.Function]bool{}
	var add func(fn *ssa.Function)
	add = func(fn *ssa.Function) {
		if fn == nil || seen[fn] || fn.Blocks == nil {
			return
		}
		seen[fn] = true
		out = append(out, fn)
		for _, a := range fn.AnonFuncs {
			add(a)
		}
	}
	for _, p := range l.Pkgs {
		for _, m := range p.Members {
			switch m := m.(type) {
			case *ssa.Function:
				add(m)
			case *ssa.Type:
				if named, ok := m.Type().(*types.Named); ok && named.TypeParams().Len() > 0 {
					// A generic type has no method sets of its own: its
					// methods are the generic functions (their bodies are
					// built, with type parameters), entries like any other.
					for i := 0; i < named.NumMethods(); i++ {
						if f := l.Prog.FuncValue(named.Method(i)); f != nil && f.Pkg == p {
							add(f)
						}
					}
					continue
				}
				for _, t := range []types.Type{m.Type(), types.NewPointer(m.Type())} {
					ms := l.Prog.MethodSets.MethodSet(t)
					for i := 0; i < ms.Len(); i++ {
						f := l.Prog.MethodValue(ms.At(i))
						if f != nil && f.Pkg == p {
							add(f)
						}
					}
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// position returns file and line of pos, with the file relative to the
// working directory when possible.
func (l *Loaded) position(pos token.Pos) (string, int) {
	if !pos.IsValid() {
		return "", 0
	}
	p := l.Fset.Position(pos)
	return l.relFile(p.Filename), p.Line
}

func (l *Loaded) relFile(name string) string {
	dir, err := filepath.Abs(l.cfg.Dir) // "" = the working directory
	if err == nil && strings.HasPrefix(name, dir+string(os.PathSeparator)) {
		return name[len(dir)+1:]
	}
	return name
}

// sourceLine returns the trimmed text of a source line.
func (l *Loaded) sourceLine(pos token.Pos) string {
	if !pos.IsValid() {
		return ""
	}
	p := l.Fset.Position(pos)
	return l.lineText(p.Filename, p.Line)
}

// lineText returns the trimmed text of line n of a file.
func (l *Loaded) lineText(filename string, n int) string {
	p := token.Position{Filename: filename, Line: n}
	lines, ok := l.srcLine[p.Filename]
	if !ok {
		data, err := os.ReadFile(p.Filename)
		if err == nil {
			lines = strings.Split(string(data), "\n")
		}
		l.srcLine[p.Filename] = lines
	}
	if p.Line-1 < len(lines) && p.Line >= 1 {
		return strings.TrimSpace(lines[p.Line-1])
	}
	return ""
}

// declaredInModule reports whether pkg is a loaded package of the module.
func (l *Loaded) declaredInModule(pkg *types.Package) bool {
	for p := range l.module {
		if p.Pkg == pkg {
			return true
		}
	}
	return false
}

// moduleVersions returns the version of each loaded package's module, by
// package path (a replacement's own version when it is one).
func moduleVersions(pkgs []*packages.Package) map[string]string {
	out := map[string]string{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if m := p.Module; m != nil {
			if m.Replace != nil {
				m = m.Replace
			}
			out[p.PkgPath] = m.Version
		}
	})
	return out
}
