package frontend

import (
	"math"
	"math/big"

	"github.com/dbverify/dbverify/ir"
)

// canonicalCodeBound bounds the codes of the strings that are the
// canonical decimal text of an integer (ir.StringCode: at most 18 digits,
// coded as the integer); every other string is coded below -2^61.
var canonicalCodeBound = big.NewInt(-(1 << 61))

// parsedInt states what strconv.Atoi or ParseInt(s, 10, 64) return for the
// text whose code is code: n and failed ("the error is non-nil"), as Go
// does —
//
//   - the canonical text of an integer always parses, to that integer;
//   - a text that parses is, by the stated assumption, written canonically:
//     n is its code;
//   - on an error n is 0 (a syntax error) or, for a number out of range,
//     math.MaxInt64 or math.MinInt64 (a range error).
func (t *translator) parsedInt(name string, code, n, failed ir.Expr) {
	canonical := ir.Cmp(ir.OpGe, code, &ir.IntConst{V: canonicalCodeBound})
	onError := ir.Or(
		ir.Cmp(ir.OpEq, n, ir.IntLit(0)),
		ir.Cmp(ir.OpEq, n, ir.IntLit(math.MaxInt64)),
		ir.Cmp(ir.OpEq, n, ir.IntLit(math.MinInt64)),
	)
	t.emit(&ir.Assume{Cond: ir.And(
		ir.Implies(canonical, ir.Not(failed)),
		ir.Implies(ir.Not(failed), ir.Cmp(ir.OpEq, n, code)),
		ir.Implies(failed, onError),
	), Info: t.info(ir.KindModel, "")})
	t.p.Assume("a string strconv." + name + " accepts is written canonically (no sign '+', no leading zeros): its value is its text")
}
