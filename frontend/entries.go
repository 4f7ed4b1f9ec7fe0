package frontend

// Entry points: the functions code outside the analysis may call, and
// their names.

import (
	"go/token"
	"go/types"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Entries returns the entry points for constraints on tables: functions of
// the matched packages that may write one of the tables (or run unknown
// SQL) and that code outside the analysis may call: functions no other
// module function calls (main, init, a var initializer's callee),
// exported functions and methods of exported types (another package may
// call them whatever their callers here check first), and functions whose
// value escapes (handlers given to a router, closures returned by a
// factory, operations kept in a table; see escapingFuncs). If match is not
// nil, every matched-package function whose name it matches is an entry
// instead (see EntryMatches). A sqlc query method nothing in the module
// calls is not an entry unless Config.CheckGenerated (UncalledGenerated),
// nor is a helper that runs the constant SQL text its callers pass
// (CallerSQL).
func (l *Loaded) Entries(tables []string, match *regexp.Regexp) []*ssa.Function {
	want := map[string]bool{}
	for _, t := range tables {
		want[strings.ToLower(t)] = true
	}
	reach := l.reach()
	// Calls from the matched packages only: a function that only code
	// outside them calls (gRPC handlers a generated package dispatches to,
	// when only the service package is checked) is an entry. The package
	// initializer (Go's runtime runs it) calls no one in this sense.
	matched := map[*ssa.Package]bool{}
	for _, p := range l.Pkgs {
		matched[p] = true
	}
	called := map[*ssa.Function]bool{}
	for _, fn := range l.allModuleFunctions() {
		if !matched[fn.Package()] || fn.Synthetic != "" {
			continue
		}
		for _, c := range l.callees(fn) {
			if c != fn {
				called[c] = true
				// A generic function runs only as its instances: called
				// when one of them is (then inlined in its callers).
				if o := c.Origin(); o != nil && o != fn {
					called[o] = true
				}
			}
		}
	}
	escaping := l.escapingFuncs()
	var out []*ssa.Function
	for _, fn := range l.Functions() {
		if fn.Synthetic != "" {
			continue
		}
		if match != nil {
			// Any function, closures included (their captured variables
			// are then arbitrary); or the one around a source position.
			if file, line, ok := entryPosition(match); ok {
				if l.innermostAt(fn, file, line) {
					out = append(out, fn)
				}
			} else if EntryMatches(fn, match) {
				out = append(out, fn)
			}
			continue
		}
		if fn.Parent() != nil && !escaping[fn] {
			continue
		}
		if called[fn] && !escaping[fn] && (!exportedAPI(fn) || l.generated(fn)) {
			continue
		}
		if _, _, ok := l.CallerSQL(fn); ok && called[fn] {
			continue // checked at its call sites (callertext.go)
		}
		if l.GeneratedNotChecked(fn) {
			continue
		}
		rc := reach[fn]
		if rc == nil {
			continue
		}
		relevant := rc.UnknownSQL
		for t := range rc.Tables {
			if want[t] {
				relevant = true
			}
		}
		if relevant {
			out = append(out, fn)
		}
	}
	return out
}

// EntryMatches reports whether --entry's pattern selects fn: its full
// name (EntryName: "example.com/shop.(*Store).Reserve",
// "example.com/api.makeWithdraw$1" for the first closure in
// makeWithdraw), its name within its package ("(*Store).Reserve",
// "makeWithdraw$1"), that name without pointer marks ("Store.Reserve"), or
// its SSA name, so that ^Reserve$ and makeWithdraw\$1 both work. A match
// must reach the function's own name, or at least the dot before it: one
// that lies in the package path or the receiver's type name alone does
// not select (Transfer selects neither (*TransferRequest).GetAmount nor
// every function of a package named transfer; TransferRequest\. selects
// the type's methods). A closure is selected only by a match that reaches
// into its $n suffix (makeWithdraw\$1, \$1$), or, for one named by the
// field that holds it (NewHandlers.Redeem), to that field's dot
// (NewHandlers\.Redeem, Redeem$), not by its enclosing function's name.
func EntryMatches(fn *ssa.Function, match *regexp.Regexp) bool {
	names := []string{fn.String()}
	for _, name := range []string{EntryName(fn), closureNumberName(fn)} {
		short := name
		if fn.Pkg != nil {
			short = strings.TrimPrefix(name, fn.Pkg.Pkg.Path()+".")
		}
		plain := strings.NewReplacer("(*", "", ")", "").Replace(short)
		names = append(names, name, short, plain)
	}
	field := closureField(fn)
	for _, s := range append(names, fn.Name()) {
		// The match must end past the start of what names fn itself: the
		// dot before its name, for a closure its $n suffix or the dot
		// before the field that holds it.
		from := strings.LastIndex(s, "$")
		if fn.Parent() == nil {
			from = ownNameStart(s, fn.Name()) - 1
		} else if field != "" && !strings.Contains(s, "$") {
			from = strings.LastIndex(s, "."+field)
		}
		for _, m := range match.FindAllStringIndex(s, -1) {
			if m[1] > from {
				return true
			}
		}
	}
	return false
}

// ownNameStart is where s, one of the names EntryMatches tries, spells
// a function's own name (after its package and receiver), or 0 if it
// does not hold it.
func ownNameStart(s, own string) int {
	if i := strings.LastIndex(s, own); i >= 0 {
		return i
	}
	return 0
}

// entryPositionForm is an --entry that names a source position:
// file.go:42, or a path ending in it (api/handlers.go:42).
var entryPositionForm = regexp.MustCompile(`^(\S+\.go):([0-9]+)$`)

// entryPosition splits an --entry pattern that is a source position into
// its file and line.
func entryPosition(match *regexp.Regexp) (file string, line int, ok bool) {
	m := entryPositionForm.FindStringSubmatch(match.String())
	if m == nil {
		return "", 0, false
	}
	n, err := strconv.Atoi(m[2])
	if err != nil {
		return "", 0, false
	}
	return filepath.ToSlash(filepath.Clean(m[1])), n, true
}

// innermostAt reports whether fn is the innermost function whose source
// spans line of file (a path suffix): it spans it and none of its
// closures does. A closure is selected by a line of its own body, its
// enclosing function by any other.
func (l *Loaded) innermostAt(fn *ssa.Function, file string, line int) bool {
	if !l.spans(fn, file, line) {
		return false
	}
	for _, a := range fn.AnonFuncs {
		if l.spans(a, file, line) {
			return false
		}
	}
	return true
}

// spans reports whether fn's source covers line of file.
func (l *Loaded) spans(fn *ssa.Function, file string, line int) bool {
	syn := fn.Syntax()
	if syn == nil || !syn.Pos().IsValid() {
		return false
	}
	start, end := l.Fset.Position(syn.Pos()), l.Fset.Position(syn.End())
	name := filepath.ToSlash(start.Filename)
	if name != file && !strings.HasSuffix(name, "/"+file) {
		return false
	}
	return start.Line <= line && line <= end.Line
}

// generated reports whether fn is in a generated file (sqlc's queries, a
// gRPC stub): its exported functions are the program's data access layer,
// entries only when nothing in the program calls them.
func (l *Loaded) generated(fn *ssa.Function) bool {
	if !fn.Pos().IsValid() {
		return false
	}
	return l.generatedFile(l.Fset.Position(fn.Pos()).Filename)
}

// generatedFile reports whether the named file carries the header of
// generated code ("// Code generated … DO NOT EDIT.") before its package
// clause.
func (l *Loaded) generatedFile(name string) bool {
	l.lineText(name, 1) // (reads the file)
	for _, line := range l.srcLine[name] {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "package ") {
			return false
		}
		if strings.HasPrefix(line, "// Code generated ") && strings.HasSuffix(line, " DO NOT EDIT.") {
			return true
		}
	}
	return false
}

// exportedAPI reports whether code in another package may call fn
// directly: an exported function or an exported method of an exported
// type, outside package main.
func exportedAPI(fn *ssa.Function) bool {
	if fn.Parent() != nil || fn.Pkg == nil || fn.Pkg.Pkg.Name() == "main" || !token.IsExported(fn.Name()) {
		return false
	}
	recv := fn.Signature.Recv()
	if recv == nil {
		return true
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Exported()
}

// EntryName names a function the way Go's runtime and profilers do:
// "example.com/bank.Withdraw", "example.com/shop.(*Store).Reserve",
// "example.com/shop.Store.Total", closures with their $n suffix; a
// closure its function stores in a struct field by that field:
// "example.com/api.NewHandlers.Redeem" (closureField).
func EntryName(fn *ssa.Function) string {
	if fn.Parent() != nil {
		if field := closureField(fn); field != "" {
			return EntryName(fn.Parent()) + "." + field
		}
		return closureNumberName(fn)
	}
	recv := fn.Signature.Recv()
	if recv == nil || fn.Pkg == nil {
		return fn.String()
	}
	t := recv.Type()
	ptr := false
	if p, ok := t.(*types.Pointer); ok {
		t, ptr = p.Elem(), true
	}
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return fn.String()
	}
	name := n.Obj().Name()
	if ptr {
		name = "(*" + name + ")"
	}
	return n.Obj().Pkg().Path() + "." + name + "." + fn.Name()
}

// closureNumberName names closure fn by go/ssa's number within its
// function: "example.com/api.NewHandlers$1".
func closureNumberName(fn *ssa.Function) string {
	if fn.Parent() == nil {
		return EntryName(fn)
	}
	return closureNumberName(fn.Parent()) + fn.Name()[len(fn.Parent().Name()):]
}
