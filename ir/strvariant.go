package ir

import (
	"math/big"
	"strings"
)

// String variants. A database may take two different Go strings for one
// value: a case-insensitive collation ('alice' = 'ALICE'), a PAD SPACE one
// or CHAR(n) ('bob' = 'bob '), a string bound to a numeric column ('01' =
// 1). The codes of such strings are variants of a base code b (any other
// code): code = VariantLow + (b + 2^64)·VariantSpan + k·VariantCases + q,
// with q < VariantCases the case form (the case of the base's first
// letters flipped as the bits of q say; for a base that is a decimal
// integer, q leading zeros) and k < VariantPads the number of trailing
// spaces, (q, k) ≠ (0, 0). A variant is a Go string of its own (its code differs from every
// other), and equal to its base, or not, as the comparison says
// (dbmodel's collations). Codes of strings the program spells (StringCode)
// are never variants.

// VariantCases is the number of case forms of a base (q < VariantCases:
// the case of the base's first three letters).
const VariantCases = 8

// VariantPads bounds the trailing spaces of a variant (k < VariantPads).
const VariantPads = 4

// VariantSpan is the number of variants of one base.
const VariantSpan = VariantCases * VariantPads

// variantBaseBits bounds the bases: |b| < 2^variantBaseBits.
const variantBaseBits = 64

// MaxDecimalCode bounds the codes of decimal integers' texts (StringCode:
// at most 18 digits).
const MaxDecimalCode = 999999999999999999

// variantLow is the first variant code (far beyond every StringCode and
// every int64).
func variantLow() *big.Int { return new(big.Int).Lsh(big.NewInt(1), 100) }

// variantOff shifts the bases to non-negative numbers.
func variantOff() *big.Int { return new(big.Int).Lsh(big.NewInt(1), variantBaseBits) }

// variantHigh is the first code after the variants.
func variantHigh() *big.Int {
	n := new(big.Int).Lsh(big.NewInt(1), variantBaseBits+1)
	return n.Add(variantLow(), n.Mul(n, big.NewInt(VariantSpan)))
}

// VariantCode returns the code of the variant (q, k) of base b.
func VariantCode(b *big.Int, q, k int) *big.Int {
	n := new(big.Int).Add(b, variantOff())
	n.Mul(n, big.NewInt(VariantSpan))
	n.Add(n, big.NewInt(int64(k*VariantCases+q)))
	return n.Add(n, variantLow())
}

// DecodeVariant splits a variant code into its base, case form and
// trailing spaces; ok is false for a code that is no variant.
func DecodeVariant(c *big.Int) (b *big.Int, q, k int, ok bool) {
	if c.Cmp(variantLow()) < 0 || c.Cmp(variantHigh()) >= 0 {
		return nil, 0, 0, false
	}
	d := new(big.Int).Sub(c, variantLow())
	r := new(big.Int)
	d.QuoRem(d, big.NewInt(VariantSpan), r)
	d.Sub(d, variantOff())
	n := int(r.Int64())
	if n == 0 {
		return nil, 0, 0, false // the form (0, 0): a base of its own
	}
	return d, n % VariantCases, n / VariantCases, true
}

// IsVariantCode reports a code in the variants' range (smt's nice models
// leave those alone).
func IsVariantCode(c *big.Int) bool {
	return c.Cmp(variantLow()) >= 0 && c.Cmp(variantHigh()) < 0
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
	d := Sub(c, BigInt(variantLow()))
	span := IntLit(VariantSpan)
	r := Arith(OpMod, d, span)
	// (The form (0, 0) would spell its base: that code is a base.)
	in := And(Cmp(OpGe, c, BigInt(variantLow())), Cmp(OpLt, c, BigInt(variantHigh())), Cmp(OpNe, r, IntLit(0)))
	base := IteOf(in, Sub(Arith(OpDiv, d, span), BigInt(variantOff())), c)
	q := IteOf(in, Arith(OpMod, r, IntLit(VariantCases)), IntLit(0))
	k := IteOf(in, Arith(OpDiv, r, IntLit(VariantCases)), IntLit(0))
	dec := And(Cmp(OpGe, base, IntLit(-MaxDecimalCode)), Cmp(OpLe, base, IntLit(MaxDecimalCode)))
	return VariantParts{IsVariant: in, Decimal: dec, Base: base, Case: q, Pads: k}
}

// VariantText is the text of the variant (q, k) of a base whose text is
// base (decimal: the text of an integer). ok is false when the base has
// too few letters for case form q.
func VariantText(base string, decimal bool, q, k int) (string, bool) {
	pad := strings.Repeat(" ", k)
	if decimal {
		zeros := strings.Repeat("0", q)
		if strings.HasPrefix(base, "-") {
			return "-" + zeros + base[1:] + pad, true
		}
		return zeros + base + pad, true
	}
	out := []byte(base)
	bit := 0
	for i := 0; i < len(out) && bit < 3; i++ {
		c := out[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			continue
		}
		if q&(1<<bit) != 0 {
			out[i] = c ^ 0x20
		}
		bit++
	}
	if q>>bit != 0 {
		return "", false
	}
	return string(out) + pad, true
}
