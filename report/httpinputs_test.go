package report

import (
	"strings"
	"testing"

	"github.com/dbverify/dbverify/ir"
)

// TestHTTPInputString: each kind of request value reads as a client
// sends it, with the parse's outcome; the text report lists them before
// the inputs they do not stand for, and prints an error value as nil or
// non-nil.
func TestHTTPInputString(t *testing.T) {
	for _, tt := range []struct {
		in   HTTPInput
		want string
	}{
		{HTTPInput{Kind: "path", Name: "id", Raw: `"7"`, Parse: "strconv.ParseInt", Parsed: "7"}, `path parameter "id" = "7" (strconv.ParseInt → 7)`},
		{HTTPInput{Kind: "query", Name: "amount", Raw: `"-5"`}, `query parameter "amount" = "-5"`},
		{HTTPInput{Kind: "form", Name: "amount", Raw: `"x"`, Parse: "strconv.Atoi", ParseFailed: true}, `form field "amount" = "x" (strconv.Atoi fails)`},
		{HTTPInput{Kind: "header", Name: "X-Amount", Parse: "strconv.ParseInt", Parsed: "3"}, `header "X-Amount" read by strconv.ParseInt as 3`},
		{HTTPInput{Kind: "body", Name: "amount", Raw: "-1", Vars: []string{"body.Amount"}}, `JSON body field "amount" = -1 (body.Amount)`},
	} {
		if got := tt.in.String(); got != tt.want {
			t.Errorf("%+v: %s, want %s", tt.in, got, tt.want)
		}
	}
	c := &Counterexample{
		Inputs: Inputs{{Name: `PathValue(_, "id")`, Value: `"7"`}, {Name: "n", Value: "2"}, {Name: "err", Value: "false"}},
		HTTP:   []HTTPInput{{Kind: "path", Name: "id", Raw: `"7"`, Vars: []string{`PathValue(_, "id")`}}},
		Errors: []string{"err"},
	}
	got := c.ShownInputs()
	if want := []string{`path parameter "id" = "7"`, "n = 2", "err = nil"}; len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("shown inputs %q, want %q", got, want)
	}
	if got := c.StepValues(map[string]string{"err": "true", "n": "1"}); got != "err = non-nil, n = 1" {
		t.Errorf("step values %s", got)
	}
}

// TestShownInputsPointerNil: a pointer argument's nil-ness ("p != nil",
// which replay reads) prints as p = nil, and not at all beside the
// value a non-nil pointer points to.
func TestShownInputsPointerNil(t *testing.T) {
	for _, tt := range []struct {
		in   Inputs
		want string
	}{
		{Inputs{{Name: "id", Value: "1"}, {Name: "floor", Value: "0"}, {Name: "floor != nil", Value: "false"}}, "id = 1, floor = nil"},
		{Inputs{{Name: "limit", Value: "-1"}, {Name: "limit != nil", Value: "true"}}, "limit = -1"},
		{Inputs{{Name: "limit != nil", Value: "false"}}, "limit = nil"},
	} {
		c := &Counterexample{Inputs: tt.in}
		if got := strings.Join(c.ShownInputs(), ", "); got != tt.want {
			t.Errorf("%v: %s, want %s", tt.in, got, tt.want)
		}
	}
}

// TestRequestInputs: the inputs of an order-dependence finding's
// requests read as the requests send them: a path parameter's text and
// what its parse gives (or that it fails), one entry per parameter, not
// the model's names of the calls (Atoi(PathValue(_, "q")).0 = 5,
// Atoi(PathValue(_, "q")).1 = false, PathValue(_, "q") = 5: adv16
// progs/quota); other inputs by name, without version suffixes.
func TestRequestInputs(t *testing.T) {
	text := &ir.Var{Name: `PathValue(_, "q")#1`, Type: ir.Int, HTTP: &ir.HTTPSource{Kind: ir.HTTPPath, Name: "q"}}
	parsed := &ir.Var{Name: `Atoi(PathValue(_, "q")).0#1`, Type: ir.Int, HTTP: &ir.HTTPSource{Kind: ir.HTTPPath, Name: "q", Parse: "strconv.Atoi", Raw: text}}
	failed := &ir.Var{Name: `Atoi(PathValue(_, "q")).1#1`, Type: ir.Bool, HTTP: &ir.HTTPSource{Kind: ir.HTTPPath, Name: "q", Parse: "strconv.Atoi", Raw: text, Result: 1}}
	word := &ir.Var{Name: `PathValue(_, "kind")#1`, Type: ir.Int, HTTP: &ir.HTTPSource{Kind: ir.HTTPPath, Name: "kind"}}
	id := &ir.Var{Name: "id#3", Type: ir.Int}
	for _, tt := range []struct {
		values map[*ir.Var]string
		want   string
	}{
		{map[*ir.Var]string{parsed: "5", failed: "false", text: "5", id: "2"}, `path parameter "q" = "5" (strconv.Atoi → 5), id = 2`},
		{map[*ir.Var]string{parsed: "0", failed: "true", text: `"abc"`}, `path parameter "q" = "abc" (strconv.Atoi fails)`},
		{map[*ir.Var]string{word: "-4611686018427387000"}, `path parameter "kind" = a text no literal of the program spells`},
	} {
		var vars []*ir.Var
		for _, v := range []*ir.Var{parsed, failed, text, word, id} {
			if _, ok := tt.values[v]; ok {
				vars = append(vars, v)
			}
		}
		got := strings.Join(RequestInputs(vars, func(v *ir.Var) string { return tt.values[v] }), ", ")
		if got != tt.want {
			t.Errorf("%s, want %s", got, tt.want)
		}
	}
}
