package vcgen

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/dbverify/dbverify/ir"
)

// Version names one SSA version of a program variable.
type Version struct {
	Orig *ir.Var // the program variable
	N    int     // 0 is the value at entry
}

// A Step is the contribution of one edge of the path.
type Step struct {
	Edge *ir.Edge
	// Constraint is the edge's formula over SSA variables: the
	// equalities of an Assign, the condition of an Assume, true for a
	// Havoc.
	Constraint ir.Expr
	// Defs are the versions the edge creates, in the order of its
	// statement's variables.
	Defs []*ir.Var
	// After maps every program variable met so far to its current
	// version after the edge.
	After map[*ir.Var]*ir.Var
}

// A PathFormula is the SSA form of a path: the conjunction of its steps'
// constraints is satisfiable iff the path can be executed.
type PathFormula struct {
	Prog  *ir.Program
	Path  []*ir.Edge
	Steps []Step
	// Init maps each program variable met on the path to its version 0.
	Init map[*ir.Var]*ir.Var
	// Origin maps every SSA variable to its program variable and version.
	Origin map[*ir.Var]Version
}

// Build returns the path formula of path, a connected sequence of edges of
// p starting at p.Entry. Only Assign, Assume and Havoc are allowed.
//
// Each program variable x gets versions x@0, x@1, …: fresh ir variables
// with x's sort, kind, row, table and column. An Assign creates new
// versions equal to its right-hand sides over the old ones (simultaneous);
// a Havoc creates new unconstrained versions; an Assume contributes its
// condition over the current versions.
func Build(p *ir.Program, path []*ir.Edge) (*PathFormula, error) {
	pf := &PathFormula{
		Prog:   p,
		Path:   path,
		Init:   map[*ir.Var]*ir.Var{},
		Origin: map[*ir.Var]Version{},
	}
	used := map[string]bool{}
	for _, v := range p.Vars {
		used[v.Name] = true
	}
	count := map[*ir.Var]int{}
	cur := map[*ir.Var]*ir.Var{}
	// fresh makes the next version of v; version 0 is reserved for the
	// value at entry, so a variable defined before any use starts at 1.
	fresh := func(v *ir.Var, def bool) *ir.Var {
		n := count[v]
		if def && n == 0 {
			n = 1
		}
		count[v] = n + 1
		name := v.Name + "@" + strconv.Itoa(n)
		for used[name] {
			name += "'"
		}
		used[name] = true
		s := &ir.Var{Name: name, Type: v.Type, Kind: v.Kind, Row: v.Row, Table: v.Table, Col: v.Col, Str: v.Str, Internal: v.Internal}
		pf.Origin[s] = Version{Orig: v, N: n}
		return s
	}
	// version returns v's current version, making version 0 on first use.
	version := func(v *ir.Var) *ir.Var {
		if s, ok := cur[v]; ok {
			return s
		}
		s := fresh(v, false)
		pf.Init[v] = s
		cur[v] = s
		return s
	}
	rename := func(e ir.Expr) ir.Expr {
		vars := map[*ir.Var]bool{}
		ir.CollectVars(e, vars)
		m := make(map[*ir.Var]ir.Expr, len(vars))
		for v := range vars {
			m[v] = version(v)
		}
		return ir.Substitute(e, m)
	}
	at := p.Entry
	for i, e := range path {
		if e == nil {
			return nil, fmt.Errorf("vcgen: edge %d of the path is nil", i)
		}
		if e.From != at {
			return nil, fmt.Errorf("vcgen: path broken at edge %d: L%d -> L%d does not leave L%d", i, e.From, e.To, at)
		}
		at = e.To
		st := Step{Edge: e}
		switch s := e.Stmt.(type) {
		case *ir.Assign:
			if len(s.Lhs) != len(s.Rhs) {
				return nil, fmt.Errorf("vcgen: %s: %d variables, %d values", s, len(s.Lhs), len(s.Rhs))
			}
			rhs := make([]ir.Expr, len(s.Rhs))
			for k, r := range s.Rhs {
				rhs[k] = rename(r)
			}
			eqs := make([]ir.Expr, len(s.Lhs))
			for k, v := range s.Lhs {
				nv := fresh(v, true)
				cur[v] = nv
				st.Defs = append(st.Defs, nv)
				eqs[k] = ir.Eq(nv, rhs[k])
			}
			st.Constraint = ir.And(eqs...)
		case *ir.Assume:
			st.Constraint = rename(s.Cond)
		case *ir.Havoc:
			for _, v := range s.Vars {
				nv := fresh(v, true)
				cur[v] = nv
				st.Defs = append(st.Defs, nv)
			}
			st.Constraint = ir.True
		default:
			return nil, fmt.Errorf("vcgen: edge L%d -> L%d: unsupported statement %T (the program must be lowered)", e.From, e.To, e.Stmt)
		}
		st.After = make(map[*ir.Var]*ir.Var, len(cur))
		for k, v := range cur {
			st.After[k] = v
		}
		pf.Steps = append(pf.Steps, st)
	}
	return pf, nil
}

// Formula returns the conjunction of the steps' constraints.
func (pf *PathFormula) Formula() ir.Expr {
	cs := make([]ir.Expr, len(pf.Steps))
	for i, s := range pf.Steps {
		cs[i] = s.Constraint
	}
	return ir.And(cs...)
}

// Before returns the version map in force before step i (i == len(Steps):
// at the end of the path). Variables not met yet are absent.
func (pf *PathFormula) Before(i int) map[*ir.Var]*ir.Var {
	if i == 0 {
		return pf.Init
	}
	return pf.Steps[i-1].After
}

// Model gives the values of variables, as smt.Model does.
type Model interface {
	Value(v *ir.Var) (ir.Value, bool)
}

// Validate checks, independently of the solver, that m satisfies every
// step of pf (each constraint evaluates to true with ir.Eval) and that the
// path ends at the program's Error location: this is what makes an UNSAFE
// verdict trustworthy.
func Validate(pf *PathFormula, m Model) error {
	if m == nil {
		return fmt.Errorf("vcgen: validate: no model")
	}
	if len(pf.Path) == 0 || pf.Path[len(pf.Path)-1].To != pf.Prog.Error {
		return fmt.Errorf("vcgen: validate: the path does not reach the error location")
	}
	for i, st := range pf.Steps {
		v, err := ir.Eval(st.Constraint, m.Value)
		if errors.Is(err, ir.ErrDivisionByZero) {
			return &DivisionByZero{Step: i, Where: where(st.Edge), Position: st.Edge.Stmt.Source().Position()}
		}
		if err != nil {
			return fmt.Errorf("vcgen: validate: step %d (%s): %v", i, where(st.Edge), err)
		}
		if v.Sort != ir.Bool || !v.B {
			return fmt.Errorf("vcgen: validate: step %d (%s): %s is false in the model", i, where(st.Edge), st.Constraint)
		}
	}
	return nil
}

// DivisionByZero is Validate's error when the model divides by zero at a
// step: the encoding leaves x / 0 unconstrained where the semantics are not
// modelled (SQL: an error in PostgreSQL, NULL in MySQL and SQLite), so the
// counterexample is not one the model vouches for.
type DivisionByZero struct {
	Step     int
	Where    string // the step's statement and position
	Position string
}

func (e *DivisionByZero) Error() string {
	return fmt.Sprintf("vcgen: validate: step %d (%s): division by zero", e.Step, e.Where)
}

// Note says why a counterexample that divides by zero is not reported.
func (e *DivisionByZero) Note() string {
	at := ""
	if e.Position != "" {
		at = " at " + e.Position
	}
	return "a division by zero" + at + " (SQL `/` by zero: an error in PostgreSQL, NULL in MySQL and SQLite), not modelled there"
}

func where(e *ir.Edge) string {
	s := e.Stmt.String()
	if pos := e.Stmt.Source().Position(); pos != "" {
		s += " at " + pos
	}
	return s
}
