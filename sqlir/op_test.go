package sqlir

import "testing"

// Every operator has one SQL spelling and exactly one class; the zero value
// and values past the last operator are not operators.
func TestOps(t *testing.T) {
	tests := []struct {
		op                  Op
		text                string
		arith, cmp, logical bool
	}{
		{OpAdd, "+", true, false, false},
		{OpSub, "-", true, false, false},
		{OpMul, "*", true, false, false},
		{OpDiv, "/", true, false, false},
		{OpMod, "%", true, false, false},
		{OpDivInt, "DIV", true, false, false},
		{OpEq, "=", false, true, false},
		{OpNe, "<>", false, true, false},
		{OpLt, "<", false, true, false},
		{OpLe, "<=", false, true, false},
		{OpGt, ">", false, true, false},
		{OpGe, ">=", false, true, false},
		{OpAnd, "AND", false, false, true},
		{OpOr, "OR", false, false, true},
	}
	if len(tests) != int(numOps)-1 {
		t.Fatalf("%d operators tested, %d defined", len(tests), int(numOps)-1)
	}
	for _, tt := range tests {
		if got := tt.op.String(); got != tt.text {
			t.Errorf("Op(%d).String() = %q, want %q", int(tt.op), got, tt.text)
		}
		if !tt.op.Valid() || tt.op.IsArith() != tt.arith || tt.op.IsComparison() != tt.cmp || tt.op.IsLogical() != tt.logical {
			t.Errorf("%s: Valid %v IsArith %v IsComparison %v IsLogical %v", tt.op,
				tt.op.Valid(), tt.op.IsArith(), tt.op.IsComparison(), tt.op.IsLogical())
		}
	}
	for _, bad := range []Op{OpInvalid, numOps, -1} {
		if bad.Valid() || bad.IsArith() || bad.IsComparison() || bad.IsLogical() {
			t.Errorf("Op(%d) is classified as an operator", int(bad))
		}
	}
	if OpNot.String() != "NOT" || OpNeg.String() != "-" || UnaryInvalid.String() == "NOT" {
		t.Errorf("unary spellings: %s %s %s", OpNot, OpNeg, UnaryInvalid)
	}
}
