package report

import (
	"slices"
	"testing"

	"github.com/dbverify/dbverify/ir"
)

// TestStringNames: a string value prints as the literal it is, as the
// decimal text its code is, or as a symbolic name (equal codes, equal
// names), explained once.
func TestStringNames(t *testing.T) {
	usd := ir.StringCode("USD").V.String()
	other, another := ir.StringCode("zz-unknown").V.String(), ir.StringCode("yy-unknown").V.String()
	s := newStringNames(map[string]string{usd: "USD"})
	tests := []struct{ code, want string }{
		{usd, `"USD"`},
		{"445", `"445"`},
		{"-3", `"-3"`},
		{other, "str1"},
		{another, "str2"},
		{other, "str1"},
	}
	for _, tt := range tests {
		if got := s.name(tt.code); got != tt.want {
			t.Errorf("name(%s) = %s, want %s", tt.code, got, tt.want)
		}
	}
	if got := s.notes(); !slices.Equal(got, []string{"str1, str2 are distinct strings no literal of the program spells (any such strings)"}) {
		t.Errorf("notes %q", got)
	}
	if got := newStringNames(nil).notes(); got != nil {
		t.Errorf("notes without symbolic names: %q", got)
	}
}
