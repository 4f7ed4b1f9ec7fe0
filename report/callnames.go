package report

import "strings"

// Results of calls in the inputs line. The frontend names the result of
// a call it fixes for the run (strconv.ParseInt on a parameter) after the
// call and the result's index, `ParseInt(qtyText, 10, 64).0` and `.1`
// for its error: the witness replay reads those names off the JSON
// report, so they stay there. The text report prints them as the
// developer wrote the call, its package named: one entry per call,
// `strconv.ParseInt(qtyText, 10, 64) = 5`, its error beside the value
// when it is not nil (issue 12, round 16).

// callPackages are the packages of the functions whose results the
// frontend fixes for the run (frontend's pureFuncs), by function name.
var callPackages = map[string]string{
	"Atoi": "strconv", "ParseInt": "strconv", "ParseUint": "strconv", "ParseFloat": "strconv",
	"ParseBool": "strconv", "Itoa": "strconv", "FormatInt": "strconv", "Quote": "strconv",
	"TrimSpace": "strings", "ToLower": "strings", "ToUpper": "strings", "Trim": "strings",
	"TrimPrefix": "strings", "TrimSuffix": "strings",
}

// callResult splits an input's name `F(args).i` (or `F(args)`, a call
// with one result) into the call as the source writes it, its package
// named (`strconv.ParseInt(args)`), and the result's index (-1: the only
// one). ok is false for any other name, and for a function whose
// package is not known.
func callResult(name string) (call string, index int, ok bool) {
	open := strings.IndexByte(name, '(')
	if open <= 0 {
		return "", 0, false
	}
	pkg, known := callPackages[name[:open]]
	if !known {
		return "", 0, false
	}
	index = -1
	closeAt := strings.LastIndexByte(name, ')')
	switch rest := name[closeAt+1:]; {
	case rest == "":
	case len(rest) == 2 && rest[0] == '.' && rest[1] >= '0' && rest[1] <= '9':
		index = int(rest[1] - '0')
	default:
		return "", 0, false
	}
	return pkg + "." + name[:closeAt+1], index, true
}

// shownCalls renders the inputs that are results of calls (callResult)
// one entry per call: "strconv.Atoi(s) = 5", with " (and a non-nil
// error)" when its error result is not nil. It returns the entries by
// the name of the input they take the place of (the call's first result
// listed), and the names of the other inputs they cover.
func (c *Counterexample) shownCalls() (entries map[string]string, covered map[string]bool) {
	type parts struct {
		first      string // the first of the call's inputs listed
		value, err string
	}
	calls := map[string]*parts{}
	var order []string
	for _, in := range c.Inputs {
		call, i, ok := callResult(in.Name)
		if !ok || i > 1 {
			continue
		}
		p := calls[call]
		if p == nil {
			p = &parts{first: in.Name}
			calls[call] = p
			order = append(order, call)
		}
		if i == 1 {
			p.err = c.errorValue(in.Name, in.Value)
		} else {
			p.value = in.Value
		}
	}
	entries, covered = map[string]string{}, map[string]bool{}
	for _, call := range order {
		p := calls[call]
		if p.value == "" {
			continue // (only the error is read: left as it is)
		}
		s := call + " = " + p.value
		if p.err == "non-nil" || p.err == "true" {
			s += " (and a non-nil error)"
		}
		entries[p.first] = s
		for _, suffix := range []string{"", ".0", ".1"} {
			covered[rawCallName(call)+suffix] = true
		}
		delete(covered, p.first)
	}
	return entries, covered
}

// rawCallName is the frontend's name of a call callResult rendered:
// without its package.
func rawCallName(call string) string {
	_, rest, _ := strings.Cut(call, ".")
	return rest
}
