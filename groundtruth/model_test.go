package groundtruth_test

import (
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/dbverify/dbverify/dbmodel"
	"github.com/dbverify/dbverify/groundtruth"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/smt"
	"github.com/dbverify/dbverify/spec"
	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
	sqlschema "github.com/dbverify/dbverify/sqlparse/schema"
	"github.com/dbverify/dbverify/vcgen"
)

// modelCase is a case's statements lowered by the row model: a program
// running them as a Go function would (a failing call rolls back and
// returns), every path from entry to exit as a path formula, and the
// variables an observation constrains.
type modelCase struct {
	low    *ir.Program
	paths  []*vcgen.PathFormula
	entry  ir.Loc // the source program's entry: the prologue ends there
	steps  []modelStep
	txErrs []*ir.Var // BEGIN and the final COMMIT/ROLLBACK: they succeed on the engine
	rcols  map[string]*ir.Var
	rexist *ir.Var
}

// modelStep holds one statement's variables.
type modelStep struct {
	inputs []*ir.Var
	err    *ir.Var
	aff    *ir.Var // nil: RowsAffected not observed
	tgts   []*ir.Var
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

// lowerCase parses c's statements in c's dialect and lowers the program
// running them, under schema ddl, for a tautological constraint over
// table (so that the model's checks never cut a path).
func lowerCase(c stmtCase, ddl, table string) (*modelCase, error) {
	schema, err := sqlschema.Parse(ddl)
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	con, err := spec.ParseRowCheck(table+".id = "+table+".id", "")
	if err != nil {
		return nil, fmt.Errorf("constraint: %w", err)
	}
	p := ir.NewProgram("differential")
	mc := &modelCase{rcols: map[string]*ir.Var{}}
	cur := p.Entry
	next := func(s ir.Stmt) {
		n := p.NewLoc()
		p.AddEdge(cur, n, s)
		cur = n
	}
	var tx ir.Tx
	info := func(i int, text string) ir.Info {
		return ir.Info{File: "differential.go", Line: i + 1, Kind: ir.KindSQL, Text: text}
	}
	if c.tx != "" {
		tx = 1
		e := p.NewVar("beginErr", ir.Bool, ir.Local)
		mc.txErrs = append(mc.txErrs, e)
		next(&ir.TxOp{Op: ir.Begin, Tx: tx, Err: e, Info: info(0, "BEGIN")})
		p.AddEdge(cur, p.Exit, &ir.Assume{Cond: e})
		next(&ir.Assume{Cond: ir.Not(e)})
	}
	for i, st := range c.steps {
		q := c.query(i)
		stmt, err := sqlparse.Parse(sqlparseDialect(c.dial), q)
		if err != nil {
			return nil, &unsupportedError{fmt.Sprintf("parse: %v", err)}
		}
		var ms modelStep
		var args []ir.Expr
		for j := range st.args {
			v := p.NewVar(fmt.Sprintf("s%darg%d", i+1, j+1), ir.Int, ir.Input)
			p.Inputs = append(p.Inputs, v)
			ms.inputs = append(ms.inputs, v)
			args = append(args, v)
		}
		ms.err = p.NewVar(fmt.Sprintf("s%derr", i+1), ir.Bool, ir.Local)
		for j := 0; j < st.nret; j++ {
			ms.tgts = append(ms.tgts, p.NewVar(fmt.Sprintf("s%dret%d", i+1, j+1), ir.Int, ir.Local))
		}
		switch q := stmt.(type) {
		case *sqlir.Select:
			if q.Complex {
				return nil, &unsupportedError{"a complex SELECT (join, aggregate, subquery)"}
			}
			next(&ir.Select{SQL: q, Args: args, Tx: tx, Targets: ms.tgts, Err: ms.err, Info: info(i, c.query(i))})
		case *sqlir.Update, *sqlir.Insert, *sqlir.Delete:
			if st.kind == execKind {
				ms.aff = p.NewVar(fmt.Sprintf("s%daffected", i+1), ir.Int, ir.Local)
			}
			next(&ir.Exec{SQL: stmt, Args: args, Tx: tx, Err: ms.err, Affected: ms.aff, Targets: ms.tgts, Info: info(i, c.query(i))})
		case *sqlir.TxControl:
			if !sqlir.IsSavepoint(q) || tx == 0 {
				return nil, &unsupportedError{fmt.Sprintf("transaction control %s", q.Kind)}
			}
			next(&ir.Exec{SQL: q, Tx: tx, Err: ms.err, Info: info(i, c.query(i))})
		default:
			return nil, &unsupportedError{fmt.Sprintf("statement %T", stmt)}
		}
		// if err != nil { (tx.Rollback()); return }
		fail := p.NewLoc()
		p.AddEdge(cur, fail, &ir.Assume{Cond: ms.err})
		if tx != 0 {
			rb := p.NewLoc()
			p.AddEdge(fail, rb, &ir.TxOp{Op: ir.Rollback, Tx: tx, Err: p.NewVar("rbErr", ir.Bool, ir.Local), Info: info(i, "ROLLBACK")})
			fail = rb
		}
		p.AddEdge(fail, p.Exit, &ir.Assume{Cond: ir.True})
		next(&ir.Assume{Cond: ir.Not(ms.err)})
		if ms.aff != nil {
			// The program reads RowsAffected (the model leaves a count
			// no statement reads unconstrained by MySQL's changed-rows
			// rule, see dbmodel's countedRow).
			next(&ir.Assume{Cond: ir.Cmp(ir.OpGe, ms.aff, ir.IntLit(0))})
		}
		mc.steps = append(mc.steps, ms)
	}
	if c.tx != "" {
		e := p.NewVar("endErr", ir.Bool, ir.Local)
		mc.txErrs = append(mc.txErrs, e)
		op := ir.Commit
		if c.tx == "rollback" {
			op = ir.Rollback
		}
		next(&ir.TxOp{Op: op, Tx: tx, Err: e, Info: info(len(c.steps), strings.ToUpper(c.tx))})
	}
	p.AddEdge(cur, p.Exit, &ir.Assume{Cond: ir.True})
	// The row model in the case's dialect (its default is MySQL's, whose
	// RowsAffected counts changed rows, not the matched rows PostgreSQL
	// and SQLite count).
	opt := dbmodel.Options{Schema: schema, Dialect: sqlparseDialect(c.dial).String()}
	if c.noSchema {
		opt.Schema = nil
	}
	low, err := dbmodel.Lower(p, con, opt)
	if err != nil {
		return nil, fmt.Errorf("lower: %w", err)
	}
	mc.low, mc.entry = low.Program, p.Entry
	for _, v := range low.Program.Vars {
		if v.Row == "r" && v.Kind == ir.Column {
			mc.rcols[v.Col] = v
		}
		if v.Row == "r" && v.Col == "$exists" {
			mc.rexist = v
		}
	}
	for _, path := range exitPaths(low.Program) {
		pf, err := vcgen.Build(low.Program, path)
		if err != nil {
			return nil, fmt.Errorf("path formula: %w", err)
		}
		mc.paths = append(mc.paths, pf)
	}
	if len(mc.paths) == 0 {
		return nil, fmt.Errorf("the lowered program has no path to its exit:\n%s", low.Program)
	}
	return mc, nil
}

// exitPaths enumerates the paths from p's entry to its exit (the lowered
// straight-line program is acyclic).
func exitPaths(p *ir.Program) [][]*ir.Edge {
	var out [][]*ir.Edge
	var walk func(at ir.Loc, path []*ir.Edge)
	walk = func(at ir.Loc, path []*ir.Edge) {
		if at == p.Exit {
			out = append(out, append([]*ir.Edge(nil), path...))
			return
		}
		for _, e := range p.Out[at] {
			walk(e.To, append(path, e))
		}
	}
	walk(p.Entry, nil)
	return out
}

// rowObservation is what the engine did, seen from one row: the watched
// row r instantiated with it.
type rowObservation struct {
	initial groundtruth.Row // r's values before (nil: a row the case inserted)
	exists  bool            // r exists afterwards
	final   groundtruth.Row // r's values afterwards (when exists)
	free    bool            // nothing is observed of r
}

// stmtObservation is what the engine returned for the case's statements.
type stmtObservation struct {
	args  [][]int64
	steps []stepResult // the steps run: all, or up to the first failure
	// ignoreAffected drops RowsAffected from the observation (to tell
	// whether a divergence is about it).
	ignoreAffected bool
}

// admits reports whether some run of the model, with r instantiated as
// ro says, ends as the engine did. A NULL value constrains nothing: the
// model has no NULL (docs/design.md §2), a nullable column's value is
// arbitrary. The solver's satisfying assignment is re-checked with
// ir.Eval: some path's formula and the observation evaluate to true.
func (mc *modelCase) admits(s *smt.Solver, so stmtObservation, ro rowObservation) (bool, error) {
	var alts []ir.Expr
	for _, pf := range mc.paths {
		alts = append(alts, ir.And(pf.Formula(), mc.observe(pf, so, ro)))
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

// admitsStatements reports whether some run of the model ends with the
// statements' outcomes (errors, RowsAffected, returned values), whatever r.
func (mc *modelCase) admitsStatements(s *smt.Solver, so stmtObservation) (bool, error) {
	return mc.admits(s, so, rowObservation{free: true})
}

// afterPrologue is the version map when the path reaches the source
// program's entry: the database state and arguments the statements start
// from.
func (mc *modelCase) afterPrologue(pf *vcgen.PathFormula) map[*ir.Var]*ir.Var {
	for i, st := range pf.Steps {
		if st.Edge.To == mc.entry {
			return pf.Steps[i].After
		}
	}
	return pf.Init
}

// observe returns the constraints an observation puts on path pf's
// variables.
func (mc *modelCase) observe(pf *vcgen.PathFormula, so stmtObservation, ro rowObservation) ir.Expr {
	at := mc.afterPrologue(pf)
	end := pf.Before(len(pf.Steps))
	var cs []ir.Expr
	eq := func(m map[*ir.Var]*ir.Var, v *ir.Var, val any) {
		if v == nil || val == nil {
			return
		}
		x, ok := m[v]
		if !ok {
			return
		}
		cs = append(cs, eqValue(x, val))
	}
	mc.observeArgs(at, so, func(e ir.Expr) { cs = append(cs, e) })
	if ro.initial != nil {
		for c, v := range mc.rcols {
			eq(at, v, ro.initial[c])
		}
	}
	for _, e := range mc.txErrs {
		if x, ok := end[e]; ok {
			cs = append(cs, ir.Not(x))
		}
	}
	for i, ms := range mc.steps {
		if i >= len(so.steps) {
			break
		}
		r := so.steps[i]
		if x, ok := end[ms.err]; ok {
			if r.failed {
				cs = append(cs, x)
			} else {
				cs = append(cs, ir.Not(x))
			}
		} else {
			// The path never reaches the step the engine ran.
			cs = append(cs, ir.False)
		}
		if r.failed {
			continue
		}
		if !so.ignoreAffected {
			eq(end, ms.aff, r.affected)
		}
		for j, t := range ms.tgts {
			if j < len(r.returned) {
				eq(end, t, r.returned[j])
			}
		}
	}
	if x, ok := end[mc.rexist]; ok && !ro.free {
		if ro.exists {
			cs = append(cs, x)
			for c, v := range mc.rcols {
				eq(end, v, ro.final[c])
			}
		} else {
			cs = append(cs, ir.Not(x))
		}
	}
	return ir.And(cs...)
}

// observeArgs constrains the statements' arguments to their values.
func (mc *modelCase) observeArgs(at map[*ir.Var]*ir.Var, so stmtObservation, add func(ir.Expr)) {
	for i, ms := range mc.steps {
		for j, in := range ms.inputs {
			if x, ok := at[in]; ok {
				add(ir.Eq(x, ir.IntLit(so.args[i][j])))
			}
		}
	}
}

// eqValue is "x = val" for a normalised engine value (false for a value
// the variable's sort cannot hold).
func eqValue(x *ir.Var, val any) ir.Expr {
	r, ok := ratValue(val)
	if !ok {
		return ir.True
	}
	if x.Type == ir.Int {
		if !r.IsInt() {
			return ir.False
		}
		return ir.Eq(x, ir.BigInt(r.Num()))
	}
	return ir.Eq(x, ir.RealLit(r))
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

// describeModel says what the model admits with the same arguments and r
// instantiated with ro.initial, when every statement succeeds: the values
// of up to three admitted runs (for the report of a divergence).
func (mc *modelCase) describeModel(s *smt.Solver, so stmtObservation, ro rowObservation) string {
	var runs []string
	for _, pf := range mc.paths {
		at := mc.afterPrologue(pf)
		end := pf.Before(len(pf.Steps))
		var cs []ir.Expr
		mc.observeArgs(at, so, func(e ir.Expr) { cs = append(cs, e) })
		if ro.initial != nil {
			for c, v := range mc.rcols {
				if x, ok := at[v]; ok && ro.initial[c] != nil {
					cs = append(cs, eqValue(x, ro.initial[c]))
				}
			}
		}
		for _, ms := range mc.steps {
			x, ok := end[ms.err]
			if !ok {
				cs = append(cs, ir.False)
				break
			}
			cs = append(cs, ir.Not(x))
		}
		for _, e := range mc.txErrs {
			if x, ok := end[e]; ok {
				cs = append(cs, ir.Not(x))
			}
		}
		if err := s.Reset(); err != nil {
			return err.Error()
		}
		if err := s.Assert(ir.And(pf.Formula(), ir.And(cs...))); err != nil {
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
		runs = append(runs, mc.render(pf, m))
		if len(runs) >= 3 {
			break
		}
	}
	s.Reset()
	sort.Strings(runs)
	if len(runs) == 0 {
		return "no run where every statement succeeds"
	}
	return strings.Join(runs, " | ")
}

// render prints the final values of one model run.
func (mc *modelCase) render(pf *vcgen.PathFormula, m *smt.Model) string {
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
	if mc.rexist != nil && val(mc.rexist) == "false" {
		parts = append(parts, "r deleted")
	} else {
		var cols []string
		for c := range mc.rcols {
			cols = append(cols, c)
		}
		sort.Strings(cols)
		var kv []string
		for _, c := range cols {
			kv = append(kv, c+"="+val(mc.rcols[c]))
		}
		parts = append(parts, "r=("+strings.Join(kv, ",")+")")
	}
	for i, ms := range mc.steps {
		if ms.aff != nil {
			parts = append(parts, fmt.Sprintf("s%d affected=%s", i+1, val(ms.aff)))
		}
		for j, t := range ms.tgts {
			parts = append(parts, fmt.Sprintf("s%d ret%d=%s", i+1, j+1, val(t)))
		}
	}
	return strings.Join(parts, " ")
}
