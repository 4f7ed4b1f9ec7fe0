package report

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/dbverify/dbverify/ir"
)

// An HTTPInput is one value of the HTTP request a handler's
// counterexample sends: a path or query parameter, a form field, a
// header, or a field of a JSON body.
type HTTPInput struct {
	Kind string `json:"kind"` // path, query, form, header, body
	// Name is the parameter's (header's) name, or the body field's JSON
	// path ("amount", "payer.id").
	Name string `json:"name"`
	// Raw is the text sent, quoted ("\"-5\""), or for a body field its
	// JSON value; "" when the run does not depend on it beyond Parsed.
	Raw string `json:"raw,omitempty"`
	// Parse is the function that turned the text into the value the
	// program uses ("strconv.ParseInt"), Parsed that value, and
	// ParseFailed says it returned an error.
	Parse       string `json:"parse,omitempty"`
	Parsed      string `json:"parsed,omitempty"`
	ParseFailed bool   `json:"parse_failed,omitempty"`
	// Vars are the names of the counterexample's inputs (or outside
	// values) this value stands for.
	Vars []string `json:"vars,omitempty"`
	// Request names the request that sends the value in a counterexample
	// of concurrent requests ("A", "B"); "" otherwise.
	Request string `json:"request,omitempty"`
}

// String prints the input as a developer sends it:
// `path parameter "id" = "7" (strconv.ParseInt → 7)`.
func (h HTTPInput) String() string {
	what := map[string]string{ir.HTTPPath: "path parameter", ir.HTTPQuery: "query parameter", ir.HTTPForm: "form field",
		ir.HTTPHeader: "header", ir.HTTPBody: "JSON body field"}[h.Kind]
	if what == "" {
		what = h.Kind
	}
	s := what + " " + strconv.Quote(h.Name)
	if h.Request != "" {
		s = h.Request + ": " + s
	}
	if h.Raw != "" {
		s += " = " + h.Raw
	}
	switch {
	case h.Parse != "" && h.ParseFailed:
		s += " (" + h.Parse + " fails)"
	case h.Parse != "" && h.Parsed != "" && h.Raw != "":
		s += " (" + h.Parse + " → " + h.Parsed + ")"
	case h.Parse != "" && h.Parsed != "":
		s += " read by " + h.Parse + " as " + h.Parsed
	case h.Kind == ir.HTTPBody && len(h.Vars) > 0:
		vars := slices.DeleteFunc(slices.Clone(h.Vars), func(v string) bool { return strings.HasSuffix(v, " != nil") })
		s += " (" + strings.Join(vars, ", ") + ")"
	}
	return s
}

// ShownInputs are the inputs as the text report lists them: the HTTP
// request's values first, then the other inputs ("name = value") none of
// them stands for.
func (c *Counterexample) ShownInputs() []string {
	covered := map[string]bool{}
	var out []string
	for _, h := range c.HTTP {
		out = append(out, h.String())
		for _, v := range h.Vars {
			covered[v] = true
		}
		if h.Kind == ir.HTTPBody {
			for _, x := range c.unmarshalled() {
				covered["len("+x+")"] = true
			}
		}
	}
	return c.appendInputs(out, covered)
}

// unmarshalledArg is the []byte a step decodes with json.Unmarshal.
var unmarshalledArg = regexp.MustCompile(`\bjson\.Unmarshal\((\w+),`)

// unmarshalled are the variables the steps decode with json.Unmarshal.
// The body fields the trace lists are what such a variable holds; its
// length (len(raw) = 0, a value the model leaves free) contradicted them
// (an independent tester's mini/jsonbodyreplay).
func (c *Counterexample) unmarshalled() []string {
	var out []string
	for _, st := range c.Steps {
		for _, m := range unmarshalledArg.FindAllStringSubmatch(st.Text, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// inputsBeside are the inputs ShownInputs lists that the request lines of
// requests do not show (a concurrent result prints each request's
// inputs on its line, labelled by the request: the inputs line listed
// them all again, A.id = 51, B.id = 51).
func (c *Counterexample) inputsBeside(requests []Request) []string {
	printed, covered := map[string]bool{}, map[string]bool{}
	for _, q := range requests {
		printed[q.Request] = true
		for _, in := range q.Inputs {
			covered[q.Request+"."+in.Name] = true
		}
	}
	var out []string
	for _, h := range c.HTTP {
		if printed[h.Request] {
			for _, v := range h.Vars {
				covered[v] = true
			}
			continue
		}
		out = append(out, h.String())
		for _, v := range h.Vars {
			covered[v] = true
		}
	}
	return c.appendInputs(out, covered)
}

// appendInputs appends to out the inputs covered does not name, as
// "name = value"; a pointer argument's nil-ness ("p != nil") is shown as
// p = nil, or not at all beside the value p points to; the results of a
// call as the call (shownCalls).
func (c *Counterexample) appendInputs(out []string, covered map[string]bool) []string {
	nils, has := map[string]bool{}, map[string]bool{}
	for _, in := range c.Inputs {
		has[in.Name] = true
		if base, ok := strings.CutSuffix(in.Name, " != nil"); ok && strings.TrimSpace(in.Value) == "false" {
			nils[base] = true
		}
	}
	calls, byCall := c.shownCalls()
	for _, in := range c.Inputs {
		if covered[in.Name] || byCall[in.Name] {
			continue
		}
		if s, ok := calls[in.Name]; ok {
			out = append(out, s)
			continue
		}
		if base, ok := strings.CutSuffix(in.Name, " != nil"); ok {
			if nils[base] && !has[base] {
				out = append(out, base+" = nil")
			}
			continue
		}
		if nils[in.Name] {
			out = append(out, in.Name+" = nil")
			continue
		}
		out = append(out, in.Name+" = "+c.errorValue(in.Name, in.Value))
	}
	return out
}

// ShownOutside are the outside values no HTTP input stands for.
func (c *Counterexample) ShownOutside() []string {
	covered := map[string]bool{}
	for _, h := range c.HTTP {
		for _, v := range h.Vars {
			covered[v] = true
		}
	}
	var out []string
	for _, o := range c.Outside {
		if covered[o.Name] {
			continue
		}
		if call, i, ok := callResult(o.Name); ok && i <= 0 {
			out = append(out, call+" = "+o.Value)
			continue
		}
		out = append(out, o.Name+" = "+o.Value)
	}
	return out
}

// httpInputs lists the request values the path reads, in program order,
// one per part of the request: its text (an accessor's result), the
// value a parse of it gives, whether the parse failed.
func (b *traceBuilder) httpInputs() ([]HTTPInput, error) {
	var out []HTTPInput
	index := map[[3]string]int{}
	nulls := map[int]bool{} // a pointer field the body sends as null
	for _, v := range b.pf.Prog.Vars {
		src := v.HTTP
		if src == nil || !b.read[v] {
			continue
		}
		s, ok, err := b.httpValue(v)
		if err != nil {
			return nil, err
		} else if !ok {
			continue
		}
		req := requestOf(displayName(v.Name))
		k := [3]string{req, src.Kind, src.Name}
		i, seen := index[k]
		if !seen {
			i = len(out)
			index[k] = i
			out = append(out, HTTPInput{Kind: src.Kind, Name: src.Name, Request: req})
		}
		h := &out[i]
		h.Vars = append(h.Vars, displayName(v.Name))
		switch {
		case src.NonNil:
			if s == "false" {
				nulls[i] = true // (the value of the target is not sent)
			}
		case src.Parse == "":
			h.Raw = s
		case src.Result == 0:
			h.Parse, h.Parsed = src.Parse, s
		case v.Type == ir.Bool:
			h.Parse, h.ParseFailed = src.Parse, s == "true"
		}
	}
	for i := range out {
		if nulls[i] {
			out[i].Raw = "null"
		}
		slices.Sort(out[i].Vars)
		out[i].Vars = slices.Compact(out[i].Vars)
	}
	return out, nil
}

// httpValue is the value of request variable v the path uses: an input's
// as first read, a body field's as the decoding call leaves it (ok false:
// the path does not reach it).
func (b *traceBuilder) httpValue(v *ir.Var) (string, bool, error) {
	if v.Kind == ir.Input {
		r, ok := b.firstRead[v]
		if !ok {
			return "", false, nil
		}
		s, err := b.value(r)
		return s, err == nil, err
	}
	for _, st := range b.pf.Steps {
		h, ok := st.Edge.Stmt.(*ir.Havoc)
		if !ok || h.Info.Kind != ir.KindCall {
			continue
		}
		for _, d := range st.Defs {
			if b.pf.Origin[d].Orig == v {
				s, err := b.value(d)
				return s, err == nil, err
			}
		}
	}
	return "", false, nil
}

// requestOf is the request whose variable name is: "A" for A.b.Seats in
// a product of concurrent requests, "" for a name without a request.
func requestOf(name string) string {
	if len(name) > 2 && name[1] == '.' && name[0] >= 'A' && name[0] <= 'Z' {
		return name[:1]
	}
	return ""
}

// RequestInputs lists inputs as a developer sends them: the request
// variables among vars (ir.Var.HTTP) grouped by the part of the request
// they read (`path parameter "id" = "7" (strconv.ParseInt → 7)`), then
// the others as "name = value". value gives a variable's value as the
// model prints it: a text's string code (quoted when it is a literal's),
// "true"/"false" for a parse's error.
func RequestInputs(vars []*ir.Var, value func(*ir.Var) string) []string {
	var hs []HTTPInput
	index := map[[2]string]int{}
	var rest []string
	for _, v := range vars {
		src := v.HTTP
		if src == nil {
			if name := displayName(v.Name); !callResultLen(name) {
				rest = append(rest, name+" = "+value(v))
			}
			continue
		}
		if src.NonNil {
			continue // (the field's own variable says what the body holds)
		}
		k := [2]string{src.Kind, src.Name}
		i, seen := index[k]
		if !seen {
			i = len(hs)
			index[k] = i
			hs = append(hs, HTTPInput{Kind: src.Kind, Name: src.Name})
		}
		h := &hs[i]
		s := value(v)
		switch {
		case src.Parse == "":
			h.Raw = sentText(s)
		case src.Result == 0:
			h.Parse, h.Parsed = src.Parse, s
		case v.Type == ir.Bool:
			h.Parse, h.ParseFailed = src.Parse, s == "true"
		}
	}
	out := make([]string, 0, len(hs)+len(rest))
	for _, h := range hs {
		out = append(out, h.String())
	}
	return append(out, rest...)
}

// callResultLen reports whether name is the length of what a call of
// the request gives (len(Query(_)), the map r.URL.Query() returns): the
// model leaves it free, unrelated to the parameters the request sends
// (an order-dependence message listed `len(Query(_)) = 0` beside a query
// parameter "value" = "1": adv18).
func callResultLen(name string) bool {
	return strings.HasPrefix(name, "len(") && strings.Contains(name, "(_)")
}

// sentText is the text a request sends, from the model's value of it: a
// literal's quoted text, a number's digits (texts that spell an integer
// are coded as it), else a string no literal spells.
func sentText(s string) string {
	if strings.HasPrefix(s, `"`) {
		return s
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && n >= -ir.MaxDecimalCode && n <= ir.MaxDecimalCode {
		return strconv.Quote(s)
	}
	return "a text no literal of the program spells"
}
