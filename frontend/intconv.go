package frontend

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// Integer widths: unsigned subtraction and conversions that can wrap
// around are modelled exactly (signed +, -, * are assumed not to
// overflow: noteOverflow).

// unsignedWidth returns the width in bits of an unsigned integer type, 0
// for any other type.
func unsignedWidth(typ types.Type) int {
	b, ok := typ.Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsUnsigned == 0 {
		return 0
	}
	return int(types.SizesFor("gc", "amd64").Sizeof(b)) * 8
}

// wrapConversion returns the exact value of an integer conversion that
// can wrap around (int32(n) of an int64 n, int64(u) of a uint64 u,
// uint32(n) of an int n): x reduced modulo 2^w into the target type's
// range, w its width. false for a conversion that cannot wrap (a
// widening, or a constant operand, checked by the compiler).
func wrapConversion(i *ssa.Convert, x ir.Expr) (ir.Expr, bool) {
	from, ok1 := i.X.Type().Underlying().(*types.Basic)
	to, ok2 := i.Type().Underlying().(*types.Basic)
	if !ok1 || !ok2 || from.Info()&types.IsInteger == 0 || to.Info()&types.IsInteger == 0 {
		return nil, false
	}
	if _, isConst := i.X.(*ssa.Const); isConst {
		return nil, false
	}
	sizes := types.SizesFor("gc", "amd64")
	fromUnsigned, toUnsigned := from.Info()&types.IsUnsigned != 0, to.Info()&types.IsUnsigned != 0
	fw, tw := sizes.Sizeof(from)*8, sizes.Sizeof(to)*8
	switch {
	case tw > fw && (toUnsigned == fromUnsigned || !toUnsigned):
		return nil, false // widening into a type that holds every value
	case tw == fw && toUnsigned == fromUnsigned:
		return nil, false
	}
	r, _ := rangeOf(i.Type())
	return wrapInto(r, x), true
}
