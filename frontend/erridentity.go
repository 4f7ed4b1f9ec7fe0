package frontend

import (
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// Error identity. An error is modelled as the boolean "is non-nil"; what
// the model knows of which error it is rides along in value.err, an
// errTag, for the comparisons with the program's own sentinels:
//
//   - an own sentinel is a package-level error variable whose only store
//     is its initialiser errors.New(…) (or fmt.Errorf without %w) in its
//     package's init, and that is otherwise only loaded (ownSentinel);
//   - errors.New and fmt.Errorf make a fresh error, no sentinel; one made
//     by fmt.Errorf wraps what its %w operands are and wrap;
//   - the errors the database calls return (driver errors, sql.ErrNoRows,
//     …) are no own sentinel; they may wrap anything (database/sql wraps a
//     Scanner's error with %w) when the program has code the library
//     calls back (Loaded.libraryCallsBack), else they wrap none;
//   - nil is no error;
//   - φ-nodes, returns and merged dispatch results join the tags of their
//     incoming values; any other error (a field, a custom error type, an
//     outside call, a parameter) has no tag: it may be anything.
//
// err == S (S an own sentinel) is then false for an error whose tag does
// not include S, and errors.Is(err, S) is false for one that neither is
// nor wraps S; otherwise both stay arbitrary (true only for a non-nil err).

// errTag says which own sentinels an error value may be (ids) and may
// wrap (chain; anyWrap: it may wrap anything). nil: unknown.
type errTag struct {
	ids, chain map[*ssa.Global]bool
	anyWrap    bool
	// noRows, on the error of a single-row Scan, holds when it is the
	// library's "no rows" error, noRowsName (database/sql.ErrNoRows,
	// github.com/jackc/pgx/v5.ErrNoRows): errors.Is(err, that) and
	// err == that are noRows, not arbitrary.
	noRows     *ir.Var
	noRowsName string
	// exact: is and wraps say, on every path, whether the error is and
	// whether errors.Is holds of each own sentinel the program compares
	// with (a missing entry: false; see errpaths.go).
	exact     bool
	is, wraps map[*ssa.Global]ir.Expr
	// nonNil, on a []error built by appends, says whether some element
	// is non-nil (errjoin.go; nil for an error value).
	nonNil ir.Expr
}

// freshErr is an error made by errors.New or fmt.Errorf wrapping wrapped.
func freshErr(wrapped ...*errTag) *errTag {
	e := &errTag{ids: map[*ssa.Global]bool{}, chain: map[*ssa.Global]bool{},
		exact: true, is: map[*ssa.Global]ir.Expr{}, wraps: map[*ssa.Global]ir.Expr{}}
	for _, w := range wrapped {
		if w == nil {
			e.anyWrap, e.exact = true, false
			continue
		}
		maps.Copy(e.chain, w.ids)
		maps.Copy(e.chain, w.chain)
		e.anyWrap = e.anyWrap || w.anyWrap
	}
	if x := wrapsAll(wrapped); e.exact && x != nil {
		e.wraps = x.wraps
	} else {
		e.exact = false
	}
	return e
}

// foreignErr is an error a database call returns: one that may wrap
// anything when the program has code a database library calls
// (Loaded.libraryCallsBack), else one that is and wraps no own sentinel.
func (t *translator) foreignErr() *errTag {
	e := freshErr()
	if t.l.libraryCallsBack() {
		e.anyWrap, e.exact = true, false
	}
	return e
}

// sentinelErr is own sentinel g.
func sentinelErr(g *ssa.Global) *errTag {
	e := freshErr()
	e.ids[g] = true
	e.is[g], e.wraps[g] = ir.True, ir.True
	return e
}

// joinErr is the tag of a value that is one of tags (nil if one is unknown).
func joinErr(tags ...*errTag) *errTag {
	if len(tags) == 0 {
		return nil
	}
	if tags[0] == nil {
		return nil
	}
	out := freshErr()
	maps.Copy(out.is, tags[0].is)
	maps.Copy(out.wraps, tags[0].wraps)
	for _, t := range tags {
		if t == nil {
			return nil
		}
		maps.Copy(out.ids, t.ids)
		maps.Copy(out.chain, t.chain)
		out.anyWrap = out.anyWrap || t.anyWrap
		out.exact = out.exact && t.exact && sameIdentity(t, tags[0])
	}
	return out
}

// sameIdentity reports whether exact tags a and b say the same of every
// sentinel.
func sameIdentity(a, b *errTag) bool {
	for _, m := range []map[*ssa.Global]ir.Expr{a.is, a.wraps, b.is, b.wraps} {
		for g := range m {
			if !ir.Equal(a.exactIs(g), b.exactIs(g)) || !ir.Equal(a.exactWraps(g), b.exactWraps(g)) {
				return false
			}
		}
	}
	return true
}

// cannotBe reports whether an error with tag e is never own sentinel g.
func (e *errTag) cannotBe(g *ssa.Global) bool { return e != nil && !e.ids[g] }

// cannotWrap reports whether errors.Is(err, g) is false for an error with
// tag e.
func (e *errTag) cannotWrap(g *ssa.Global) bool {
	return e != nil && !e.anyWrap && !e.ids[g] && !e.chain[g]
}

// sentinelLoad returns the own sentinel v loads (nil: v is not such a load).
func (t *translator) sentinelLoad(v ssa.Value) *ssa.Global {
	return t.l.sentinelLoadOf(v)
}

// sentinelDecided records, when comparing with own sentinel g decided a
// comparison, the assumption an exported sentinel needs.
func (t *translator) sentinelDecided(g *ssa.Global) {
	if g.Object() != nil && g.Object().Exported() && g.Pkg.Pkg.Name() != "main" {
		t.p.Assume(g.Pkg.Pkg.Name() + "." + g.Name() + " keeps the error its declaration makes (no importing package assigns it)")
	}
}

// ownSentinel reports whether g is an own sentinel (see above).
func (l *Loaded) ownSentinel(g *ssa.Global) bool {
	if l.ownSentinels == nil {
		l.ownSentinels = l.findOwnSentinels()
	}
	return l.ownSentinels[g]
}

func (l *Loaded) findOwnSentinels() map[*ssa.Global]bool {
	made := map[*ssa.Global]bool{}
	bad := map[*ssa.Global]bool{}
	var ops []*ssa.Value
	for _, fn := range l.allModuleFunctions() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				for _, op := range instr.Operands(ops[:0]) {
					g, ok := (*op).(*ssa.Global)
					if !ok {
						continue
					}
					if u, ok := instr.(*ssa.UnOp); ok && u.Op == token.MUL {
						continue // a load
					}
					if s, ok := instr.(*ssa.Store); ok && s.Addr == g && fn.Name() == "init" && fn.Parent() == nil &&
						fn.Pkg == g.Pkg && !made[g] && makesFreshError(s.Val) {
						made[g] = true
						continue
					}
					bad[g] = true
				}
			}
		}
	}
	out := map[*ssa.Global]bool{}
	for g := range made {
		if !bad[g] && isError(g.Type().(*types.Pointer).Elem()) {
			out[g] = true
		}
	}
	return out
}

// makesFreshError reports whether v is errors.New(…) or fmt.Errorf(…)
// with a constant format without %w.
func makesFreshError(v ssa.Value) bool {
	c, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	fn := c.Call.StaticCallee()
	if fn == nil || fn.Pkg == nil {
		return false
	}
	switch fn.Pkg.Pkg.Path() + "." + fn.Name() {
	case "errors.New":
		return true
	case "fmt.Errorf":
		format, ok := errorfFormat(c.Call.Args)
		return ok && !strings.Contains(format, "%w")
	}
	return false
}

// errorfFormat returns the constant format of a call of fmt.Errorf.
func errorfFormat(args []ssa.Value) (string, bool) {
	if len(args) == 0 {
		return "", false
	}
	c, ok := args[0].(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(c.Value), true
}

// errorfTag returns the tag of the error a call c of fmt.Errorf makes: it
// wraps the errors among its operands when the format has %w (an operand
// the model cannot see, or of a type that may be an error, may wrap
// anything).
func (t *translator) errorfTag(f *frame, c *ssa.CallCommon) *errTag {
	format, ok := errorfFormat(c.Args)
	if !ok {
		return freshErr(nil)
	}
	if !strings.Contains(format, "%w") {
		return freshErr()
	}
	if len(c.Args) != 2 {
		return freshErr(nil)
	}
	sl, ok := c.Args[1].(*ssa.Slice)
	if !ok {
		return freshErr(nil)
	}
	arr, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return freshErr(nil)
	}
	var wrapped []*errTag
	for _, ref := range *arr.Referrers() {
		ia, ok := ref.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		for _, r := range *ia.Referrers() {
			st, ok := r.(*ssa.Store)
			if !ok || st.Addr != ia {
				continue
			}
			var x ssa.Value
			switch op := st.Val.(type) {
			case *ssa.MakeInterface:
				x = op.X
			case *ssa.ChangeInterface:
				x = op.X // an error made an any
			default:
				return freshErr(nil)
			}
			switch {
			case isError(x.Type()):
				v, ok := f.env[x]
				if !ok {
					return freshErr(nil)
				}
				wrapped = append(wrapped, v.err)
			case isPlainOperand(x.Type()):
				// (a number or a string wraps nothing)
			default:
				return freshErr(nil)
			}
		}
	}
	return freshErr(wrapped...)
}

// isPlainOperand reports whether a value of type typ formatted by
// fmt.Errorf cannot be an error: a basic type.
func isPlainOperand(typ types.Type) bool {
	_, ok := typ.(*types.Basic)
	return ok
}

// errCompareSentinel decides err == S / err != S for an own sentinel S on
// one side whose other side's tag excludes it, and for a single-row
// Scan's error against its library's "no rows" error; ok is false
// otherwise.
func (t *translator) errCompareSentinel(i *ssa.BinOp, x, y value) (value, bool) {
	v, ok := noRowsTest(i.Y, x)
	if !ok {
		v, ok = noRowsTest(i.X, y)
	}
	if ok {
		if i.Op == token.NEQ {
			v.expr = ir.Not(v.expr)
		}
		return v, true
	}
	other := x
	g := t.sentinelLoad(i.Y)
	if g == nil {
		g, other = t.sentinelLoad(i.X), y
	}
	switch {
	case g == nil:
		return value{}, false
	case other.err != nil && other.err.exact:
		t.sentinelDecided(g)
		if i.Op == token.NEQ {
			return value{expr: ir.Not(other.err.exactIs(g))}, true
		}
		return value{expr: other.err.exactIs(g)}, true
	case !other.err.cannotBe(g):
		return value{}, false
	}
	t.sentinelDecided(g)
	return value{expr: ir.BoolConst(i.Op == token.NEQ)}, true
}

// errorsIsSentinel decides errors.Is(err, S) for an own sentinel S that
// err neither is nor wraps, and errors.Is(err, nil); ok is false
// otherwise.
func (t *translator) errorsIsSentinel(c *ssa.CallCommon, args []value) (value, bool) {
	if len(c.Args) != 2 || len(args) != 2 {
		return value{}, false
	}
	if v, ok := noRowsTest(c.Args[1], args[0]); ok {
		return v, true
	}
	if k, ok := c.Args[1].(*ssa.Const); ok && k.IsNil() {
		// errors.Is(err, nil) is err == nil.
		if x := args[0].expr; x != nil && x.Sort() == ir.Bool {
			return value{expr: ir.Not(x)}, true
		}
		return value{}, false
	}
	g := t.sentinelLoad(c.Args[1])
	switch {
	case g == nil:
		return value{}, false
	case args[0].err != nil && args[0].err.exact:
		t.sentinelDecided(g)
		return value{expr: args[0].err.exactWraps(g)}, true
	case !args[0].err.cannotWrap(g):
		return value{}, false
	}
	t.sentinelDecided(g)
	return value{expr: ir.False}, true
}

// noRowsTest decides a test of err against target (errors.Is, ==) when
// err is a single-row Scan's error and target loads its library's "no
// rows" error.
func noRowsTest(target ssa.Value, err value) (value, bool) {
	if err.err == nil || err.err.noRows == nil {
		return value{}, false
	}
	u, ok := target.(*ssa.UnOp)
	if !ok || u.Op != token.MUL {
		return value{}, false
	}
	g, ok := u.X.(*ssa.Global)
	if !ok || g.Pkg == nil || g.Pkg.Pkg.Path()+"."+g.Name() != err.err.noRowsName {
		return value{}, false
	}
	return value{expr: err.err.noRows}, true
}

// noRowsErrorOf names the "no rows" error of library lib's single-row
// Scan: database/sql's sql.ErrNoRows, pgx's (any of its packages, a
// pool's row included) pgx.ErrNoRows; "" for another library.
func noRowsErrorOf(lib string) string {
	if lib == "database/sql" {
		return "database/sql.ErrNoRows"
	}
	for _, v := range []string{"github.com/jackc/pgx/v5", "github.com/jackc/pgx/v4"} {
		if lib == v || strings.HasPrefix(lib, v+"/") {
			return v + ".ErrNoRows"
		}
	}
	return ""
}

// noRowsErr is the error of a single-row Scan whose "no rows" case is
// noRow; name is that error's (set by the caller that knows the
// library, "" while unknown: then nothing is decided).
func (t *translator) noRowsErr(name string, noRow *ir.Var) *errTag {
	e := t.foreignErr()
	e.noRows, e.noRowsName = noRow, name
	return e
}

// phiErr joins the tags of a φ-node's incoming errors (nil: one is not
// known yet, a loop's back edge, or unknown).
func (t *translator) phiErr(f *frame, p *ssa.Phi) *errTag {
	tags := make([]*errTag, 0, len(p.Edges))
	for _, e := range p.Edges {
		v, ok := t.peek(f, e)
		if !ok {
			return nil
		}
		tags = append(tags, v.err)
	}
	return joinErr(tags...)
}

// foreignErrors tags the error results of a database operation (v, typed
// results) as errors the database returns.
func (t *translator) foreignErrors(v value, results *types.Tuple) value {
	if results == nil {
		return v
	}
	tag := func(x *value) {
		if x.expr != nil && x.expr.Sort() == ir.Bool && x.err == nil {
			x.err = t.foreignErr()
		}
	}
	switch {
	case results.Len() == 1 && isError(results.At(0).Type()):
		tag(&v)
	case len(v.tuple) == results.Len():
		v.tuple = append([]value(nil), v.tuple...)
		for i := range v.tuple {
			if isError(results.At(i).Type()) {
				tag(&v.tuple[i])
			}
		}
	}
	return v
}
