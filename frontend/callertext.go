package frontend

import (
	"strconv"

	"golang.org/x/tools/go/ssa"
)

// SQL text the caller passes. An exported helper that runs the SQL text
// its caller hands it (func Get[T any](ctx, q, query string, args ...any))
// has no statement of its own: as an entry it was UNKNOWN "SQL text is
// not a compile-time constant" and a writer of any table, and
// --fail-on-unknown failed a module whose every caller passes a constant
// SELECT (an independent tester's generic_get_unknown). Its callers are
// checked with the text each passes, the helper inlined; so when every
// call site in the module passes constant text, the helper is checked
// at its call sites and is no entry of its own. A call site that passes
// other text keeps the helper an entry (UNKNOWN, naming that caller).

// CallerSQL returns the call sites of fn in the module when fn's SQL
// whose text is not known is only the text of its own parameters (no
// callee runs unknown SQL), fn is called only directly, and every call
// site passes constant text for those parameters. ok is false otherwise;
// bad is then a call site that passes text that is not constant, if one
// is the reason ("file:line").
func (l *Loaded) CallerSQL(fn *ssa.Function) (sites int, bad string, ok bool) {
	params, ok := l.sqlTextParams(fn)
	if !ok || len(params) == 0 || l.escapingFuncs()[fn] {
		return 0, "", false
	}
	reach := l.reach()
	for _, c := range l.callees(fn) {
		if r := reach[c]; r != nil && r.UnknownSQL {
			return 0, "", false
		}
	}
	for _, call := range l.callSitesOf(fn) {
		args := call.Common().Args
		for i := range params {
			if i >= len(args) {
				return 0, "", false
			}
			if _, ok := constString(args[i]); !ok {
				file, line := l.position(call.Pos())
				return 0, file + ":" + strconv.Itoa(line), false
			}
		}
		sites++
	}
	return sites, "", sites > 0
}

// sqlTextParams returns the parameters of fn (by index) whose value is
// the SQL text of a statement fn runs, when every statement fn runs
// whose text is not known has one of them as its text; ok is false when
// fn runs SQL whose text is unknown otherwise.
func (l *Loaded) sqlTextParams(fn *ssa.Function) (map[int]bool, bool) {
	out := map[int]bool{}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			s := l.siteOf(call)
			if s == nil {
				if l.mayRunUnknownSQL(call.Common()) {
					return nil, false
				}
				continue
			}
			if !s.Known && s.Select {
				continue // a read built at run time (writes: a read)
			}
			if s.Known {
				if s.Stmt == nil || len(userFunctions(s.Stmt)) > 0 {
					return nil, false
				}
				continue
			}
			args := call.Common().Args
			if s.api.Query < 0 || s.api.Query >= len(args) {
				return nil, false
			}
			i := paramIndex(fn, args[s.api.Query])
			if i < 0 {
				return nil, false
			}
			out[i] = true
		}
	}
	return out, true
}

// paramIndex is the index of v among fn's parameters, or -1.
func paramIndex(fn *ssa.Function, v ssa.Value) int {
	for i, p := range fn.Params {
		if p == v {
			return i
		}
	}
	return -1
}

// callSitesOf returns the module's static calls of fn (or of an instance
// of generic fn).
func (l *Loaded) callSitesOf(fn *ssa.Function) []ssa.CallInstruction {
	var out []ssa.CallInstruction
	for _, caller := range l.allModuleFunctions() {
		for _, b := range caller.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if c := call.Common().StaticCallee(); c != nil && (c == fn || c.Origin() == fn) {
					out = append(out, call)
				}
			}
		}
	}
	return out
}
