package ir

import (
	"math/big"
	"testing"
)

// TestStringVariants: a variant code decodes to its base and form, its
// parts as terms evaluate to the same, and its text is what the engines
// take for the base ('STR1', 'str1 ', '07').
func TestStringVariants(t *testing.T) {
	tests := []struct {
		base       *big.Int
		q, k       int
		baseText   string
		decimal    bool
		wantText   string
		realisable bool
	}{
		{StringCode("alice").V, 1, 0, "alice", false, "ALICE", true},
		{StringCode("Bob").V, 1, 1, "Bob", false, "bOB ", true},
		{StringCode("bob").V, 0, 1, "bob", false, "bob ", true},
		{big.NewInt(7), 1, 0, "7", true, "07", true},
		{big.NewInt(-12), 1, 1, "-12", true, "-012 ", true},
		{StringCode("-").V, 1, 0, "-", false, "", false},
	}
	for _, tt := range tests {
		code := VariantCode(tt.base, tt.q, tt.k)
		b, q, k, ok := DecodeVariant(code)
		if !ok || b.Cmp(tt.base) != 0 || q != tt.q || k != tt.k {
			t.Errorf("DecodeVariant(VariantCode(%v, %d, %d)) = %v, %d, %d, %v", tt.base, tt.q, tt.k, b, q, k, ok)
		}
		p := SplitVariant(&IntConst{V: code})
		for _, c := range []struct {
			e    Expr
			want *big.Rat
		}{{p.Base, new(big.Rat).SetInt(tt.base)}, {p.Case, big.NewRat(int64(tt.q), 1)}, {p.Pads, big.NewRat(int64(tt.k), 1)}} {
			v, err := Eval(c.e, nil)
			if err != nil || v.R.Cmp(c.want) != 0 {
				t.Errorf("SplitVariant(%v): %v = %v (%v), want %v", code, c.e, v.R, err, c.want)
			}
		}
		text, ok := VariantText(tt.baseText, tt.decimal, tt.q, tt.k)
		if ok != tt.realisable || ok && text != tt.wantText {
			t.Errorf("VariantText(%q, %d, %d) = %q, %v; want %q, %v", tt.baseText, tt.q, tt.k, text, ok, tt.wantText, tt.realisable)
		}
	}
	// The form (0, 0) would spell its base: that code is a base of its own.
	if _, _, _, ok := DecodeVariant(VariantCode(big.NewInt(5), 0, 0)); ok {
		t.Error("the form (0, 0) decodes as a variant")
	}
	for _, s := range []string{"alice", "7", "2024-06-30", ""} {
		if IsVariantCode(StringCode(s).V) {
			t.Errorf("StringCode(%q) is a variant code", s)
		}
	}
}
