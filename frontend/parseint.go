package frontend

import (
	"fmt"
	"math/big"
	"strconv"

	"github.com/dbverify/dbverify/ir"
)

// canonicalCodeBound bounds the codes of the strings that are the
// canonical decimal text of an integer (ir.StringCode: at most 18 digits,
// coded as the integer); every other string is coded below -2^61.
var canonicalCodeBound = big.NewInt(-(1 << 61))

// parsedInt states what strconv.Atoi, ParseInt or ParseUint(s, 10, bits) return for the
// text whose code is code: n and failed ("the error is non-nil"), as Go
// does —
//
//   - the canonical text of an integer always parses, to that integer;
//   - on an error n is 0 (a syntax error) or, for a number out of range,
//     the largest or smallest integer of bits bits (a range error), and
//     a canonical text of a number outside that range fails;
//   - a text not written canonically ("05", "+5", "abc") fails or parses
//     to a number the model does not relate to its text: a path of its
//     own, marked as an approximation (nonCanonicalParse).
//
// (The canonical case was assumed of every text that parses, "a string
// strconv.Atoi accepts is written canonically": false of HTTP input, and
// with it a check by strconv.Itoa(n) and an update by the raw text —
// rows '5' and '05' — would be SAFE; adv19 itoa-atoi.)
func (t *translator) parsedInt(name string, args []value, n, failed ir.Expr) {
	code := args[0].expr
	bits := parseBits(args)
	lo, hi := parseRange(name, bits)
	// A string variant (ir's: two Go strings one SQL value) of a decimal
	// integer with leading zeros and no trailing space ("007") parses to
	// that integer; another variant is no canonical text.
	zeros, number, plain := ir.LeadingZero(code)
	canonical := ir.Or(ir.And(ir.Cmp(ir.OpGe, code, &ir.IntConst{V: canonicalCodeBound}), plain), zeros)
	code = ir.IteOf(zeros, number, code)
	inRange := ir.And(ir.Cmp(ir.OpGe, code, ir.BigInt(lo)), ir.Cmp(ir.OpLe, code, ir.BigInt(hi)))
	if bits < 64 || name == "ParseUint" {
		// (ParseUint refuses a sign: the text of a negative number fails.)
		canonical = ir.And(canonical, inRange)
	}
	onError := ir.Or(
		ir.Cmp(ir.OpEq, n, ir.IntLit(0)),
		ir.Cmp(ir.OpEq, n, ir.BigInt(hi)),
		ir.Cmp(ir.OpEq, n, ir.BigInt(lo)),
	)
	// A text that parses is canonical (the stated assumption, made
	// explicit: without it a string variant or another code could parse
	// to itself, beyond int64, and a counterexample print
	// ParseInt(…).0 = "STR1", which no run can give) and its value is in
	// the type's range.
	ok := ir.And(ir.Cmp(ir.OpEq, n, code), inRange, canonical)
	from, join := t.cur, t.p.NewLoc()
	t.emit(&ir.Assume{Cond: ir.And(
		ir.Implies(canonical, ir.Not(failed)),
		ir.Implies(ir.Not(failed), ok),
		ir.Implies(failed, onError),
	), Info: t.info(ir.KindModel, "")})
	t.edge(join, &ir.Assume{Cond: ir.True, Info: t.info(ir.KindModel, "")})
	t.cur = from
	t.nonCanonicalParse(name, ir.Not(canonical), n, failed, inRange, onError)
	t.edge(join, &ir.Assume{Cond: ir.True, Info: t.info(ir.KindModel, "")})
	t.cur = join
}

// nonCanonicalParse emits the path of a parse of a text not written
// canonically (notCanonical): the parse fails (onError) or gives a
// number in range the model does not relate to the text. The path reads
// a variable marked as an approximation, so a counterexample taking it is
// UNKNOWN (the search looks for another), while a proof covers it.
func (t *translator) nonCanonicalParse(name string, notCanonical, n, failed, inRange, onError ir.Expr) {
	taken := t.p.NewVar("strconv."+name+" of a text not written canonically", ir.Bool, ir.Local)
	taken.Approx = fmt.Sprintf("strconv.%s at %s of a text not written canonically (\"05\", \"+5\"): whether it parses, and to which number, is not modelled", name, t.posString(t.pos))
	t.emit(&ir.Havoc{Vars: []*ir.Var{taken}, Info: t.info(ir.KindCall, "")})
	t.emit(&ir.Assume{Cond: ir.And(taken, notCanonical,
		ir.Implies(ir.Not(failed), inRange),
		ir.Implies(failed, onError),
	), Info: t.info(ir.KindModel, "")})
}

// parseBits returns the bit size of the result of strconv.Atoi, ParseInt
// or ParseUint called with args (0, the int size, is 64).
func parseBits(args []value) uint {
	if len(args) == 3 {
		if b, ok := args[2].expr.(*ir.IntConst); ok && b.V.IsInt64() && b.V.Int64() > 0 {
			return uint(b.V.Int64())
		}
	}
	return 64
}

// parseRange returns the smallest and largest result of name (Atoi,
// ParseInt or ParseUint) of bits bits.
func parseRange(name string, bits uint) (lo, hi *big.Int) {
	if name == "ParseUint" {
		return new(big.Int), new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), bits), big.NewInt(1))
	}
	lo = new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), bits-1))
	hi = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), bits-1), big.NewInt(1))
	return lo, hi
}

// parsedText returns what name (Atoi, ParseInt or ParseUint) returns for
// the known text s: the number, and whether the error is non-nil.
func parsedText(name, s string, args []value) value {
	bits := int(parseBits(args))
	n := new(big.Int)
	var err error
	if name == "ParseUint" {
		var u uint64
		u, err = strconv.ParseUint(s, 10, bits)
		n.SetUint64(u)
	} else {
		var i int64
		i, err = strconv.ParseInt(s, 10, bits)
		n.SetInt64(i)
	}
	return value{tuple: []value{{expr: ir.BigInt(n)}, {expr: ir.BoolConst(err != nil)}}}
}
