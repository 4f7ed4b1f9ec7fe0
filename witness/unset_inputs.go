package witness

import (
	"go/ast"
	"go/types"
	"regexp"
	"strings"
)

// Inputs a replay cannot set. A counterexample's input that the driver's
// call does not read — the captured variable of a closure a factory
// returns (the factory sets it), a field a constructor fills, a value of
// a type the driver leaves at its zero value — takes in the run the
// value the call gives it, not the counterexample's: a replay that says
// only NOT REPRODUCED then reads as a false alarm of the tool (an
// independent tester's envcfg.WithdrawHandler$1, minKeep). The replay
// names each such input and says what the run used instead.

// UnsetInput is an input of the counterexample the run could not set.
type UnsetInput struct {
	Name string
	// Why says what the input is and what the run used instead
	// ("captured by Handler$1: ran with the value Handler gives it").
	Why string
}

// String is the input as replay prints it.
func (u UnsetInput) String() string { return u.Name + " " + u.Why }

// indexPart is an index or a map key of an input's path ("[i]", "[0]").
var indexPart = regexp.MustCompile(`\[[^\]]*\]`)

// unsetInputs are the inputs of cex that spec's call does not read, in
// name order. The names of values the trace derives from others (a
// request accessor's or a parser's result, `Get(_, "amount")`) and the
// harness's own ("$http.…") are not inputs the driver sets by name and
// are left out.
func (spec *EntrySpec) unsetInputs(cex *Counterexample) []UnsetInput {
	read := map[string]bool{}
	for _, in := range spec.Inputs {
		read[normalPath(in.Path)] = true
	}
	var out []UnsetInput
	for _, name := range cex.InputNames() {
		if spec.readsInput(read, name) || setThroughFields(read, name, cex.Inputs[name]) {
			continue
		}
		out = append(out, UnsetInput{Name: name, Why: spec.unsetWhy(name)})
	}
	return out
}

// readsInput reports whether the driver's call reads input name (read:
// the normalised paths of the spec's inputs), or name is none the driver
// sets by name.
func (spec *EntrySpec) readsInput(read map[string]bool, name string) bool {
	if strings.HasPrefix(name, "$") {
		return true
	}
	if inner, ok := strings.CutPrefix(name, "len("); ok && strings.HasSuffix(inner, ")") {
		prefix := normalPath(strings.TrimSuffix(inner, ")")) + "[]"
		for p := range read {
			if strings.HasPrefix(p, prefix) {
				return true
			}
		}
		return false
	}
	if _, _, _, isCall := splitCall(name); isCall {
		return true // derived from a request or another input
	}
	return read[normalPath(name)]
}

// setThroughFields reports whether input name is a pointer's nil-ness
// that the run keeps by setting the pointer's fields: "req != nil" true
// where the driver sets req.Amount (it allocates req). The replay said
// it "could not set req != nil" of a request it had passed (adv18
// grpcsvc ConvertToEUR, REPRODUCED).
func setThroughFields(read map[string]bool, name, value string) bool {
	base, ok := strings.CutSuffix(name, " != nil")
	if !ok || strings.TrimSpace(value) != "true" {
		return false
	}
	prefix := normalPath(base) + "."
	for p := range read {
		if strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return false
}

// normalPath is an input path with its indices as "[]" and no leading
// dereference: "ids[0].Qty" and "ids[i].Qty" are "ids[].Qty".
func normalPath(p string) string {
	return strings.TrimLeft(indexPart.ReplaceAllString(p, "[]"), "*")
}

// unsetWhy says what an input the call does not read is and what the
// run used instead.
func (spec *EntrySpec) unsetWhy(name string) string {
	root := name
	if i := strings.IndexAny(root, ".[ "); i > 0 {
		root = root[:i]
	}
	if outer, ok := spec.Captured[root]; ok {
		return "(captured by " + spec.Key + "): ran with the value " + outer + " gives it"
	}
	for _, a := range spec.Approximations {
		typ, why, ok := strings.Cut(strings.TrimPrefix(a, name+" ("), ") left at its zero value: ")
		if ok && strings.HasPrefix(a, name+" (") {
			return "(" + typ + ", " + why + "): ran with its zero value"
		}
	}
	return "(the driver's call does not read it): ran with the value the call gives it"
}

// capturedVars are the variables of decl that its function literal lit
// captures, by name.
func capturedVars(info *types.Info, decl *ast.FuncDecl, lit *ast.FuncLit) []string {
	seen := map[string]bool{}
	var out []string
	ast.Inspect(lit.Body, func(x ast.Node) bool {
		id, ok := x.(*ast.Ident)
		if !ok {
			return true
		}
		v, ok := info.Uses[id].(*types.Var)
		if !ok || v.IsField() || seen[v.Name()] {
			return true
		}
		if p := v.Pos(); p >= decl.Pos() && p < decl.End() && (p < lit.Pos() || p >= lit.End()) {
			seen[v.Name()] = true
			out = append(out, v.Name())
		}
		return true
	})
	return out
}
