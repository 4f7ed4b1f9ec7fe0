package groundtruth_test

import (
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/dbverify/dbverify/dbmodel"
	"github.com/dbverify/dbverify/frontend/sqlparse"
	"github.com/dbverify/dbverify/groundtruth"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/smt"
	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/vcgen"
)

// modelStmt is one statement lowered by the row model: a program with one
// Exec or Select on the watched table, every path from entry to exit as a
// path formula, and the variables an observation constrains.
type modelStmt struct {
	low    *ir.Program
	paths  []*vcgen.PathFormula
	entry  ir.Loc // the source program's entry: the prologue ends there
	inputs []*ir.Var
	err    *ir.Var
	aff    *ir.Var // nil: RowsAffected not observed
	tgts   []*ir.Var
	rcols  map[string]*ir.Var // r's columns, by name
	rexist *ir.Var
}

// unsupportedError says the model does not support a statement: not a
// divergence (the verifier reports such statements UNKNOWN or havocs).
type unsupportedError struct{ why string }

func (e *unsupportedError) Error() string { return "unsupported by the model: " + e.why }

// sqlparseDialect maps an engine dialect to the parser's.
func sqlparseDialect(d groundtruth.Dialect) sqlparse.Dialect {
	switch d {
	case groundtruth.Postgres:
		return sqlparse.Postgres
	case groundtruth.SQLite:
		return sqlparse.SQLite
	}
	return sqlparse.MySQL
}

// lowerStatement parses query in d's dialect and lowers a one-statement
// program running it with nargs integer arguments, under schema ddl, for
// the tautological constraint over table.
func lowerStatement(d groundtruth.Dialect, ddl, table, query string, nargs int, returning int, affected bool) (*modelStmt, error) {
	stmt, err := sqlparse.Parse(sqlparseDialect(d), query)
	if err != nil {
		return nil, &unsupportedError{fmt.Sprintf("parse: %v", err)}
	}
	schema, err := sqlparse.ParseSchema(ddl)
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	c, err := sqlparse.ParseConstraint(table+".id = "+table+".id", "")
	if err != nil {
		return nil, fmt.Errorf("constraint: %w", err)
	}
	p := ir.NewProgram("differential")
	ms := &modelStmt{rcols: map[string]*ir.Var{}}
	var args []ir.Expr
	for i := 0; i < nargs; i++ {
		v := p.NewVar(fmt.Sprintf("arg%d", i+1), ir.Int, ir.Input)
		p.Inputs = append(p.Inputs, v)
		ms.inputs = append(ms.inputs, v)
		args = append(args, v)
	}
	info := ir.Info{File: "differential.go", Line: 1, Kind: ir.KindSQL, Text: query}
	ms.err = p.NewVar("err", ir.Bool, ir.Local)
	for i := 0; i < returning; i++ {
		ms.tgts = append(ms.tgts, p.NewVar(fmt.Sprintf("ret%d", i+1), ir.Int, ir.Local))
	}
	var s ir.Stmt
	switch q := stmt.(type) {
	case *sqlir.Select:
		if q.Complex {
			return nil, &unsupportedError{"a complex SELECT (join, aggregate, subquery)"}
		}
		s = &ir.Select{SQL: q, Args: args, Targets: ms.tgts, Err: ms.err, Info: info}
	case *sqlir.Update, *sqlir.Insert, *sqlir.Delete:
		if affected {
			ms.aff = p.NewVar("affected", ir.Int, ir.Local)
		}
		s = &ir.Exec{SQL: stmt, Args: args, Err: ms.err, Affected: ms.aff, Targets: ms.tgts, Info: info}
	default:
		return nil, &unsupportedError{fmt.Sprintf("statement %T", stmt)}
	}
	mid := p.NewLoc()
	p.AddEdge(p.Entry, mid, s)
	p.AddEdge(mid, p.Exit, &ir.Assume{Cond: ir.True})
	low, err := dbmodel.Lower(p, c, dbmodel.Options{Schema: schema})
	if err != nil {
		return nil, fmt.Errorf("lower: %w", err)
	}
	ms.low, ms.entry = low.Program, p.Entry
	for _, v := range low.Program.Vars {
		if v.Row == "r" && v.Kind == ir.Column {
			ms.rcols[v.Col] = v
		}
		if v.Row == "r" && v.Col == "$exists" {
			ms.rexist = v
		}
	}
	for _, path := range exitPaths(low.Program) {
		pf, err := vcgen.Build(low.Program, path)
		if err != nil {
			return nil, fmt.Errorf("path formula: %w", err)
		}
		ms.paths = append(ms.paths, pf)
	}
	if len(ms.paths) == 0 {
		return nil, fmt.Errorf("the lowered program has no path to its exit:\n%s", low.Program)
	}
	return ms, nil
}

// exitPaths enumerates the paths from p's entry to its exit (the lowered
// one-statement program is acyclic).
func exitPaths(p *ir.Program) [][]*ir.Edge {
	var out [][]*ir.Edge
	var walk func(at ir.Loc, path []*ir.Edge, depth int)
	walk = func(at ir.Loc, path []*ir.Edge, depth int) {
		if at == p.Exit {
			out = append(out, append([]*ir.Edge(nil), path...))
			return
		}
		if depth > 200 {
			return
		}
		for _, e := range p.Out[at] {
			walk(e.To, append(path, e), depth+1)
		}
	}
	walk(p.Entry, nil, 0)
	return out
}

// rowObservation is what the engine did, seen from one row: the watched
// row r instantiated with it.
type rowObservation struct {
	initial groundtruth.Row // r's values before (nil: a row the statement inserted)
	exists  bool            // r exists afterwards
	final   groundtruth.Row // r's values afterwards (when exists)
	free    bool            // nothing is observed of r
}

// stmtObservation is what the engine returned for the statement.
type stmtObservation struct {
	args     []int64
	failed   bool
	affected int64 // when !failed and the model observes it
	// ignoreAffected drops RowsAffected from the observation (to tell
	// whether a divergence is about it).
	ignoreAffected bool
	returned       []any // RETURNING / SELECT values (when !failed)
}

// admits reports whether some run of the model, with r instantiated as
// ro says, ends as the engine did. A NULL value constrains nothing: the
// model has no NULL (DESIGN.md §2), a nullable column's value is
// arbitrary. The solver's satisfying assignment is re-checked with
// ir.Eval: some path's formula and the observation evaluate to true.
func (ms *modelStmt) admits(s *smt.Solver, so stmtObservation, ro rowObservation) (bool, error) {
	var alts []ir.Expr
	for _, pf := range ms.paths {
		alts = append(alts, ir.And(pf.Formula(), ms.observe(pf, so, ro)))
	}
	defer s.Reset()
	if err := s.Reset(); err != nil {
		return false, err
	}
	if err := s.Assert(ir.Or(alts...)); err != nil {
		return false, err
	}
	res, err := s.Check()
	if err != nil {
		return false, err
	}
	switch res {
	case smt.Unsat:
		return false, nil
	case smt.Unknown:
		return false, fmt.Errorf("solver: unknown (%s)", s.ReasonUnknown())
	}
	m, err := s.Model()
	if err != nil {
		return false, err
	}
	var evalErr error
	for _, a := range alts {
		v, err := ir.Eval(a, m.Value)
		if err == nil && v.B {
			return true, nil
		}
		if err != nil {
			evalErr = err
		}
	}
	if evalErr != nil {
		// ir.Eval has no value for x/0 and x%0, which the solver leaves
		// arbitrary (the engines give NULL or an error): the solver's
		// answer stands.
		return true, nil
	}
	return false, fmt.Errorf("the solver's model of the observation does not evaluate to true with ir.Eval")
}

// observe returns the constraints an observation puts on path pf's
// variables.
func (ms *modelStmt) observe(pf *vcgen.PathFormula, so stmtObservation, ro rowObservation) ir.Expr {
	at := ms.afterPrologue(pf)
	end := pf.Before(len(pf.Steps))
	ver := func(m map[*ir.Var]*ir.Var, v *ir.Var) *ir.Var {
		if x, ok := m[v]; ok {
			return x
		}
		return nil
	}
	var cs []ir.Expr
	eqInt := func(v *ir.Var, val any) {
		if v == nil || val == nil {
			return
		}
		if r, ok := ratValue(val); ok {
			if v.Type == ir.Int {
				if !r.IsInt() {
					cs = append(cs, ir.False)
					return
				}
				cs = append(cs, ir.Eq(v, ir.BigInt(r.Num())))
			} else {
				cs = append(cs, ir.Eq(v, ir.RealLit(r)))
			}
		}
	}
	for i, in := range ms.inputs {
		eqInt(ver(at, in), so.args[i])
	}
	if ro.initial != nil {
		for c, v := range ms.rcols {
			eqInt(ver(at, v), ro.initial[c])
		}
	}
	if e := ver(end, ms.err); e != nil {
		if so.failed {
			cs = append(cs, e)
		} else {
			cs = append(cs, ir.Not(e))
		}
	}
	if !so.failed {
		if !so.ignoreAffected {
			eqInt(ver(end, ms.aff), so.affected)
		}
		for i, t := range ms.tgts {
			if i < len(so.returned) {
				eqInt(ver(end, t), so.returned[i])
			}
		}
	}
	if x := ver(end, ms.rexist); x != nil && !ro.free {
		if ro.exists {
			cs = append(cs, x)
			for c, v := range ms.rcols {
				eqInt(ver(end, v), ro.final[c])
			}
		} else {
			cs = append(cs, ir.Not(x))
		}
	}
	return ir.And(cs...)
}

// ratValue is a normalised number as a rational.
func ratValue(v any) (*big.Rat, bool) {
	switch x := v.(type) {
	case int64:
		return new(big.Rat).SetInt64(x), true
	case *big.Rat:
		return x, true
	}
	return nil, false
}

// describeModel says what the model admits for the statement with r
// instantiated with ro.initial, ignoring what the engine did: the values
// of one admitted run (for the report of a divergence).
func (ms *modelStmt) describeModel(s *smt.Solver, so stmtObservation, ro rowObservation) string {
	var runs []string
	for _, pf := range ms.paths {
		obs := ms.observeInputs(pf, so, ro)
		if err := s.Reset(); err != nil {
			return err.Error()
		}
		if err := s.Assert(ir.And(pf.Formula(), obs)); err != nil {
			return err.Error()
		}
		res, err := s.Check()
		if err != nil || res != smt.Sat {
			continue
		}
		m, err := s.Model()
		if err != nil {
			continue
		}
		if err := validate(pf, m); err != nil {
			runs = append(runs, "(model run does not validate: "+err.Error()+")")
			continue
		}
		runs = append(runs, ms.render(pf, m))
		if len(runs) >= 3 {
			break
		}
	}
	s.Reset()
	sort.Strings(runs)
	if len(runs) == 0 {
		return "no successful run"
	}
	return strings.Join(runs, " | ")
}

// observeInputs constrains only the arguments, r's initial values and
// success.
func (ms *modelStmt) observeInputs(pf *vcgen.PathFormula, so stmtObservation, ro rowObservation) ir.Expr {
	at := ms.afterPrologue(pf)
	var cs []ir.Expr
	for i, in := range ms.inputs {
		if v, ok := at[in]; ok {
			cs = append(cs, ir.Eq(v, ir.IntLit(so.args[i])))
		}
	}
	if ro.initial != nil {
		for c, v := range ms.rcols {
			if x, ok := at[v]; ok {
				if r, ok := ratValue(ro.initial[c]); ok && r.IsInt() && x.Type == ir.Int {
					cs = append(cs, ir.Eq(x, ir.BigInt(r.Num())))
				}
			}
		}
	}
	end := pf.Before(len(pf.Steps))
	if e, ok := end[ms.err]; ok {
		cs = append(cs, ir.Not(e))
	}
	return ir.And(cs...)
}

// afterPrologue is the version map when the path reaches the source
// program's entry: the database state and arguments the statement starts
// from.
func (ms *modelStmt) afterPrologue(pf *vcgen.PathFormula) map[*ir.Var]*ir.Var {
	for i, st := range pf.Steps {
		if st.Edge.To == ms.entry {
			return pf.Steps[i].After
		}
	}
	return pf.Init
}

// render prints the final values of one model run.
func (ms *modelStmt) render(pf *vcgen.PathFormula, m *smt.Model) string {
	end := pf.Before(len(pf.Steps))
	val := func(v *ir.Var) string {
		x, ok := end[v]
		if !ok {
			return "?"
		}
		if y, ok := m.Value(x); ok {
			return y.String()
		}
		return "?"
	}
	var parts []string
	if ms.rexist != nil && val(ms.rexist) == "false" {
		parts = append(parts, "r deleted")
	} else {
		var cols []string
		for c := range ms.rcols {
			cols = append(cols, c)
		}
		sort.Strings(cols)
		var kv []string
		for _, c := range cols {
			kv = append(kv, c+"="+val(ms.rcols[c]))
		}
		parts = append(parts, "r=("+strings.Join(kv, ",")+")")
	}
	if ms.aff != nil {
		parts = append(parts, "affected="+val(ms.aff))
	}
	for i, t := range ms.tgts {
		parts = append(parts, fmt.Sprintf("ret%d=%s", i+1, val(t)))
	}
	return strings.Join(parts, " ")
}

// validate re-evaluates every step of pf in m with ir.Eval.
func validate(pf *vcgen.PathFormula, m *smt.Model) error {
	for i, st := range pf.Steps {
		v, err := ir.Eval(st.Constraint, m.Value)
		if err != nil {
			return fmt.Errorf("step %d: %v", i, err)
		}
		if !v.B {
			return fmt.Errorf("step %d: %s is false", i, st.Constraint)
		}
	}
	return nil
}

// admitsStatement reports whether some run of the model ends with the
// statement's outcome (error, RowsAffected, returned values), whatever r.
func (ms *modelStmt) admitsStatement(s *smt.Solver, so stmtObservation) (bool, error) {
	return ms.admits(s, so, rowObservation{free: true})
}
