package frontend

import (
	"fmt"
	"go/types"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// String values the SQL text may come from: a constant (value.str), one of
// a few constants (value.alts: a φ of constants, a helper returning one of
// several, fmt.Sprintf of such), with the value's code selecting which.
// Integers formatted into SQL with fmt.Sprintf become markers
// (__dbv_fmtN__) that runSQL turns back into bound values.

// maxAlts bounds the alternatives of one string value.
const maxAlts = 16

// texts returns the constant texts v may have, or nil if unknown.
func (v value) texts() []string {
	if v.strKnown {
		return []string{v.str}
	}
	return v.alts
}

// strChoice returns a string value that is one of texts: its code equals
// the code of the chosen text.
func (t *translator) strChoice(name string, texts []string, conds []ir.Expr) value {
	if len(texts) == 1 && (conds == nil || conds[0] == ir.True) {
		return value{expr: ir.StringCode(texts[0]), str: texts[0], strKnown: true}
	}
	v := t.freshVar(name, ir.Int, ir.KindAssign)
	var alts []ir.Expr
	for i, s := range texts {
		c := ir.Expr(ir.True)
		if conds != nil {
			c = conds[i]
		}
		alts = append(alts, ir.And(ir.Eq(v, ir.StringCode(s)), c))
	}
	t.emit(&ir.Assume{Cond: ir.Or(alts...), Info: t.info(ir.KindModel, "")})
	return value{expr: v, alts: dedupeStrings(texts)}
}

func dedupeStrings(xs []string) []string {
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

// product combines parts (each with its texts) into the texts of their
// concatenation, with the condition selecting each; ok is false when a
// part is unknown or there are too many combinations.
func product(parts []value, join func([]string) string) (texts []string, conds []ir.Expr, ok bool) {
	texts, conds = []string{""}, []ir.Expr{ir.True}
	var chosen [][]string = [][]string{nil}
	for _, p := range parts {
		ts := p.texts()
		if ts == nil {
			return nil, nil, false
		}
		var nt []string
		var nc []ir.Expr
		var nch [][]string
		for i := range texts {
			for _, s := range ts {
				c := conds[i]
				if len(ts) > 1 {
					c = ir.And(c, ir.Eq(p.expr, ir.StringCode(s)))
				}
				nt = append(nt, "")
				nc = append(nc, c)
				nch = append(nch, append(append([]string(nil), chosen[i]...), s))
			}
		}
		if len(nt) > maxAlts {
			return nil, nil, false
		}
		texts, conds, chosen = nt, nc, nch
	}
	for i := range texts {
		texts[i] = join(chosen[i])
	}
	return texts, conds, true
}

var verbRE = regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z%]`)

// sprintf models fmt.Sprintf with a constant format: %s/%v/%q of known
// strings are spliced in, %d/%v/%f of numbers become markers bound to their
// values; anything else makes the result unknown.
func (t *translator) sprintf(args []value) value {
	if len(args) == 0 {
		return value{}
	}
	formats := args[0].texts()
	if formats == nil || len(formats) != 1 {
		return t.fresh("fmt.Sprintf()", nil)
	}
	format := formats[0]
	elems := t.sliceElems(args[1])
	if len(args) > 1 && elems == nil && args[1].obj != nil {
		return value{expr: t.freshVar("fmt.Sprintf()", ir.Int, ir.KindCall)}
	}
	var parts []value
	last, argi := 0, 0
	for _, loc := range verbRE.FindAllStringIndex(format, -1) {
		verb := format[loc[0]:loc[1]]
		parts = append(parts, constStr(format[last:loc[0]]))
		last = loc[1]
		if verb == "%%" {
			parts = append(parts, constStr("%"))
			continue
		}
		if argi >= len(elems) {
			return value{expr: t.freshVar("fmt.Sprintf()", ir.Int, ir.KindCall)}
		}
		a := elems[argi]
		argi++
		kind := verb[len(verb)-1]
		switch {
		case a.texts() != nil && (kind == 's' || kind == 'v'):
			parts = append(parts, a)
		case a.texts() != nil && kind == 'q' && a.strKnown:
			parts = append(parts, constStr(strconv.Quote(a.str)))
		case a.expr != nil && a.texts() == nil && exactNumberVerb(verb, a.expr.Sort()):
			parts = append(parts, constStr(t.marker(a.expr)))
		default:
			return value{expr: t.freshVar("fmt.Sprintf()", ir.Int, ir.KindCall)}
		}
	}
	parts = append(parts, constStr(format[last:]))
	texts, conds, ok := product(parts, func(ss []string) string { return strings.Join(ss, "") })
	if !ok {
		return value{expr: t.freshVar("fmt.Sprintf()", ir.Int, ir.KindCall)}
	}
	t.noteZeroSplices(parts, texts)
	return t.strChoice("fmt.Sprintf()", texts, conds)
}

// exactNumberVerb reports whether verb prints a number of sort s as its
// exact value: %d or %v of an integer, %v or %g of a real, with no
// precision (%.2f rounds) and no base other than ten.
func exactNumberVerb(verb string, s ir.Sort) bool {
	kind := verb[len(verb)-1]
	if strings.ContainsAny(verb, ".#*[") {
		return false
	}
	switch s {
	case ir.Int:
		return kind == 'd' || kind == 'v'
	case ir.Real:
		return kind == 'v' || kind == 'g'
	}
	return false
}

func constStr(s string) value { return value{expr: ir.StringCode(s), str: s, strKnown: true} }

// marker returns the SQL identifier standing for a formatted number.
func (t *translator) marker(e ir.Expr) string {
	t.markers = append(t.markers, e)
	return fmt.Sprintf("__dbv_fmt%d__", len(t.markers)-1)
}

var markerRE = regexp.MustCompile(`^__dbv_fmt([0-9]+)__$`)

// bindMarkers replaces the markers of a parsed statement by placeholders
// bound to the formatted values, appended to args.
func (t *translator) bindMarkers(stmt sqlir.Statement, args []ir.Expr) (sqlir.Statement, []ir.Expr) {
	if len(t.markers) == 0 {
		return stmt, args
	}
	out := append([]ir.Expr(nil), args...)
	stmt = sqlir.RewriteStatement(stmt, func(e sqlir.Expr) (sqlir.Expr, bool) {
		c, ok := e.(*sqlir.ColRef)
		if !ok {
			return nil, false
		}
		m := markerRE.FindStringSubmatch(c.Name)
		if m == nil {
			return nil, false
		}
		n, _ := strconv.Atoi(m[1])
		if n >= len(t.markers) {
			return nil, false
		}
		out = append(out, t.markers[n])
		return &sqlir.Param{Index: len(out) - 1}, true
	})
	return stmt, out
}

// forkTexts runs body once per alternative of a string value, under the
// condition that selects it, and merges the results.
func (t *translator) forkTexts(sel ir.Expr, texts []string, body func(text string) value) value {
	from := t.cur
	var outs []value
	var ends []ir.Loc
	var conds []ir.Expr
	for _, text := range texts {
		t.cur = from
		c := ir.Eq(sel, ir.StringCode(text))
		t.emit(&ir.Assume{Cond: c, Info: t.info(ir.KindBranch, "")})
		outs = append(outs, body(text))
		ends = append(ends, t.cur)
		conds = append(conds, c)
	}
	return t.merge(outs, ends, conds)
}

// merge joins the branches ending at ends, whose results are outs, into
// one location and one value: scalars through new variables assigned on
// each branch, objects of the same kind into an object with alternatives.
func (t *translator) merge(outs []value, ends []ir.Loc, conds []ir.Expr) value {
	join := t.p.NewLoc()
	var assigns [][]*ir.Var
	var values [][]ir.Expr
	assigns = make([][]*ir.Var, len(outs))
	values = make([][]ir.Expr, len(outs))
	var mergeOne, mergeShape func(path []int, vs []value) value
	mergeOne = func(path []int, vs []value) value {
		out := mergeShape(path, vs)
		out.dyn, out.dyns = mergedDyns(vs)
		return out
	}
	mergeShape = func(path []int, vs []value) value {
		first := vs[0]
		switch {
		case first.expr != nil:
			allSame := true
			tags := make([]*errTag, len(vs))
			for i, v := range vs {
				if v.expr == nil || !ir.Equal(v.expr, first.expr) {
					allSame = false
				}
				tags[i] = v.err
			}
			if allSame {
				first.err = joinErr(tags...)
				return first
			}
			m := t.p.NewVar("merged", first.expr.Sort(), ir.Local)
			for i, v := range vs {
				x := v.expr
				if x == nil {
					x = m // leaves it arbitrary on that branch only if unassigned; assign itself
				}
				assigns[i] = append(assigns[i], m)
				values[i] = append(values[i], convertSort(x, m.Type))
			}
			return value{expr: m, err: joinErr(tags...)}
		case first.tuple != nil:
			out := make([]value, len(first.tuple))
			for k := range first.tuple {
				col := make([]value, len(vs))
				for i, v := range vs {
					if k < len(v.tuple) {
						col[i] = v.tuple[k]
					}
				}
				out[k] = mergeOne(append(path, k), col)
			}
			return value{tuple: out}
		case first.fields != nil:
			// A struct value (the result of an interface method with
			// several implementations): field by field. Returning the
			// first alternative's fields left them unassigned on the
			// other paths (adv9 m1: a decorated repository's Get).
			out := make([]value, len(first.fields))
			for k := range first.fields {
				col := make([]value, len(vs))
				for i, v := range vs {
					if k < len(v.fields) {
						col[i] = v.fields[k]
					}
				}
				out[k] = mergeOne(append(path, k), col)
			}
			return value{fields: out}
		case first.obj != nil:
			same := true
			for _, v := range vs {
				if v.obj != first.obj {
					same = false
				}
			}
			if same {
				return first
			}
			o := &object{kind: first.obj.kind}
			if first.obj.kind == objResult {
				var affs []value
				for _, v := range vs {
					if v.obj != nil && v.obj.affected != nil {
						affs = append(affs, value{expr: v.obj.affected})
					} else {
						affs = append(affs, value{})
					}
				}
				if m := mergeOne(path, affs); m.expr != nil {
					o.affected, _ = m.expr.(*ir.Var)
				}
				return value{obj: o}
			}
			for i, v := range vs {
				if v.obj == nil {
					continue
				}
				o.alts = append(o.alts, v.obj)
				o.altConds = append(o.altConds, conds[i])
			}
			return value{obj: o}
		}
		return first
	}
	merged := mergeOne(nil, outs)
	for i, end := range ends {
		t.cur = end
		if len(assigns[i]) > 0 {
			t.emit(&ir.Assign{Lhs: assigns[i], Rhs: values[i], Info: t.info(ir.KindAssign, "")})
		}
		t.edge(join, &ir.Assume{Cond: ir.True, Info: t.info(ir.KindModel, "")})
	}
	t.cur = join
	return merged
}

// forAlts runs body on each alternative of an object under its condition
// and merges the results.
func (t *translator) forAlts(o *object, body func(*object) value) value {
	from, pos := t.cur, t.pos
	var outs []value
	var ends []ir.Loc
	for i, alt := range o.alts {
		t.cur, t.pos = from, pos
		t.emit(&ir.Assume{Cond: o.altConds[i], Info: t.info(ir.KindBranch, "")})
		outs = append(outs, body(alt))
		ends = append(ends, t.cur)
	}
	return t.merge(outs, ends, o.altConds)
}

// mergedDyns returns the dynamic type of interface values vs merged at
// a join: theirs when they agree, else the types they may have (dyns)
// when each has known ones; none (any type) otherwise.
func mergedDyns(vs []value) (types.Type, []types.Type) {
	dyns := phiDyns(vs, len(vs))
	if len(dyns) == 1 {
		return dyns[0], nil
	}
	return nil, dyns
}

// phiTexts returns the constant texts a string φ may have, if every
// incoming value is one of known constants. An edge from a block a Go
// constant cuts off (deadblocks.go) brings nothing: `q := "SELECT …";
// if lock { q += " FOR UPDATE" }` with lock false was "SQL text is not
// a compile-time constant" (its concatenation, never translated, had no
// value), while lock true gave the two texts (adv18 m2-condsql).
func (t *translator) phiTexts(f *frame, p *ssa.Phi) []string {
	var out []string
	for k, e := range p.Edges {
		if f.dead[p.Block().Preds[k]] {
			continue
		}
		v, ok := t.peek(f, e)
		if !ok || v.texts() == nil {
			return nil
		}
		out = append(out, v.texts()...)
	}
	out = dedupeStrings(out)
	if len(out) == 0 || len(out) > maxAlts {
		return nil
	}
	return out
}
