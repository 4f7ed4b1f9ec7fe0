package pipeline

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestTraceNames: a counterexample names every value by the Go expression
// it came from — a field behind a pointer a decoder filled
// (in.Simple.Stock), a field of a value taken from the request's context
// (u.ProductID) — never by an SSA register (t13); it leaves out the
// internals of time.Time and sync.Mutex; it never prints a struct as a
// number; it prints string columns and variables as strings ("USD"), and
// so do the SARIF and GitHub messages.
func TestTraceNames(t *testing.T) {
	src := testdataDir(t, "src")
	rep, err := runShared(context.Background(), Config{Dir: src, Patterns: []string{"./names"}, Constraints: []string{"products.stock >= 0"},
		Schema: testdataDir(t, "names.sql"), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		inputs []string
		check  func(c *report.Counterexample) string
	}{
		"Create": {[]string{"in.Simple.Stock"}, func(c *report.Counterexample) string {
			if c.Violation.Values["currency"] != `"USD"` {
				return "violation currency " + c.Violation.Values["currency"] + `, want "USD" (the SQL's literal)`
			}
			return ""
		}},
		"Spend": {[]string{"amount", "u.ProductID"}, nil},
		"Take": {[]string{"id", "qty", "currency"}, func(c *report.Counterexample) string {
			in := c.Inputs.Map()["currency"]
			if !isStringValue(in) || c.Rows[0].Values["currency"] != in {
				return "input currency " + in + ", row currency " + c.Rows[0].Values["currency"] + ": want the same string"
			}
			return ""
		}},
	}
	if len(rep.Results) != len(tests) {
		t.Fatalf("%d results, want %d", len(rep.Results), len(tests))
	}
	for _, r := range rep.Results {
		name := strings.TrimPrefix(r.Entry, "example.com/pl/names.")
		tt, ok := tests[name]
		c := r.Counterexample
		if !ok || r.Verdict != report.Unsafe || c == nil {
			t.Errorf("%s: %s (%s), want UNSAFE with a counterexample", name, r.Verdict, r.Reason)
			continue
		}
		var got []string
		for _, in := range c.Inputs {
			got = append(got, in.Name)
		}
		if !slices.Equal(got, tt.inputs) {
			t.Errorf("%s: inputs %v, want %v", name, got, tt.inputs)
		}
		if tt.check != nil {
			if msg := tt.check(c); msg != "" {
				t.Errorf("%s: %s", name, msg)
			}
		}
		for _, bad := range traceNameProblems(c) {
			t.Errorf("%s: %s", name, bad)
		}
	}
	var gh, sarif strings.Builder
	if err := report.WriteGitHub(&gh, rep, report.Options{}); err != nil {
		t.Fatal(err)
	}
	if err := report.WriteSARIF(&sarif, rep, report.Options{}); err != nil {
		t.Fatal(err)
	}
	for what, out := range map[string]string{"github": gh.String(), "sarif": sarif.String()} {
		if !strings.Contains(out, "in.Simple.Stock = -1") || ssaName.MatchString(out) {
			t.Errorf("%s output lacks in.Simple.Stock = -1 or names an SSA value:\n%s", what, out)
		}
	}
}

var ssaName = regexp.MustCompile(`(^|[ .(])t[0-9]+ =`)

// traceNameProblems lists the names and values of c a user should not
// see: SSA registers, runtime internals, structs as numbers, strings as
// bare numbers.
func traceNameProblems(c *report.Counterexample) []string {
	var out []string
	see := func(where, name, value string) {
		base := name[strings.LastIndexByte(name, '.')+1:]
		switch {
		case regexp.MustCompile(`^t[0-9]+$`).MatchString(base):
			out = append(out, where+": SSA register "+name)
		case slices.Contains([]string{"wall", "ext", "loc", "sema", "state"}, base):
			out = append(out, where+": runtime internal "+name)
		case slices.Contains([]string{"p", "load.p", "load.ret0", "in"}, name):
			out = append(out, where+": struct "+name+" = "+value)
		case (base == "Currency" || base == "currency" || base == "Name" || base == "name") && !isStringValue(value):
			out = append(out, where+": string "+name+" = "+value)
		}
	}
	for _, in := range append(append(report.Inputs{}, c.Inputs...), c.Outside...) {
		see("inputs", in.Name, in.Value)
	}
	for _, r := range c.Rows {
		for k, v := range r.Values {
			see("row "+r.Symbol, k, v)
		}
	}
	for _, s := range c.Steps {
		for k, v := range s.Values {
			see(s.Position, k, v)
		}
	}
	return out
}

// isStringValue reports whether a trace value is a string: quoted, or a
// symbolic str1 the trace's notes explain.
func isStringValue(v string) bool {
	return strings.HasPrefix(v, `"`) || regexp.MustCompile(`^str[0-9]+$`).MatchString(v)
}
