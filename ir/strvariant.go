package ir

import (
	"math/big"
	"strings"
)

// String variants. A database may take two different Go strings for one
// value: a case-insensitive collation ('alice' = 'ALICE'), a PAD SPACE one
// or CHAR(n) ('bob' = 'bob '), a string bound to a numeric column ('01' =
// 1). The codes of such strings are variants of a base code b (any code
// within ±2^64): code = j·2^100 + b for the form j = q + 2k, 1 ≤ j ≤ 3,
// with q the case form (every letter's case swapped; for a base that is a
// decimal integer, a leading zero) and k a trailing space. A variant is a
// Go string of its own (its code differs from every other), and equal to
// its base, or not, as the comparison says (dbmodel's collations). Codes
// of strings the program spells (StringCode) are never variants. The
// parts of a code are linear terms (no division: ite over the three
// ranges), cheap for the solver.

// VariantCases is the number of case forms of a base (q < VariantCases).
const VariantCases = 2

// VariantPads bounds the trailing spaces of a variant (k < VariantPads).
const VariantPads = 2

// variantBaseBits bounds the bases: |b| < 2^variantBaseBits.
const variantBaseBits = 64

// MaxDecimalCode bounds the codes of decimal integers' texts (StringCode:
// at most 18 digits).
const MaxDecimalCode = 999999999999999999

// variantOffset is the offset of form j (far beyond every StringCode and
// every int64).
func variantOffset(j int) *big.Int {
	return new(big.Int).Lsh(big.NewInt(int64(j)), 100)
}

// variantRange is the range [lo, hi) of the codes of form j.
func variantRange(j int) (lo, hi *big.Int) {
	span := new(big.Int).Lsh(big.NewInt(1), variantBaseBits)
	o := variantOffset(j)
	return new(big.Int).Sub(o, span), new(big.Int).Add(o, span)
}

// VariantCode returns the code of the variant (q, k) of base b, (q, k) ≠
// (0, 0).
func VariantCode(b *big.Int, q, k int) *big.Int {
	return new(big.Int).Add(variantOffset(q+VariantCases*k), b)
}

// DecodeVariant splits a variant code into its base, case form and
// trailing spaces; ok is false for a code that is no variant.
func DecodeVariant(c *big.Int) (b *big.Int, q, k int, ok bool) {
	for j := 1; j < VariantCases*VariantPads; j++ {
		lo, hi := variantRange(j)
		if c.Cmp(lo) >= 0 && c.Cmp(hi) < 0 {
			return new(big.Int).Sub(c, variantOffset(j)), j % VariantCases, j / VariantCases, true
		}
	}
	return nil, 0, 0, false
}

// IsVariantCode reports a code in the variants' ranges (smt's nice models
// leave those alone).
func IsVariantCode(c *big.Int) bool {
	_, _, _, ok := DecodeVariant(c)
	return ok
}

// VariantParts are the parts of a string code c as terms: whether it is a
// variant, its base (c itself if not), case form and trailing spaces (0 if
// not), and whether the base is the text of a decimal integer.
type VariantParts struct {
	IsVariant, Decimal Expr
	Base, Case, Pads   Expr
}

// SplitVariant returns the parts of string code c.
func SplitVariant(c Expr) VariantParts {
	var in [VariantCases * VariantPads]Expr
	base, q, k := c, Expr(IntLit(0)), Expr(IntLit(0))
	var any []Expr
	for j := VariantCases*VariantPads - 1; j >= 1; j-- {
		lo, hi := variantRange(j)
		in[j] = And(Cmp(OpGe, c, BigInt(lo)), Cmp(OpLt, c, BigInt(hi)))
		any = append(any, in[j])
		base = IteOf(in[j], Sub(c, BigInt(variantOffset(j))), base)
		if j%VariantCases != 0 {
			q = IteOf(in[j], IntLit(1), q)
		}
		if j/VariantCases != 0 {
			k = IteOf(in[j], IntLit(1), k)
		}
	}
	dec := And(Cmp(OpGe, base, IntLit(-MaxDecimalCode)), Cmp(OpLe, base, IntLit(MaxDecimalCode)))
	return VariantParts{IsVariant: Or(any...), Decimal: dec, Base: base, Case: q, Pads: k}
}

// VariantText is the text of the variant (q, k) of a base whose text is
// base (decimal: the text of an integer). ok is false when the base has
// no letter to change the case of.
func VariantText(base string, decimal bool, q, k int) (string, bool) {
	pad := strings.Repeat(" ", k)
	if decimal {
		zeros := strings.Repeat("0", q)
		if strings.HasPrefix(base, "-") {
			return "-" + zeros + base[1:] + pad, true
		}
		return zeros + base + pad, true
	}
	if q == 0 {
		return base + pad, true
	}
	out := []byte(base)
	letters := 0
	for i, c := range out {
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' {
			out[i] = c ^ 0x20
			letters++
		}
	}
	if letters == 0 {
		return "", false
	}
	return string(out) + pad, true
}

// LeadingZero returns, as small terms, whether code c is the leading-zero
// form of a decimal integer ("007" of 7: the variant (1, 0) of a decimal
// base), that integer, and whether c is below every variant.
func LeadingZero(c Expr) (form, number, belowVariants Expr) {
	lo, hi := variantRange(1)
	number = Sub(c, BigInt(variantOffset(1)))
	form = And(Cmp(OpGe, c, BigInt(lo)), Cmp(OpLt, c, BigInt(hi)),
		Cmp(OpGe, number, IntLit(-MaxDecimalCode)), Cmp(OpLe, number, IntLit(MaxDecimalCode)))
	return form, number, Cmp(OpLt, c, BigInt(lo))
}
