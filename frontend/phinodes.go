package frontend

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// φ-nodes: the value a block's φ binds (a variable the incoming edges
// assign for scalars, the common object or a choice among the incoming
// ones for the rest), and the moves each edge makes into it.

// phi binds a φ-node: a variable assigned on the incoming edges for
// scalars; for objects the common value of the incoming edges.
func (t *translator) phi(f *frame, p *ssa.Phi) {
	if s, ok := sortOf(p.Type()); ok {
		nv := t.p.NewVar(f.prefix+t.nameOf(f, p), s, ir.Local)
		nv.Named, nv.Err = userNamed(f, p), isError(p.Type())
		v := value{expr: nv}
		if isString(p.Type()) {
			v.alts = t.phiTexts(f, p)
		}
		if isError(p.Type()) {
			v.err = t.phiErr(f, p)
			if vars := t.identityVars(nv.Name); vars != nil {
				v.err = vars
				if f.errPhis == nil {
					f.errPhis = map[*ssa.Phi]*errTag{}
				}
				f.errPhis[p] = vars
			}
		}
		f.env[p] = v
		return
	}
	if v, ok := t.nullablePhi(f, p); ok {
		f.env[p] = v
		return
	}
	switch p.Type().Underlying().(type) {
	case *types.Slice, *types.Map, *types.Array:
		if v, ok := t.sliceChoicePhi(f, p); ok {
			f.env[p] = v
			return
		}
		// A slice that may grow around a loop: its length is a variable
		// assigned on the incoming edges (phiMoves).
		n := t.p.NewVar("len("+f.prefix+t.nameOf(f, p)+")", ir.Int, ir.Local)
		arbitrary := true
		for _, e := range p.Edges {
			if _, isConst := e.(*ssa.Const); isConst {
				continue // nil
			}
			if ev, ok := f.env[e]; !ok || ev.obj == nil || !ev.obj.arbitrary {
				arbitrary = false
			}
		}
		f.env[p] = value{obj: &object{kind: objSlice, length: n, arbitrary: arbitrary, coll: t.collectionFor(f, p)}}
		return
	}
	var got value
	var known []value
	var later []ssa.Value
	same := true
	for _, e := range p.Edges {
		v, ok := t.peek(f, e)
		if !ok {
			// Defined later (a loop back edge): the value is not known here.
			later = append(later, e)
			continue
		}
		if len(known) > 0 && !sameValue(known[0], v) {
			same = false
		}
		known = append(known, v)
	}
	if same && len(later) == 0 && len(known) > 0 {
		got = known[0]
	} else if v, ok := t.choicePhi(f, p, known, later); ok {
		got = v
		t.typedPhi(f, p, known, &got)
	} else {
		// Different objects merge into an opaque one: their pointers are
		// lost, now or when they are defined.
		for _, v := range known {
			t.lose(v)
		}
		for _, e := range later {
			if f.loseOnDefine == nil {
				f.loseOnDefine = map[ssa.Value]bool{}
			}
			f.loseOnDefine[e] = true
		}
		t.typedPhi(f, p, known, &got)
	}
	f.env[p] = got
}

func sameValue(a, b value) bool {
	if a.obj != nil || b.obj != nil {
		if a.obj == nil || b.obj == nil {
			return false
		}
		if a.obj == b.obj {
			return true
		}
		return a.obj.kind == b.obj.kind && a.obj.kind == objDB
	}
	return a.strKnown && b.strKnown && a.str == b.str
}

// phiMoves assigns succ's scalar φ-nodes for the edge from b and jumps to succ.
func (t *translator) phiMoves(f *frame, b, succ *ssa.BasicBlock) {
	idx := -1
	for i, p := range succ.Preds {
		if p == b {
			idx = i
		}
	}
	var lhs []*ir.Var
	var rhs []ir.Expr
	for _, instr := range succ.Instrs {
		p, ok := instr.(*ssa.Phi)
		if !ok {
			break
		}
		pv := f.env[p]
		if tv, ok := f.phiType[p]; ok && idx >= 0 {
			// An interface φ: the number of the type the edge brings.
			lhs = append(lhs, tv)
			rhs = append(rhs, t.dynTypeOf(t.val(f, p.Edges[idx])))
		}
		t.errSliceMoves(f, p, idx, &lhs, &rhs)
		if sel, ok := f.phiSel[p]; ok && idx >= 0 {
			// A φ of pointers: which one the edge brings.
			lhs = append(lhs, sel)
			rhs = append(rhs, ir.IntLit(int64(idx)))
			continue
		}
		if pv.obj != nil && pv.obj.kind == objSlice && idx >= 0 {
			// The length of a slice φ.
			n := pv.obj.length.(*ir.Var)
			in := t.val(f, p.Edges[idx])
			x := ir.Expr(nil)
			c, isConst := p.Edges[idx].(*ssa.Const)
			fromNil := (isConst && c.IsNil()) || (in.obj != nil && in.obj.kind == objNil)
			if fromNil {
				x = ir.IntLit(0) // a nil slice
			} else if in.obj != nil && in.obj.length != nil {
				x = in.obj.length
			} else {
				x = t.freshLen(n.Name)
			}
			lhs = append(lhs, n)
			rhs = append(rhs, x)
			if pv.obj.coll != nil {
				cl, cr := collectionMoves(pv, in, fromNil)
				lhs, rhs = append(lhs, cl...), append(rhs, cr...)
			}
			continue
		}
		if f.fieldPhis[p] && idx >= 0 {
			l, r := t.fieldMoves(f, pv, p.Edges[idx])
			lhs, rhs = append(lhs, l...), append(rhs, r...)
			continue
		}
		if pv.expr == nil && pv.obj == nil && idx >= 0 {
			// Different objects merge into an opaque one: their pointers
			// are lost.
			t.lose(t.val(f, p.Edges[idx]))
		}
		v, ok := pv.expr.(*ir.Var)
		if !ok || idx < 0 {
			continue
		}
		x := t.val(f, p.Edges[idx]).expr
		if x == nil {
			x = t.freshVar(v.Name, v.Type, ir.KindAssign)
		}
		lhs = append(lhs, v)
		rhs = append(rhs, convertSort(x, v.Type))
		if vars, ok := f.errPhis[p]; ok {
			t.identityMoves(vars, t.val(f, p.Edges[idx]), t.exprName(f, p.Edges[idx]), &lhs, &rhs)
		}
	}
	if len(lhs) > 0 {
		t.emit(&ir.Assign{Lhs: lhs, Rhs: rhs, Info: t.info(ir.KindAssign, "")})
	}
	t.edge(f.start[succ], &ir.Assume{Cond: ir.True, Info: t.info(ir.KindAssign, "")})
}

// convertSort makes x fit sort s (ints into reals; anything else unchanged).
func convertSort(x ir.Expr, s ir.Sort) ir.Expr {
	if s == ir.Real && x.Sort() == ir.Int {
		return ir.AsReal(x)
	}
	return x
}
