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
		{"required", x, types.Typ[types.String], []string{`!= ""`}},
		{"", x, i64, nil},
	}
	for _, tt := range tests {
		var got []string
		bs, _ := tagBounds(tt.tag, tt.v, tt.typ)
		for _, b := range bs {
			got = append(got, b.text)
		}
		if strings.Join(got, ";") != strings.Join(tt.want, ";") {
			t.Errorf("tagBounds(%q, %s) = %v, want %v", tt.tag, tt.typ, got, tt.want)
		}
	}
	// Rules not read are returned, so the call's nil path approximates
	// the value (validationOutcome) instead of dropping them.
	unread := []struct {
		tag  string
		typ  types.Type
		want string
	}{
		{"required,gt=0", i64, ""},
		{"gt=0|eq=-1", i64, "gt=0|eq=-1"},
		{"required,gtfield=Min", i64, "gtfield=Min"},
		{"dive,gt=0", i64, "dive,gt=0"},
		{"omitempty,required,min=3", types.Typ[types.String], "min=3"},
		{"required", types.Typ[types.String], ""},
	}
	for _, tt := range unread {
		_, got := tagBounds(tt.tag, x, tt.typ)
		if strings.Join(got, ";") != tt.want {
			t.Errorf("tagBounds(%q, %s) leaves %q unread, want %q", tt.tag, tt.typ, got, tt.want)
		}
	}
	// The bound is on the field's value.
	bs, _ := tagBounds("gt=0", x, i64)
	if len(bs) != 1 || bs[0].expr.String() != "x > 0" {
		t.Errorf("tagBounds(gt=0) = %v, want x > 0", bs)
	}
}
