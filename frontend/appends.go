package frontend

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// Slices sharing a backing array the model tracks: make with constant
// sizes, appends into spare capacity, copy between tracked slices.

// constLen is the length of slice object o when the model knows it.
func constLen(o *object) (int, bool) {
	if o == nil || o.kind != objSlice {
		return 0, false
	}
	k, ok := o.length.(*ir.IntConst)
	if !ok || !k.V.IsInt64() || k.V.Int64() < 0 {
		return 0, false
	}
	return int(k.V.Int64()), true
}

// makeSlice translates make([]T, n, m) of interface elements with
// constant sizes (at most 64): a tracked array of m nil elements, of
// which the slice holds the first n. Other makes have untracked elements.
func (t *translator) makeSlice(f *frame, i *ssa.MakeSlice) (*object, bool) {
	st, ok := i.Type().Underlying().(*types.Slice)
	if !ok || !types.IsInterface(st.Elem()) {
		return nil, false
	}
	n, ok := t.val(f, i.Len).expr.(*ir.IntConst)
	if !ok || !n.V.IsInt64() {
		return nil, false
	}
	m := n
	if i.Cap != nil {
		if m, ok = t.val(f, i.Cap).expr.(*ir.IntConst); !ok || !m.V.IsInt64() {
			return nil, false
		}
	}
	if n.V.Int64() < 0 || m.V.Int64() < n.V.Int64() || m.V.Int64() > 64 {
		return nil, false
	}
	arr := t.newCell(types.NewArray(st.Elem(), m.V.Int64()), f.prefix+t.nameOf(f, i), false)
	arr.alloc = t.blockNow()
	return &object{kind: objSlice, cell: arr, length: ir.IntLit(n.V.Int64())}, true
}

// appendInPlace is append(s, x...) into the spare capacity of s's array:
// the result shares the array.
func (t *translator) appendInPlace(s *object, x []value) (value, bool) {
	n, ok := constLen(s)
	if !ok || s.cell == nil || s.capUnknown || n+len(x) > len(s.cell.fields) {
		return value{}, false
	}
	for i, e := range x {
		t.store(t.field(s.cell, n+i), e)
	}
	return value{obj: &object{kind: objSlice, cell: s.cell, length: ir.IntLit(int64(n + len(x)))}}, true
}

// forkAppend records out, the copy append(s, x...) made of s (of length
// n) with k more elements. s's capacity is Go's choice when an append
// made it: had it room, an earlier append to s wrote into the same array,
// and this one overwrites that one's elements n… (audit := append(base,
// -1) after debit := append(base, amt)); those are now approximations.
func (t *translator) forkAppend(s *object, n, k int, out *object) {
	if s == nil || s.kind != objSlice || s.cell == nil {
		return
	}
	if s.capUnknown {
		why := fmt.Sprintf("an element of a slice that another append at %s may share its array with (Go chooses the capacity)", t.posString(t.pos))
		for _, r := range s.forks {
			for i := n; i < n+k && i < len(r.cell.fields); i++ {
				t.havocApprox(t.field(r.cell, i), why, 0)
			}
		}
	}
	s.forks = append(s.forks, out)
}

// appendUnknown is an append the model does not follow onto s (op:
// "append"), or clear(s): it may write s's array (and what earlier
// appends to s made) from s's length on, or all of it.
func (t *translator) appendUnknown(s *object, op string) {
	if s == nil || s.kind != objSlice || s.cell == nil {
		return
	}
	n, ok := constLen(s)
	if !ok || op != "append" {
		n = 0
	}
	why := fmt.Sprintf("an element of a slice that %s at %s may write (not tracked)", op, t.posString(t.pos))
	for _, c := range append([]*object{s}, s.forks...) {
		for i := n; i < len(c.cell.fields); i++ {
			t.havocApprox(t.field(c.cell, i), why, 0)
		}
	}
}

// copyKnown is copy(dst, src) between slices whose elements the model
// tracks: dst's first elements get src's (read first: they may overlap).
// Another copy into a tracked dst makes its elements approximations.
func (t *translator) copyKnown(args []value) (value, bool) {
	if len(args) != 2 {
		return value{}, false
	}
	dst := args[0].obj
	nd, ok := constLen(dst)
	if !ok || dst.cell == nil {
		return value{}, false
	}
	src := t.knownElems(args[1])
	if src == nil || args[1].obj == nil {
		why := fmt.Sprintf("an element of a slice that copy at %s writes (not tracked)", t.posString(t.pos))
		for i := 0; i < nd; i++ {
			t.havocApprox(t.field(dst.cell, i), why, 0)
		}
		return value{}, false
	}
	n := min(nd, len(src))
	for i := 0; i < n; i++ {
		t.store(t.field(dst.cell, i), src[i])
	}
	return value{expr: ir.IntLit(int64(n))}, true
}

// prefixSlice translates x[:h] (x[0:h]) of an array or a slice whose
// array the model tracks, h constant (make([]any, 2, 3) is new([3]any)[:2]):
// the slice shares the array, whose length is its capacity.
func (t *translator) prefixSlice(f *frame, i *ssa.Slice, x value) (*object, bool) {
	o := x.obj
	if o == nil || o.cell == nil || o.cell.fields == nil || i.Max != nil || i.High == nil || (o.kind != objPtr && o.kind != objSlice) {
		return nil, false
	}
	if i.Low != nil {
		if lo, ok := t.val(f, i.Low).expr.(*ir.IntConst); !ok || lo.V.Sign() != 0 {
			return nil, false
		}
	}
	h, ok := t.val(f, i.High).expr.(*ir.IntConst)
	if !ok || !h.V.IsInt64() || h.V.Int64() < 0 {
		return nil, false
	}
	limit := len(o.cell.fields)
	if n, known := constLen(o); o.kind == objSlice && o.capUnknown && known {
		limit = n // beyond the length: within Go's capacity or a panic
	} else if o.kind == objSlice && o.capUnknown {
		return nil, false
	}
	if h.V.Int64() > int64(limit) {
		return nil, false
	}
	return &object{kind: objSlice, cell: o.cell, length: ir.IntLit(h.V.Int64()), capUnknown: o.kind == objSlice && o.capUnknown}, true
}
