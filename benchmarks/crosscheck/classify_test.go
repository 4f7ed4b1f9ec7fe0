package crosscheck

import (
	"reflect"
	"testing"

	"github.com/dbverify/dbverify/witness"
)

func TestRandomDraws(t *testing.T) {
	cex := &witness.Counterexample{Steps: []witness.CexStep{
		{Position: "bonus.go:23", Kind: "call", Text: "draw := rand.Int63n(100)"},
		{Position: "bonus.go:24", Kind: "branch", Text: "if !eligible(draw) {"},
		{Position: "bonus.go:30", Kind: "call", Text: "n := strand.Count(s)"},
		{Position: "bonus.go:31", Kind: "call", Text: "i := rand.N(10)"},
	}}
	want := []string{"bonus.go:23: draw := rand.Int63n(100)", "bonus.go:31: i := rand.N(10)"}
	if got := randomDraws(cex); !reflect.DeepEqual(got, want) {
		t.Errorf("randomDraws = %q, want %q", got, want)
	}
}
