package ir

import (
	"hash/fnv"
	"math/big"
)

// StringCode returns the integer that stands for the string s. Strings are
// modelled as uninterpreted integers: equal strings get equal codes and,
// up to hash collisions, different strings different ones.
//
// A string that is the canonical decimal text of an integer ("25", "-3",
// "0": no sign '+', no leading zero, no space) of at most 18 digits is
// coded as that integer, so that SQL's conversion of such a string to a
// number (MySQL and SQLite convert any string; Postgres an untyped literal
// or a text parameter bound to a numeric column) is its code, and
// strconv.Itoa(n) is n.
//
// Other strings get large negative codes (below -2^61, beyond every
// canonical integer). Strings of one shape — the same bytes except for
// 1 to 10 digits in the same places, as dates, times and zero-padded
// numbers in one format — are coded in the order of the strings
// ("2024-06-30" < "2024-07-01"), with room between consecutive ones for the
// strings that sort between them; strings of different shapes are ordered
// arbitrarily (by a hash of the shape).
func StringCode(s string) *IntConst {
	if n, ok := CanonicalInt(s); ok {
		return &IntConst{V: n}
	}
	if c, ok := shapedCode(s); ok {
		return &IntConst{V: c}
	}
	h := fnv.New64a()
	h.Write([]byte(s))
	v := int64(h.Sum64() >> 2)
	return &IntConst{V: big.NewInt(-(1 << 62) + v/2)}
}

// shapedCode is the order-preserving code of a string with 1 to 10
// digits: the shape (the string with every digit replaced by '#') picks a
// slot of width 1024·10^d below -2^61, the digits the place in it.
func shapedCode(s string) (*big.Int, bool) {
	shape := []byte(s)
	var digits int64
	d := 0
	for i := range shape {
		if '0' <= shape[i] && shape[i] <= '9' {
			if d == 10 {
				return nil, false
			}
			digits = digits*10 + int64(shape[i]-'0')
			shape[i] = '#'
			d++
		}
	}
	if d == 0 {
		return nil, false
	}
	width := int64(1024)
	for i := 0; i < d; i++ {
		width *= 10
	}
	h := fnv.New64a()
	h.Write(shape)
	slot := int64(h.Sum64()>>3) % ((1 << 61) / width)
	return big.NewInt(-(1 << 62) + slot*width + digits*1024 + 512), true
}

// CanonicalInt reports whether s is the canonical decimal text of an
// integer of at most 18 digits, and returns it.
func CanonicalInt(s string) (*big.Int, bool) {
	d := s
	if len(d) > 0 && d[0] == '-' {
		d = d[1:]
	}
	if !IsDigits(d) || len(d) > 18 || (d[0] == '0' && len(d) > 1) || s == "-0" {
		return nil, false
	}
	n, ok := new(big.Int).SetString(s, 10)
	return n, ok
}

// IsDigits reports a non-empty string of ASCII decimal digits only (no
// sign, no space).
func IsDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
