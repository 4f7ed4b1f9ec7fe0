package frontend

import (
	"fmt"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// The outcome of a validation call the model knows (go-playground's
// validator, gin's binding, echo's Validate, ozzo-validation): two
// paths. Where the call returns an error, nothing is known of the
// values (a validator may also fail on a valid value: a decoding error,
// a rule's own failure), and the path reads nothing approximated. Where
// it returns nil, every bound the model reads from the rules holds, and
// every value checked by a rule the model does not read is an
// approximation naming the rule and the call: a field in memory keeps
// its value through a variable marked as such (a counterexample that
// only stores it in a column stays exact, and a proof keeps what it knew
// of the value), a value the model cannot reassign (a struct passed by
// value, a slice) marks the nil path itself. So a
// counterexample that needs the call to accept a value its rules would
// refuse is UNKNOWN, never UNSAFE (issue 8: an INSERT after ozzo's
// ValidateStruct(&req, Field(&req.Price, Min(0))) was UNSAFE with a
// negative price).

// fieldCheck is what a validation call checks of one value.
type fieldCheck struct {
	name   string
	cell   *cell // the value's cell, when the model holds it in memory
	bounds []bound
	by     []byRule // the module's functions the value must pass
	unread []string // rules the model does not read
}

// byRule is a rule that is a function of the module (ozzo's By(fn)): the
// validation returns nil only where fn(arg) returns nil.
type byRule struct {
	fn   *ssa.Function
	arg  value
	text string
}

// validationOutcome emits the two paths of a validation call (what names
// it; rules says what it checks, for the assumption) and returns its
// results, the error last.
func (t *translator) validationOutcome(what, rules string, checks []fieldCheck, results *types.Tuple) value {
	errV := t.freshVar(what+"()", ir.Bool, ir.KindCall)
	where := t.posString(t.pos)
	join, from := t.p.NewLoc(), t.cur
	t.emit(&ir.Assume{Cond: errV, Info: t.info(ir.KindModel, "")})
	t.edge(join, &ir.Assume{Cond: ir.True, Info: t.info(ir.KindModel, "")})
	t.cur = from
	t.emit(&ir.Assume{Cond: ir.Not(errV), Info: t.info(ir.KindModel, "")})
	var bounds, havocked []ir.Expr
	var texts, opaque []string
	for _, c := range checks {
		renewed := false
		if len(c.unread) > 0 {
			why := fmt.Sprintf("%s where %s (%s) returns nil: its rule %s is not modelled", c.name, what, where, strings.Join(c.unread, ", "))
			if c.cell != nil && c.cell.v != nil {
				t.approxInPlace(c.cell.v, why)
				renewed = true
			} else {
				opaque = append(opaque, c.name+" ("+strings.Join(c.unread, ", ")+")")
			}
		}
		for _, b := range c.bounds {
			if renewed {
				havocked = append(havocked, b.expr)
			} else {
				bounds = append(bounds, b.expr)
			}
			texts = append(texts, c.name+" "+b.text)
		}
	}
	if len(havocked) > 0 {
		// The bounds of a value marked as an approximation hold of the
		// real one on this path: a fact, which does not make a
		// counterexample spurious (vcgen.ApproxReads).
		t.emit(&ir.Assume{Cond: ir.And(havocked...), Info: t.info(ir.KindFact, "")})
	}
	if len(opaque) > 0 {
		ok := t.p.NewVar(what+" accepts", ir.Bool, ir.Local)
		ok.Approx = fmt.Sprintf("whether %s (%s) returns nil: the rules of %s are not modelled", what, where, strings.Join(opaque, ", "))
		t.emit(&ir.Havoc{Vars: []*ir.Var{ok}, Info: t.info(ir.KindCall, "")})
		t.emit(&ir.Assume{Cond: ok, Info: t.info(ir.KindModel, "")})
	}
	if len(bounds) > 0 {
		t.emit(&ir.Assume{Cond: ir.And(bounds...), Info: t.info(ir.KindModel, "")})
	}
	for _, c := range checks {
		for _, b := range c.by {
			t.passBy(what, where, c.name, b)
			texts = append(texts, c.name+" passes "+b.text)
		}
	}
	if len(texts) > 0 {
		t.p.Assume(fmt.Sprintf("%s hold where %s returns nil: %s (%s)", rules, what, strings.Join(texts, ", "), where))
	}
	t.edge(join, &ir.Assume{Cond: ir.True, Info: t.info(ir.KindModel, "")})
	if results.Len() == 1 {
		return value{expr: errV}
	}
	out := t.fresh(what+"()", results)
	if n := len(out.tuple); n > 0 {
		out.tuple[n-1] = value{expr: errV}
	}
	return out
}

// approxInPlace marks the value v holds from here on as an approximation
// without changing it: v is copied through a variable marked why, which
// copy propagation keeps (ir.Var.Approx), so a condition that reads v
// later reads the mark (vcgen.ApproxReads).
func (t *translator) approxInPlace(v *ir.Var, why string) {
	h := t.p.NewVar(v.Name, v.Type, ir.Local)
	h.Approx, h.Str, h.Internal, h.Named, h.Err = why, v.Str, v.Internal, v.Named, v.Err
	t.emit(&ir.Assign{Lhs: []*ir.Var{h}, Rhs: []ir.Expr{v}, Info: t.info(ir.KindModel, "")})
	t.emit(&ir.Assign{Lhs: []*ir.Var{v}, Rhs: []ir.Expr{h}, Info: t.info(ir.KindModel, "")})
}

// passBy analyses rule b's function on the value it checks, where the
// validation returned nil: the function returned nil too. A result the
// model does not know marks the path as an approximation.
func (t *translator) passBy(what, where, name string, b byRule) {
	res := t.inline(b.fn, []value{b.arg}, nil)
	if res.expr == nil || res.expr.Sort() != ir.Bool {
		ok := t.p.NewVar(what+" accepts", ir.Bool, ir.Local)
		ok.Approx = fmt.Sprintf("whether %s (%s) returns nil: the result of %s on %s is not modelled", what, where, b.text, name)
		t.emit(&ir.Havoc{Vars: []*ir.Var{ok}, Info: t.info(ir.KindCall, "")})
		t.emit(&ir.Assume{Cond: ok, Info: t.info(ir.KindModel, "")})
		return
	}
	t.emit(&ir.Assume{Cond: ir.Not(res.expr), Info: t.info(ir.KindModel, "")})
}
