package frontend

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// errors.Join of a slice of errors filled by appends on branches
// (adv15 F2: `var errs []error; if … { errs = append(errs, e) }; if err
// := errors.Join(errs...); err != nil`). A []error value built only from
// nil and appends carries a summary in value.err: nonNil (some element is
// non-nil) and wraps (errors.Is of some element), exact on every path: a
// φ of such slices gets variables assigned on each incoming edge (like an
// error φ, errpaths.go). errors.Join(errs...) is then nil exactly when no
// element is non-nil and wraps what one of them is or wraps. The summary
// is trusted only when the slice's values are used by nothing but
// appends onto them, φs and the Join (plainErrSlice): no element is
// written, no slice of it handed elsewhere.

// isErrorSlice reports whether typ is []error.
func isErrorSlice(typ types.Type) bool {
	s, ok := typ.Underlying().(*types.Slice)
	return ok && isError(s.Elem())
}

// emptyErrs is the summary of a nil []error.
func emptyErrs() *errTag {
	e := freshErr()
	e.nonNil = ir.False
	return e
}

// appendErrs returns the summary of append(s, x...) of []error s with
// summary sum; c is the call. nil when an element is not seen.
func (t *translator) appendErrs(f *frame, c *ssa.CallCommon, sum *errTag) *errTag {
	if sum == nil || sum.nonNil == nil || len(c.Args) != 2 {
		return nil
	}
	elems, ok := storedElems(c.Args[1])
	if !ok {
		return nil
	}
	out := freshErr()
	nonNil := []ir.Expr{sum.nonNil}
	for _, g := range t.l.comparedSentinels() {
		out.wraps[g] = sum.exactWraps(g)
	}
	for _, e := range elems {
		v, ok := f.env[e]
		if !ok || v.expr == nil || v.expr.Sort() != ir.Bool {
			return nil
		}
		nonNil = append(nonNil, v.expr)
		for _, g := range t.l.comparedSentinels() {
			what := t.exprName(f, e)
			x := t.errIdentity(v, g, true, func() string { return t.errTestWhy("errors.Is(" + what + ", " + g.Name() + ")") })
			out.wraps[g] = ir.Or(out.wraps[g], x)
		}
	}
	out.nonNil = ir.Or(nonNil...)
	return out
}

// storedElems returns the values stored into the array a variadic
// argument slice s slices (append(s, a, b)'s a and b).
func storedElems(s ssa.Value) ([]ssa.Value, bool) {
	sl, ok := s.(*ssa.Slice)
	if !ok {
		return nil, false
	}
	arr, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return nil, false
	}
	var out []ssa.Value
	for _, ref := range *arr.Referrers() {
		ia, ok := ref.(*ssa.IndexAddr)
		if !ok {
			if ref != ssa.Instruction(sl) {
				return nil, false
			}
			continue
		}
		for _, r := range *ia.Referrers() {
			st, ok := r.(*ssa.Store)
			if !ok || st.Addr != ia {
				return nil, false
			}
			out = append(out, st.Val)
		}
	}
	return out, true
}

// errSlicePhi gives []error φ p summary variables when its incoming
// slices are summarised.
func (t *translator) errSlicePhi(f *frame, p *ssa.Phi) {
	if !isErrorSlice(p.Type()) {
		return
	}
	v := f.env[p]
	name := f.prefix + t.nameOf(f, p)
	vars := t.identityVars(name)
	if vars == nil {
		vars = freshErr()
	}
	vars.nonNil = t.p.NewVar("errors.Join("+name+"...) != nil", ir.Bool, ir.Ghost)
	v.err = vars
	f.env[p] = v
	if f.errSlicePhis == nil {
		f.errSlicePhis = map[*ssa.Phi]*errTag{}
	}
	f.errSlicePhis[p] = vars
}

// errSliceMoves appends the assignments of the summary variables of
// []error φ p for the edge from its idx-th predecessor.
func (t *translator) errSliceMoves(f *frame, p *ssa.Phi, idx int, lhs *[]*ir.Var, rhs *[]ir.Expr) {
	vars, ok := f.errSlicePhis[p]
	if !ok || idx < 0 {
		return
	}
	in := t.val(f, p.Edges[idx])
	what := t.exprName(f, p.Edges[idx])
	nonNil := ir.Expr(nil)
	if in.err != nil && in.err.nonNil != nil {
		nonNil = in.err.nonNil
	} else {
		nonNil = t.approxWhereNonNil("errors.Join()", nil, "whether an element of "+what+" at "+t.posString(t.pos)+" is non-nil, which the model does not track")
	}
	*lhs = append(*lhs, vars.nonNil.(*ir.Var))
	*rhs = append(*rhs, nonNil)
	for _, g := range t.l.comparedSentinels() {
		x := ir.Expr(nil)
		if in.err != nil && in.err.nonNil != nil {
			x = in.err.exactWraps(g)
		} else {
			x = t.approxWhereNonNil("errors.Is()", nil, "whether an element of "+what+" at "+t.posString(t.pos)+" is or wraps "+g.Name()+", which the model does not track")
		}
		*lhs = append(*lhs, vars.wraps[g].(*ir.Var))
		*rhs = append(*rhs, x)
	}
}

// plainErrSlice reports whether []error value v is built from nil by
// appends and φs whose values nothing else uses than those appends, φs,
// len and the call at.
func plainErrSlice(v ssa.Value, at *ssa.CallCommon, seen map[ssa.Value]bool) bool {
	if seen[v] {
		return true
	}
	seen[v] = true
	if refs := v.Referrers(); refs != nil {
		for _, r := range *refs {
			if !plainErrSliceUse(v, r, at) {
				return false
			}
		}
	}
	switch v := v.(type) {
	case *ssa.Const:
		return v.IsNil()
	case *ssa.Phi:
		for _, e := range v.Edges {
			if !plainErrSlice(e, at, seen) {
				return false
			}
		}
		return true
	case *ssa.Call:
		b, ok := v.Call.Value.(*ssa.Builtin)
		return ok && b.Name() == "append" && len(v.Call.Args) == 2 && plainErrSlice(v.Call.Args[0], at, seen)
	}
	return false
}

// plainErrSliceUse reports whether r's use of slice v is one
// plainErrSlice allows.
func plainErrSliceUse(v ssa.Value, r ssa.Instruction, at *ssa.CallCommon) bool {
	switch r := r.(type) {
	case *ssa.Phi, *ssa.DebugRef:
		return true
	case *ssa.Call:
		if &r.Call == at {
			return true
		}
		b, ok := r.Call.Value.(*ssa.Builtin)
		return ok && (b.Name() == "len" || b.Name() == "append" && len(r.Call.Args) == 2 && r.Call.Args[0] == v)
	}
	return false
}

// joinErrs is errors.Join(errs...) (call c) of a summarised []error
// built by plain appends: nil exactly when no element is non-nil.
func (t *translator) joinErrs(c *ssa.CallCommon, args []value) (value, bool) {
	if len(c.Args) != 1 || len(args) != 1 || args[0].err == nil || args[0].err.nonNil == nil ||
		!plainErrSlice(c.Args[0], c, map[ssa.Value]bool{}) {
		return value{}, false
	}
	sum := args[0].err
	tag := freshErr()
	for _, g := range t.l.comparedSentinels() {
		tag.wraps[g] = sum.exactWraps(g)
	}
	return value{expr: sum.nonNil, err: tag}, true
}
