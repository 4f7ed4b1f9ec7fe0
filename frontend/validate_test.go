package frontend

import (
	"go/types"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/ir"
)

// TestTagBounds checks which validator rules become bounds on a field.
func TestTagBounds(t *testing.T) {
	p := ir.NewProgram("t")
	x := p.NewVar("x", ir.Int, ir.Local)
	f := p.NewVar("f", ir.Real, ir.Local)
	i64 := types.Typ[types.Int64]
	tests := []struct {
		tag  string
		v    *ir.Var
		typ  types.Type
		want []string // the bounds' texts
	}{
		{"required,gt=0", x, i64, []string{"!= 0", "> 0"}},
		{"gte=20,lte=500", x, i64, []string{">= 20", "<= 500"}},
		{"min=1,max=10", x, i64, []string{">= 1", "<= 10"}},
		{"omitempty,gt=0", x, i64, []string{"> 0 (when set)"}},
		{"oneof=1 2 3", x, i64, []string{"in (1, 2, 3)"}},
		{"gt=0|eq=-1", x, i64, nil},  // alternatives: not read
		{"gtfield=Min", x, i64, nil}, // cross-field: not read
		{"dive,gt=0", x, i64, nil},   // element rules
		{"gt=0.5", x, i64, nil},      // not an integer bound
		{"gt=0.5", f, types.Typ[types.Float64], []string{"> 0.5"}},
		{"min=3", x, types.Typ[types.String], nil}, // a length
		{"", x, i64, nil},
	}
	for _, tt := range tests {
		var got []string
		for _, b := range tagBounds(tt.tag, tt.v, tt.typ) {
			got = append(got, b.text)
		}
		if strings.Join(got, ";") != strings.Join(tt.want, ";") {
			t.Errorf("tagBounds(%q, %s) = %v, want %v", tt.tag, tt.typ, got, tt.want)
		}
	}
	// The bound is on the field's value.
	bs := tagBounds("gt=0", x, i64)
	if len(bs) != 1 || bs[0].expr.String() != "x > 0" {
		t.Errorf("tagBounds(gt=0) = %v, want x > 0", bs)
	}
}
