package report

import (
	"strings"
	"testing"
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
