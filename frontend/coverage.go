package frontend

import (
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Coverage: every function of the matched packages that writes a
// constrained table must run inside some verified entry point, or the
// verdicts say nothing about it. Writers lists those functions, Reaches
// says whether an entry's translation may run one (the call graph the
// translation follows: static calls, closures, interface dispatch to
// module implementations).

// Writer is a function that runs a write of a constrained table itself
// (or SQL whose text is not known).
type Writer struct {
	Fn       *ssa.Function
	Name     string   // EntryName
	Position string   // file:line of the function
	Tables   []string // the constrained tables it writes; "?" for unknown SQL
}

// Writers returns the functions of the matched packages that write one
// of tables directly, sorted by name.
func (l *Loaded) Writers(tables []string) []Writer {
	want := map[string]bool{}
	for _, t := range tables {
		want[strings.ToLower(t)] = true
	}
	var out []Writer
	for _, fn := range l.Functions() {
		if fn.Synthetic != "" {
			continue
		}
		written, unknown, _ := l.writes(fn)
		var ts []string
		for t := range written {
			if want[t] {
				ts = append(ts, t)
			}
		}
		sort.Strings(ts)
		if unknown {
			ts = append(ts, "?")
		}
		if len(ts) == 0 {
			continue
		}
		file, line := l.position(fn.Pos())
		out = append(out, Writer{Fn: fn, Name: EntryName(fn), Position: file + ":" + strconv.Itoa(line), Tables: ts})
	}
	return out
}

// Reached returns the module functions an entry's translation may run:
// fn and, transitively, its callees.
func (l *Loaded) Reached(fn *ssa.Function) map[*ssa.Function]bool {
	seen := map[*ssa.Function]bool{fn: true}
	stack := []*ssa.Function{fn}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, c := range l.callees(f) {
			if !seen[c] {
				seen[c] = true
				stack = append(stack, c)
			}
		}
	}
	return seen
}
