package vcgen

import (
	"sort"
	"strings"

	"github.com/dbverify/dbverify/ir"
)

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
			if passedCheck(pf, st.Edge) || s.Kind == ir.KindFact {
				// The constraint held there: had the real value broken
				// it, the run would have been a violation at that point.
				// A fact (a type's range) holds of any real value.
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

// ReadVars returns the program variables the path reads: those in an
// assignment's right-hand side or an assumed condition.
func (pf *PathFormula) ReadVars() map[*ir.Var]bool {
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

// FirstVersions maps each program variable to the first of its versions
// the path mentions: version 0 if a step reads it before any step defines
// it, otherwise the first version defined. Within a step, reads come
// before definitions.
func (pf *PathFormula) FirstVersions() map[*ir.Var]*ir.Var {
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

// FirstReads maps each program variable a step reads to the version the
// first such step reads. An entry's input read only after a havoc of its
// own (a slice element, read afresh in each iteration) is shown with the
// value the program read, not the one it had at entry.
func (pf *PathFormula) FirstReads() map[*ir.Var]*ir.Var {
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
	}
	return first
}
