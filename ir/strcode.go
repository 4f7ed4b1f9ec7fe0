package ir

import (
	"hash/fnv"
	"math/big"
)

// StringCode returns the integer that stands for the string s. Strings are
// modelled as uninterpreted integers: equal strings get equal codes and,
// up to 62-bit hash collisions, different strings different ones. The codes
// are large negative numbers so that they rarely meet the small integers
// of a counterexample.
func StringCode(s string) *IntConst {
	h := fnv.New64a()
	h.Write([]byte(s))
	v := int64(h.Sum64() >> 2)
	return &IntConst{V: big.NewInt(-(1 << 62) + v/2)}
}
