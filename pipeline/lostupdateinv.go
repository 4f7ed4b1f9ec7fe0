package pipeline

import (
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/spec"
	"github.com/dbverify/dbverify/sqlir"
)

// A lost-update warning's example starts from a row both requests read.
// Any row did: counter's TakeRMW was shown from `n = -2` on a run that
// gave the constraint downloads.n >= 0 (an independent tester, adv18),
// a row the constraint says the database never holds. The example now
// prefers a row that keeps the run's row constraints over the read's
// table (rowInvariant); a finding possible only from another row is
// still reported (the code loses the update all the same).

// rowInvariant is the conjunction of the run's row constraints over
// table that the row's read columns vals (lower-case column → value)
// can state, true if none.
func rowInvariant(checks []*spec.RowCheck, table string, vals map[string]*ir.Var) ir.Expr {
	var out []ir.Expr
	for _, c := range checks {
		if !strings.EqualFold(c.Table, table) {
			continue
		}
		if e, ok := sqlToIR(c.Expr, vals); ok && e.Sort() == ir.Bool {
			out = append(out, e)
		}
	}
	return ir.And(out...)
}

// sqlToIR is the condition or value e over the columns vals: false when
// it names another column or a form it does not translate. A column read
// into a Go integer is not NULL (the Scan succeeded), so IS NULL is false.
func sqlToIR(e sqlir.Expr, vals map[string]*ir.Var) (ir.Expr, bool) {
	switch e := e.(type) {
	case *sqlir.ColRef:
		v, ok := vals[strings.ToLower(e.Name)]
		if !ok || v.Type != ir.Int {
			return nil, false
		}
		return v, true
	case *sqlir.Num:
		if !e.IsInt {
			return nil, false
		}
		return ir.BigInt(e.Val.Num()), true
	case *sqlir.BoolLit:
		return ir.BoolConst(e.Val), true
	case *sqlir.IsNull:
		if _, ok := sqlToIR(e.X, vals); !ok {
			return nil, false
		}
		return ir.BoolConst(e.Not), true
	case *sqlir.Unary:
		x, ok := sqlToIR(e.X, vals)
		switch {
		case !ok:
			return nil, false
		case e.Op == sqlir.OpNot && x.Sort() == ir.Bool:
			return ir.Not(x), true
		case e.Op == sqlir.OpNeg && x.Sort() == ir.Int:
			return ir.Neg(x), true
		}
	case *sqlir.Binary:
		return binaryToIR(e, vals)
	}
	return nil, false
}

// sqlCompare maps SQL's comparisons to the IR's.
var sqlCompare = map[sqlir.Op]ir.Op{sqlir.OpEq: ir.OpEq, sqlir.OpNe: ir.OpNe, sqlir.OpLt: ir.OpLt, sqlir.OpLe: ir.OpLe, sqlir.OpGt: ir.OpGt, sqlir.OpGe: ir.OpGe}

// binaryToIR is sqlToIR of a binary expression: + - * over integers,
// comparisons, AND and OR.
func binaryToIR(e *sqlir.Binary, vals map[string]*ir.Var) (ir.Expr, bool) {
	x, okX := sqlToIR(e.X, vals)
	y, okY := sqlToIR(e.Y, vals)
	if !okX || !okY {
		return nil, false
	}
	ints := x.Sort() == ir.Int && y.Sort() == ir.Int
	bools := x.Sort() == ir.Bool && y.Sort() == ir.Bool
	switch {
	case ints && e.Op == sqlir.OpAdd:
		return ir.Add(x, y), true
	case ints && e.Op == sqlir.OpSub:
		return ir.Sub(x, y), true
	case ints && e.Op == sqlir.OpMul:
		return ir.Arith(ir.OpMul, x, y), true
	case ints && e.Op.IsComparison():
		return ir.Cmp(sqlCompare[e.Op], x, y), true
	case bools && e.Op == sqlir.OpAnd:
		return ir.And(x, y), true
	case bools && e.Op == sqlir.OpOr:
		return ir.Or(x, y), true
	}
	return nil, false
}

// rowChecks are the distinct row constraints the jobs check.
func rowChecks(jobs []job) []*spec.RowCheck {
	var out []*spec.RowCheck
	seen := map[*spec.RowCheck]bool{}
	for _, j := range jobs {
		if c, ok := j.c.(*spec.RowCheck); ok && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}
