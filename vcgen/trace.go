package vcgen

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/dbverify/dbverify/ir"
)

// WatchedRow is the row symbol of the watched row r (package dbmodel).
const WatchedRow = "r"

// A Trace is a counterexample as a user reads it: the entry's arguments,
// the rows of the database involved, the source steps taken and the row
// state that breaks the constraint.
type Trace struct {
	Entry     string      `json:"entry"`
	Inputs    []Binding   `json:"inputs"`
	Rows      []Row       `json:"rows"`
	Steps     []TraceStep `json:"steps"`
	Violation Row         `json:"violation"`
}

// A Binding is the value of one input.
type Binding struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// A Row is the column values of one row symbol.
type Row struct {
	Symbol string            `json:"symbol"`
	Table  string            `json:"table"`
	Values map[string]string `json:"values"` // column → value
}

// A TraceStep is one source statement of the path.
type TraceStep struct {
	Position string            `json:"position"` // file:line
	Kind     string            `json:"kind"`     // sql, branch, assign, call, return
	Text     string            `json:"text"`
	Values   map[string]string `json:"values,omitempty"` // variable → new value
	// Request names the request that took the step, in a product of
	// concurrent requests (package interleave); "" otherwise.
	Request string `json:"request,omitempty"`
}

// BuildTrace reads the counterexample of pf off a model of its formula:
//
//   - Inputs: every variable of kind Input (the entry's parameters first,
//     then the others in program order) with its first value on the path;
//   - Rows: the watched row r as it was at entry, then every other row
//     symbol the path reads, as it was right after its last havoc (the
//     last time it was read); ghost columns ($-prefixed) are left out;
//   - Steps: one per edge with a source position that is not introduced by
//     the model, consecutive edges with the same position and text merged,
//     each with the new values of the non-ghost variables it assigned;
//   - Violation: r's columns at the end of the path.
func BuildTrace(pf *PathFormula, m Model) (*Trace, error) {
	if m == nil {
		return nil, fmt.Errorf("vcgen: trace: no model")
	}
	p := pf.Prog
	val := func(v *ir.Var) (string, error) {
		x, err := ir.Eval(v, m.Value)
		if err != nil {
			return "", fmt.Errorf("vcgen: trace: %v", err)
		}
		if s, ok := p.Strings[x.String()]; ok && v.Type == ir.Int {
			return strconv.Quote(s), nil // a string constant's code
		}
		return x.String(), nil
	}
	first := pf.firstVersions()
	initial := func(v *ir.Var) (string, error) {
		if s, ok := first[v]; ok {
			return val(s)
		}
		return zero(v.Type).String(), nil // not on the path: any value will do
	}
	t := &Trace{Entry: p.Name}

	seen := map[*ir.Var]bool{}
	var inputs []*ir.Var
	for _, v := range p.Inputs {
		if !seen[v] {
			seen[v] = true
			inputs = append(inputs, v)
		}
	}
	read := pf.readVars()
	for _, v := range p.Vars {
		// Other inputs (fields and elements reached through parameters)
		// only when the path reads them.
		if _, onPath := first[v]; v.Kind == ir.Input && !seen[v] && onPath && read[v] {
			seen[v] = true
			inputs = append(inputs, v)
		}
	}
	for _, v := range inputs {
		s, err := initial(v)
		if err != nil {
			return nil, err
		}
		t.Inputs = append(t.Inputs, Binding{Name: displayName(v.Name), Value: s})
	}

	// Row symbols and their columns, in program order.
	var symbols []string
	cols := map[string][]*ir.Var{}
	for _, v := range p.Vars {
		if v.Kind != ir.Column || v.Row == "" {
			continue
		}
		if _, ok := cols[v.Row]; !ok {
			symbols = append(symbols, v.Row)
		}
		cols[v.Row] = append(cols[v.Row], v)
	}
	for _, sym := range symbols {
		if sym != WatchedRow {
			continue
		}
		row := Row{Symbol: sym, Values: map[string]string{}}
		for _, v := range cols[sym] {
			row.Table = v.Table
			if ghostCol(v) {
				continue
			}
			s, err := initial(v)
			if err != nil {
				return nil, err
			}
			row.Values[v.Col] = s
		}
		t.Rows = append(t.Rows, row)
	}
	for _, sym := range symbols {
		if sym == WatchedRow {
			continue
		}
		last := -1
		for i, st := range pf.Steps {
			if _, ok := st.Edge.Stmt.(*ir.Havoc); !ok {
				continue
			}
			for _, d := range st.Defs {
				if o := pf.Origin[d].Orig; o.Kind == ir.Column && o.Row == sym {
					last = i
				}
			}
		}
		if last < 0 {
			continue
		}
		row := Row{Symbol: sym, Values: map[string]string{}}
		for _, v := range cols[sym] {
			row.Table = v.Table
			s, ok := pf.Steps[last].After[v]
			if ghostCol(v) || !ok {
				continue
			}
			str, err := val(s)
			if err != nil {
				return nil, err
			}
			row.Values[v.Col] = str
		}
		t.Rows = append(t.Rows, row)
	}

	for _, st := range pf.Steps {
		info := st.Edge.Stmt.Source()
		if info.File == "" || info.Kind == ir.KindModel {
			continue
		}
		pos := info.Position()
		var ts *TraceStep
		if n := len(t.Steps); n > 0 && t.Steps[n-1].Position == pos && t.Steps[n-1].Text == info.Text && t.Steps[n-1].Request == info.Request {
			ts = &t.Steps[n-1]
		} else {
			t.Steps = append(t.Steps, TraceStep{Position: pos, Kind: string(info.Kind), Text: info.Text, Request: info.Request})
			ts = &t.Steps[len(t.Steps)-1]
		}
		_, isHavoc := st.Edge.Stmt.(*ir.Havoc)
		for _, d := range st.Defs {
			o := pf.Origin[d].Orig
			if o.Kind == ir.Ghost || ghostCol(o) || isTemporary(o.Name) {
				continue
			}
			if o.Kind == ir.Column && o.Row != WatchedRow && !isHavoc {
				// A read row's columns are shown where it is read; updates
				// of rows the path no longer uses would only be noise.
				continue
			}
			if isHavoc && o.Kind != ir.Column && !read[o] {
				// Memory an unseen callee may change, never read again.
				continue
			}
			s, err := val(d)
			if err != nil {
				return nil, err
			}
			if ts.Values == nil {
				ts.Values = map[string]string{}
			}
			ts.Values[displayName(o.Name)] = s
		}
	}

	t.Violation = Row{Symbol: WatchedRow, Values: map[string]string{}}
	end := pf.Before(len(pf.Steps))
	for _, v := range cols[WatchedRow] {
		t.Violation.Table = v.Table
		if ghostCol(v) {
			continue
		}
		var s string
		var err error
		if cur, ok := end[v]; ok {
			s, err = val(cur)
		} else {
			s, err = initial(v)
		}
		if err != nil {
			return nil, err
		}
		t.Violation.Values[v.Col] = s
	}
	return t, nil
}

// firstVersions maps each program variable to the first of its versions
// the path mentions: version 0 if a step reads it before any step defines
// it, otherwise the first version defined. Within a step, reads come
// before definitions.
// ApproxReads returns why the path's counterexample may be spurious: the
// Approx notes (ir.Var.Approx) of the over-approximated values that reach
// one of the path's conditions, directly or through assignments, in path
// order, each once. A check of the constraint that the path passes does
// not count: where the real value breaks it, the real run is a violation
// there. A value only copied into a row column that no later
// condition reads (an omitted column, a field nobody tests) does not
// matter.
func (pf *PathFormula) ApproxReads() []string {
	var out []string
	seen := map[string]bool{}
	taint := map[*ir.Var][]string{} // variable -> notes of the values it holds
	notesOf := func(e ir.Expr) []string {
		vars := map[*ir.Var]bool{}
		ir.CollectVars(e, vars)
		var ns []string
		for v := range vars {
			if v.Approx != "" {
				ns = append(ns, v.Approx)
			}
			ns = append(ns, taint[v]...)
		}
		sort.Strings(ns)
		return ns
	}
	for _, st := range pf.Steps {
		switch s := st.Edge.Stmt.(type) {
		case *ir.Assign:
			next := make([][]string, len(s.Lhs))
			for i := range s.Lhs {
				if i < len(s.Rhs) {
					next[i] = notesOf(s.Rhs[i])
				}
			}
			for i, v := range s.Lhs {
				if len(next[i]) > 0 {
					taint[v] = next[i]
				} else {
					delete(taint, v)
				}
			}
		case *ir.Havoc:
			for _, v := range s.Vars {
				delete(taint, v)
			}
		case *ir.Assume:
			if passedCheck(pf, st.Edge) {
				// The constraint held there: had the real value broken
				// it, the run would have been a violation at that point.
				continue
			}
			for _, n := range notesOf(s.Cond) {
				if !seen[n] {
					seen[n] = true
					out = append(out, n)
				}
			}
		}
	}
	return out
}

// passedCheck reports whether e is the row model's check of the
// constraint on its passing side (see dbmodel).
func passedCheck(pf *PathFormula, e *ir.Edge) bool {
	info := e.Stmt.Source()
	return info.Kind == ir.KindModel && strings.HasPrefix(info.Text, "check ") && e.To != pf.Prog.Error
}

// readVars returns the program variables the path reads: those in an
// assignment's right-hand side or an assumed condition.
func (pf *PathFormula) readVars() map[*ir.Var]bool {
	read := map[*ir.Var]bool{}
	for _, st := range pf.Steps {
		for _, e := range readExprs(st.Edge.Stmt) {
			ir.CollectVars(e, read)
		}
	}
	return read
}

// readExprs returns the expressions a statement evaluates: an
// assignment's right-hand sides, an assumed condition.
func readExprs(s ir.Stmt) []ir.Expr {
	switch s := s.(type) {
	case *ir.Assign:
		return s.Rhs
	case *ir.Assume:
		return []ir.Expr{s.Cond}
	}
	return nil
}

func (pf *PathFormula) firstVersions() map[*ir.Var]*ir.Var {
	first := map[*ir.Var]*ir.Var{}
	for _, st := range pf.Steps {
		defs := map[*ir.Var]bool{}
		for _, d := range st.Defs {
			defs[d] = true
		}
		for _, s := range ir.Vars(st.Constraint) {
			if defs[s] {
				continue
			}
			if o, ok := pf.Origin[s]; ok {
				if _, done := first[o.Orig]; !done {
					first[o.Orig] = s
				}
			}
		}
		for _, d := range st.Defs {
			o := pf.Origin[d].Orig
			if _, done := first[o]; !done {
				first[o] = d
			}
		}
	}
	return first
}

// ghostCol reports whether v is a bookkeeping column such as r.$exists.
func ghostCol(v *ir.Var) bool { return strings.HasPrefix(v.Col, "$") }

func zero(s ir.Sort) ir.Value {
	v, _ := ir.Eval(ir.Zero(s), nil)
	return v
}

// String prints the trace as plain text, for tests and debugging.
func (t *Trace) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "entry %s\n", t.Entry)
	for _, in := range t.Inputs {
		fmt.Fprintf(&b, "  input %s = %s\n", in.Name, in.Value)
	}
	for _, r := range t.Rows {
		fmt.Fprintf(&b, "  row %s (%s) %s\n", r.Symbol, r.Table, values(r.Values))
	}
	for _, s := range t.Steps {
		fmt.Fprintf(&b, "  %s [%s] %s", s.Position, s.Kind, s.Text)
		if len(s.Values) > 0 {
			fmt.Fprintf(&b, "  %s", values(s.Values))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "  violation %s (%s) %s\n", t.Violation.Symbol, t.Violation.Table, values(t.Violation.Values))
	return b.String()
}

func values(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + m[k]
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// displayName drops the numeric suffix that keeps variable names unique
// (bal#2 is the Go variable bal).
func displayName(name string) string {
	if i := strings.LastIndexByte(name, '#'); i > 0 {
		return name[:i]
	}
	return name
}

// isTemporary reports whether a variable is a compiler temporary or a
// model artefact rather than something the user wrote: SSA values (t12),
// lengths, call results, values returned by RETURNING before they reach a
// Go variable.
func isTemporary(name string) bool {
	name = displayName(name)
	base := name
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		base = name[i+1:]
	}
	switch {
	case strings.ContainsAny(name, "$()"), base == "merged", base == "noRows":
		return true
	case strings.HasPrefix(base, "returned") && isDigits(base[len("returned"):]):
		return true
	case len(base) > 1 && base[0] == 't' && isDigits(base[1:]):
		return true
	}
	return false
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
