package frontend

import (
	"go/token"
	"maps"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// Error identity path by path. For each own sentinel S the program
// compares errors with (err == S, errors.Is(err, S): comparedSentinels),
// an error value may carry two booleans exact on every path: is[S]
// (err == S) and wraps[S] (errors.Is(err, S)); errTag.exact says it does
// (a missing entry is false):
//
//   - nil and a fresh errors.New / fmt.Errorf without %w: false;
//   - S itself: is[S] and wraps[S] true;
//   - fmt.Errorf with %w: wraps what its operands are or wrap;
//   - errors.Join(xs...) of elements the model sees: wraps what one of
//     them is or wraps;
//   - a φ of errors and an error result: a pair of variables per S,
//     assigned on each incoming edge and at each return from the value
//     that comes in, so that a test after the join is the incoming path's
//     (adv15 F1: errors.Is(err, ErrInsufficient) is false on the path
//     that returned ErrInvalid, not one arbitrary value for all paths).
//
// An incoming value that is not exact (an error a database call, a
// parameter or outside code hands over) gives false where it is nil or
// where its tag excludes S (cannotBe, cannotWrap), and elsewhere a marked
// approximation (errapprox.go).

// comparedSentinels returns the own sentinels the program compares an
// error with (==, !=, errors.Is), in a fixed order.
func (l *Loaded) comparedSentinels() []*ssa.Global {
	if l.comparedSet {
		return l.compared
	}
	l.comparedSet = true
	seen := map[*ssa.Global]bool{}
	for _, fn := range l.allModuleFunctions() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				for _, g := range l.sentinelsTested(instr) {
					if !seen[g] {
						seen[g] = true
						l.compared = append(l.compared, g)
					}
				}
			}
		}
	}
	sort.Slice(l.compared, func(i, j int) bool { return l.compared[i].String() < l.compared[j].String() })
	return l.compared
}

// sentinelsTested returns the own sentinels instr compares an error with.
func (l *Loaded) sentinelsTested(instr ssa.Instruction) []*ssa.Global {
	var out []*ssa.Global
	add := func(v ssa.Value) {
		if g := l.sentinelLoadOf(v); g != nil {
			out = append(out, g)
		}
	}
	switch i := instr.(type) {
	case *ssa.BinOp:
		if (i.Op == token.EQL || i.Op == token.NEQ) && isError(i.X.Type()) {
			add(i.X)
			add(i.Y)
		}
	case ssa.CallInstruction:
		c := i.Common()
		if fn := c.StaticCallee(); fn != nil && fn.Pkg != nil && fn.Pkg.Pkg.Path() == "errors" && fn.Name() == "Is" && len(c.Args) == 2 {
			add(c.Args[1])
		}
	}
	return out
}

// sentinelLoadOf returns the own sentinel v loads (nil: v is no such load).
func (l *Loaded) sentinelLoadOf(v ssa.Value) *ssa.Global {
	u, ok := v.(*ssa.UnOp)
	if !ok || u.Op != token.MUL {
		return nil
	}
	g, ok := u.X.(*ssa.Global)
	if !ok || !l.ownSentinel(g) {
		return nil
	}
	return g
}

// exactIs returns err == g for an error with exact tag e.
func (e *errTag) exactIs(g *ssa.Global) ir.Expr {
	if x, ok := e.is[g]; ok {
		return x
	}
	return ir.False
}

// exactWraps returns errors.Is(err, g) for an error with exact tag e.
func (e *errTag) exactWraps(g *ssa.Global) ir.Expr {
	if x, ok := e.wraps[g]; ok {
		return x
	}
	return ir.False
}

// errIdentity returns, for error v on the current path, err == g (wraps
// false) or errors.Is(err, g) (wraps true): exact where v's tag is,
// false where the tag excludes it, otherwise false where v is nil and a
// marked approximation (why) where it is not.
func (t *translator) errIdentity(v value, g *ssa.Global, wraps bool, why func() string) ir.Expr {
	tag := v.err
	switch {
	case tag != nil && tag.exact && wraps:
		return tag.exactWraps(g)
	case tag != nil && tag.exact:
		return tag.exactIs(g)
	case wraps && tag.cannotWrap(g), !wraps && tag.cannotBe(g):
		return ir.False
	}
	var nonNil ir.Expr
	if v.expr != nil && v.expr.Sort() == ir.Bool {
		nonNil = v.expr
	}
	return t.approxWhereNonNil("errors.Is()", nonNil, why())
}

// identityVars returns the tag of an error φ or result named name: one
// variable per compared sentinel for is and for wraps (nil when the
// program compares with none).
func (t *translator) identityVars(name string) *errTag {
	cs := t.l.comparedSentinels()
	if len(cs) == 0 {
		return nil
	}
	e := freshErr()
	for _, g := range cs {
		e.is[g] = t.p.NewVar(name+" == "+g.Name(), ir.Bool, ir.Ghost)
		e.wraps[g] = t.p.NewVar("errors.Is("+name+", "+g.Name()+")", ir.Bool, ir.Ghost)
	}
	return e
}

// identityMoves appends the assignments of identity variables vars (of
// identityVars) from error v, which comes in at the current location
// (what: v as the source writes it, for approximation notes), to lhs and
// rhs.
func (t *translator) identityMoves(vars *errTag, v value, what string, lhs *[]*ir.Var, rhs *[]ir.Expr) {
	for _, g := range t.l.comparedSentinels() {
		for _, wraps := range []bool{false, true} {
			dst, test := vars.is[g], what+" == "+g.Name()
			if wraps {
				dst, test = vars.wraps[g], "errors.Is("+what+", "+g.Name()+")"
			}
			x := t.errIdentity(v, g, wraps, func() string { return t.errTestWhy(test) })
			*lhs = append(*lhs, dst.(*ir.Var))
			*rhs = append(*rhs, x)
		}
	}
}

// wrapsAll returns the exact tag of an error that wraps errors tags
// (fmt.Errorf's %w operands, errors.Join's elements): nil when one is
// not exact.
func wrapsAll(tags []*errTag) *errTag {
	out := &errTag{ids: map[*ssa.Global]bool{}, chain: map[*ssa.Global]bool{},
		exact: true, is: map[*ssa.Global]ir.Expr{}, wraps: map[*ssa.Global]ir.Expr{}}
	for _, w := range tags {
		if w == nil || !w.exact {
			return nil
		}
		for g, x := range w.wraps {
			out.wraps[g] = ir.Or(out.exactWraps(g), x)
		}
		maps.Copy(out.chain, w.ids)
		maps.Copy(out.chain, w.chain)
		out.anyWrap = out.anyWrap || w.anyWrap
	}
	return out
}

// libraryCallsBack reports whether a database library may call code of
// the program, whose errors it then returns (wrapped): a method named
// Scan… (sql.Scanner, pgx's scanners), Value (driver.Valuer) or Err (a
// context), or a driver the program registers (sql.Register, sql.OpenDB).
func (l *Loaded) libraryCallsBack() bool {
	if l.callsBackSet {
		return l.callsBack
	}
	l.callsBackSet = true
	for _, fn := range l.allModuleFunctions() {
		if fn.Signature.Recv() != nil && (strings.HasPrefix(fn.Name(), "Scan") || fn.Name() == "Value" || fn.Name() == "Err") {
			l.callsBack = true
			return true
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				ci, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if callee := ci.Common().StaticCallee(); callee != nil && callee.Pkg != nil && callee.Pkg.Pkg.Path() == "database/sql" &&
					(callee.Name() == "Register" || callee.Name() == "OpenDB") {
					l.callsBack = true
					return true
				}
			}
		}
	}
	return false
}

// An error variable that a closure captures (a named result a deferred
// function reads) lives in a cell. Such a cell carries identity variables
// too (cell.errVars), assigned at each store, when nothing but stores and
// loads reaches it (plainErrAlloc): then no write bypasses them.

// plainErrAlloc reports whether the only uses of error variable a are
// stores into it, loads, and closures that only store into it and load
// it and that are only called or deferred.
func plainErrAlloc(a *ssa.Alloc) bool {
	for _, r := range *a.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr != a || r.Val == a {
				return false
			}
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return false
			}
		case *ssa.DebugRef:
		case *ssa.MakeClosure:
			if !plainErrCapture(r, a) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// plainErrCapture reports whether closure mc, which binds a, only stores
// into it and loads it, and is only called or deferred.
func plainErrCapture(mc *ssa.MakeClosure, a *ssa.Alloc) bool {
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return false
	}
	for i, b := range mc.Bindings {
		if b != a {
			continue
		}
		if i >= len(fn.FreeVars) {
			return false
		}
		for _, r := range *fn.FreeVars[i].Referrers() {
			switch r := r.(type) {
			case *ssa.Store:
				if r.Addr != fn.FreeVars[i] || r.Val == fn.FreeVars[i] {
					return false
				}
			case *ssa.UnOp:
				if r.Op != token.MUL {
					return false
				}
			case *ssa.DebugRef:
			default:
				return false
			}
		}
	}
	for _, r := range *mc.Referrers() {
		switch r := r.(type) {
		case *ssa.Call:
			if r.Call.Value != ssa.Value(mc) || slices.Contains(r.Call.Args, ssa.Value(mc)) {
				return false
			}
		case *ssa.Defer:
			if r.Call.Value != ssa.Value(mc) || slices.Contains(r.Call.Args, ssa.Value(mc)) {
				return false
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// allocIdentity gives error cell c of allocation a identity variables,
// false (the nil error), when a is a plain error variable.
func (t *translator) allocIdentity(a *ssa.Alloc, c *cell) {
	if c.v == nil || !c.v.Err || !plainErrAlloc(a) {
		return
	}
	c.errVars = t.identityVars(c.name)
	if c.errVars == nil {
		return
	}
	var lhs []*ir.Var
	var rhs []ir.Expr
	t.identityMoves(c.errVars, value{expr: ir.False, err: freshErr()}, c.name, &lhs, &rhs)
	t.emit(&ir.Assign{Lhs: lhs, Rhs: rhs, Info: t.info(ir.KindModel, "")})
}

// loadIdentity copies the identity variables of error cell c into those
// of its loaded value v.
func (t *translator) loadIdentity(c *cell, v *value) {
	if c.errVars == nil {
		return
	}
	out := t.identityVars(v.expr.(*ir.Var).Name)
	var lhs []*ir.Var
	var rhs []ir.Expr
	t.identityMoves(out, value{expr: v.expr, err: c.errVars}, c.name, &lhs, &rhs)
	t.emit(&ir.Assign{Lhs: lhs, Rhs: rhs, Info: t.info(ir.KindModel, "")})
	v.err = out
}

// storeIdentity returns the assignments of the identity variables of
// error cell c for a store of v (none when c has none).
func (t *translator) storeIdentity(c *cell, v value) ([]*ir.Var, []ir.Expr) {
	if c.errVars == nil {
		return nil, nil
	}
	var lhs []*ir.Var
	var rhs []ir.Expr
	t.identityMoves(c.errVars, v, c.name, &lhs, &rhs)
	return lhs, rhs
}
