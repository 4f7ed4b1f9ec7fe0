package ir

import (
	"math/big"
	"testing"
)

func TestStringCode(t *testing.T) {
	less := func(a, b string) bool { return StringCode(a).V.Cmp(StringCode(b).V) < 0 }
	// Canonical integers are themselves.
	for _, s := range []string{"0", "25", "-3", "123456789012345678"} {
		n, _ := new(big.Int).SetString(s, 10)
		if StringCode(s).V.Cmp(n) != 0 {
			t.Errorf("StringCode(%q) = %v, want %v", s, StringCode(s).V, n)
		}
	}
	// Other strings are below -2^61, and distinct.
	limit := new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), 61))
	seen := map[string]string{}
	for _, s := range []string{"007", "+5", " 5", "5.0", "-0", "abc", "ABC", "2024-07-01", "2024-06-30", "2024-7-1", "01234567890123", ""} {
		c := StringCode(s).V
		if c.Cmp(limit) >= 0 {
			t.Errorf("StringCode(%q) = %v, not below -2^61", s, c)
		}
		if o, dup := seen[c.String()]; dup {
			t.Errorf("StringCode(%q) = StringCode(%q)", s, o)
		}
		seen[c.String()] = s
	}
	// Strings of one shape are coded in their order, with room between.
	ordered := [][2]string{{"2024-06-30", "2024-07-01"}, {"2023-12-31", "2024-01-01"}, {"09:59", "10:00"}, {"A-0099", "A-0100"}}
	for _, p := range ordered {
		if !less(p[0], p[1]) || less(p[1], p[0]) {
			t.Errorf("StringCode(%q) < StringCode(%q) is false", p[0], p[1])
		}
		gap := new(big.Int).Sub(StringCode(p[1]).V, StringCode(p[0]).V)
		if gap.Cmp(big.NewInt(1)) <= 0 {
			t.Errorf("no room between %q and %q", p[0], p[1])
		}
	}
}
