package pipeline

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/report"
	"github.com/dbverify/dbverify/smt"
	"github.com/dbverify/dbverify/sqlir"
)

// checkInsert is a check-then-insert two requests race through, with the
// key values they both insert.
type checkInsert struct {
	read, insert ir.Info
	table        string
	cols         []string // the key columns, in the order of their placeholders
	vals         []string // their values in the witness
	why          string   // why the engine lets it happen (the isolation)
	locked       string   // the locks taken before the read, on different rows
	// unique is the schema's key that refuses the second row (nil: none);
	// schema says whether the table's schema is known.
	unique []string
	schema bool
}

// checkInsertFinder checks the INSERTs a pathWalker meets against the
// existence reads of the path.
type checkInsertFinder struct {
	txLevels
	schema *sqlir.Schema
	unique *uniqueHandling
	checks int
	s      *smt.Solver
	found  map[[2]*ir.Edge]bool
	out    []checkInsert
}

// checkInserts returns the check-then-inserts of prog (see checkinsert.go).
func checkInserts(prog *ir.Program, s *smt.Solver, dialect string, cfg Config, in *inputs) ([]checkInsert, error) {
	if dialect == "sqlite" {
		return nil, nil // transactions run one at a time
	}
	reads, inserts := checkInsertCandidates(prog)
	if len(inserts) == 0 {
		return nil, nil
	}
	f := &checkInsertFinder{txLevels: txLevels{prog: prog, dialect: dialect, override: cfg.Isolation, code: in.levels},
		schema: in.schema, unique: newUniqueHandling(cfg.Dir), s: s, found: map[[2]*ir.Edge]bool{}}
	w := newPathWalker(prog, reads, inserts, func() bool { return f.checks >= lostUpdateMaxChecks }, f.atInsert)
	if err := w.run(); err != nil {
		return nil, err
	}
	return f.out, nil
}

// atInsert checks INSERT w against each existence read of the path whose
// key it inserts.
func (f *checkInsertFinder) atInsert(st *pathState, w *rowAccess) error {
	for _, pr := range st.reads {
		k := [2]*ir.Edge{pr.r.edge, w.edge}
		if f.found[k] || !insertsKey(pr.r, w) || f.checks >= lostUpdateMaxChecks {
			continue
		}
		ci, ok := f.classify(pr, w)
		if !ok {
			continue
		}
		why, ok := f.unprotected(st, pr, w)
		if !ok {
			continue
		}
		locks, ok := heldThrough(st, pr)
		if !ok {
			continue
		}
		f.checks++
		vals, err := f.query(st, pr, w, locks, ci.cols)
		if err != nil {
			return err
		}
		if vals != nil {
			ci.vals, ci.why, ci.locked = vals, why, lockedNote(locks)
			f.out = append(f.out, *ci)
			f.found[k] = true
		}
	}
	return nil
}

// classify says what two inserts of one key do under the schema: no key
// refuses the second (duplicates), or one does and the code does not
// handle its violation; false: the violation is handled (or, without the
// table's schema, the code shows it expects one).
func (f *checkInsertFinder) classify(pr *pathRead, w *rowAccess) (*checkInsert, bool) {
	x := w.edge.Stmt.(*ir.Exec)
	ci := &checkInsert{read: pr.r.edge.Stmt.Source(), insert: x.Info, table: w.table, cols: keyColumns(pr.r)}
	var t *sqlir.Table
	if f.schema != nil {
		t = f.schema.Tables[w.table]
	}
	ci.schema = t != nil
	ci.unique = uniqueKeyWithin(t, ci.cols)
	if ci.schema && ci.unique == nil {
		q := x.SQL.(*sqlir.Insert)
		// ON CONFLICT (cols) with no key to arbitrate fails on every run.
		return ci, len(q.ConflictColumns) == 0 && q.ConflictConstraint == ""
	}
	return ci, f.unique.handled(x) == ""
}

// unprotected decides whether the engine lets two requests both read no
// row at pr and both insert at w, and why (the isolation); false: it
// does not, or it cannot be told.
func (f *checkInsertFinder) unprotected(st *pathState, pr *pathRead, w *rowAccess) (string, bool) {
	x := w.edge.Stmt.(*ir.Exec)
	if (x.Tx != 0 && st.open[x.Tx] == nil) || (pr.tx != 0 && pr.begin == nil) {
		return "", false // a handle whose transaction the path did not begin
	}
	readOpen := pr.tx != 0 && st.open[pr.tx] != nil && st.gen[pr.tx] == pr.gen
	if !readOpen || pr.tx != x.Tx {
		if readOpen {
			return "", false // the insert on another handle while the read's transaction is open (tx-escape)
		}
		return "the read and the insert are not in one transaction (the read commits before the insert runs), so at any isolation level " +
			"both requests may read before either inserts", true
	}
	iso, ok := f.level(pr.begin)
	if !ok || !commitReachable(f.prog, w.edge.To, x.Tx) {
		return "", false
	}
	sel := pr.r.edge.Stmt.(*ir.Select)
	locking := sel.SQL.ForUpdate || sel.SQL.ForShare
	switch {
	case f.dialect == "postgres" && iso.Level != Serializable && locking:
		return fmt.Sprintf("at %s (%s) a locking read of a missing row locks nothing, so neither request waits for the other "+
			"(SERIALIZABLE would fail one with 40001 instead)", iso.Level, iso.Source), true
	case f.dialect == "postgres" && iso.Level != Serializable:
		return fmt.Sprintf("at %s (%s) the second request's read does not see the first's row, not yet committed, and takes no lock "+
			"(SERIALIZABLE would fail one with 40001 instead)", iso.Level, iso.Source), true
	case f.dialect == "mysql" && iso.Level == ReadCommitted:
		return fmt.Sprintf("at READ COMMITTED (%s) InnoDB takes no gap lock, so a read of a missing row, locking or not, does not block "+
			"the other request's insert", iso.Source), true
	case f.dialect == "mysql" && iso.Level == RepeatableRead && !locking:
		return fmt.Sprintf("at REPEATABLE READ (%s) InnoDB's plain SELECT reads a snapshot and takes no lock (a locking read, FOR UPDATE, "+
			"would take a gap lock that blocks the other insert)", iso.Source), true
	}
	return "", false
}

// query asks, on the path, whether the INSERT runs only where the read
// found no row, then for two requests that read the same key, both find
// none and both insert it, locking different rows before their reads;
// it returns the key's values (nil: none, or the solver cannot tell).
func (f *checkInsertFinder) query(st *pathState, pr *pathRead, w *rowAccess, locks []rowLock, cols []string) ([]string, error) {
	x := w.edge.Stmt.(*ir.Exec)
	conds := append([]ir.Expr(nil), st.pc...)
	for c, v := range pr.key {
		conds = append(conds, ir.Eq(v, st.value(x.Args[w.writes[c]]))) // the row inserted has the key read
	}
	none, some := f.outcomes(pr)
	if none == nil {
		return nil, nil
	}
	z := ir.And(conds...)
	if unsat, err := f.unsat(ir.And(z, some)); err != nil || !unsat {
		return nil, err // the path inserts also when the row exists: no check
	}
	row := map[*ir.Var]bool{}
	for _, v := range pr.vals {
		row[v] = true
	}
	if pr.err != nil {
		row[pr.err] = true
	}
	z = ir.And(z, none)
	free := map[*ir.Var]bool{}
	ir.CollectVars(z, free)
	for _, e := range pr.key {
		ir.CollectVars(e, free)
	}
	for _, l := range locks {
		for _, e := range l.key {
			ir.CollectVars(e, free)
		}
	}
	mA, mB := requestCopy(free, row, "A"), requestCopy(free, row, "B")
	parts := []ir.Expr{ir.Substitute(z, mA), ir.Substitute(z, mB)}
	for _, v := range pr.key {
		parts = append(parts, ir.Eq(ir.Substitute(v, mA), ir.Substitute(v, mB))) // one key
	}
	for _, l := range locks {
		var differ []ir.Expr
		for _, v := range l.key {
			differ = append(differ, ir.Not(ir.Eq(ir.Substitute(v, mA), ir.Substitute(v, mB))))
		}
		parts = append(parts, ir.Or(differ...)) // the requests lock different rows
	}
	m, err := solveModel(f.s, ir.And(parts...), ir.True)
	if errors.Is(err, smt.ErrSort) {
		return nil, nil
	}
	if err != nil || m == nil {
		if err != nil {
			err = fmt.Errorf("check-then-insert at %s: %w", x.Info.Position(), err)
		}
		return nil, err
	}
	var vals []string
	for _, c := range cols {
		v, err := ir.Eval(ir.Substitute(pr.key[c], mA), m.Value)
		s := "?"
		if err == nil {
			s = v.String()
		}
		vals = append(vals, s)
	}
	return vals, nil
}

// outcomes returns the conditions "the read found no row" and "it found
// one" over the read's values (nil: not observed).
func (f *checkInsertFinder) outcomes(pr *pathRead) (none, some ir.Expr) {
	if n := pr.vals[countItem]; n != nil {
		var ok ir.Expr = ir.True
		if pr.err != nil {
			ok = ir.Not(pr.err)
		}
		return ir.And(ok, ir.Eq(n, ir.IntLit(0))), ir.And(ok, ir.Eq(n, ir.IntLit(1)))
	}
	if pr.err == nil {
		return nil, nil
	}
	// A row read fails (ErrNoRows, which the model does not tell from
	// other errors) where there is none.
	return pr.err, ir.Not(pr.err)
}

// unsat reports whether e is unsatisfiable (false: satisfiable or the
// solver cannot tell).
func (f *checkInsertFinder) unsat(e ir.Expr) (bool, error) {
	f.s.Push()
	defer f.s.Pop()
	if err := f.s.Assert(e); err != nil {
		if errors.Is(err, smt.ErrSort) {
			return false, nil
		}
		return false, err
	}
	res, err := f.s.Check()
	return err == nil && res == smt.Unsat, err
}

// checkInsertFindings returns the check-then-insert findings of the jobs'
// programs: one per (read, insert) pair, with the first entry that runs
// it.
func checkInsertFindings(jobs []job, cfg Config, in *inputs) ([]report.Finding, error) {
	return programFindings(jobs, cfg, "check-then-insert check", func(prog *ir.Program, s *smt.Solver, dialect string) ([]report.Finding, error) {
		cis, err := checkInserts(prog, s, dialect, cfg, in)
		var out []report.Finding
		for _, ci := range cis {
			out = append(out, report.Finding{Class: report.FindingCheckInsert, Position: ci.insert.Position(), Related: ci.read.Position(), Message: ci.message()})
		}
		return out, err
	})
}

// message names the read, the insert, the key values, what the engine
// lets happen and why, and the fixes.
func (ci *checkInsert) message() string {
	var kv []string
	for i, c := range ci.cols {
		kv = append(kv, c+" "+ci.vals[i])
	}
	cols := strings.Join(ci.cols, ", ")
	race := fmt.Sprintf("%q inserts a %s row after %q at %s found none, with no lock that blocks a concurrent insert of that key held from the "+
		"read to the insert%s: both requests read no %s row for (%s) and both insert one; %s",
		ci.insert.Text, ci.table, ci.read.Text, ci.read.Position(), ci.locked, ci.table, strings.Join(kv, ", "), ci.why)
	switch {
	case ci.unique != nil:
		return fmt.Sprintf("%s. The schema's key (%s) refuses the second row: that request's INSERT fails with a unique violation (PostgreSQL 23505, "+
			"MySQL 1062) the code does not handle (no ON CONFLICT / INSERT IGNORE, no check of the error's code after the insert). "+
			"Insert with ON CONFLICT DO NOTHING / INSERT IGNORE and check RowsAffected, or check the error for a unique violation",
			race, strings.Join(ci.unique, ", "))
	case ci.schema:
		return fmt.Sprintf("%s: duplicate %s rows for (%s), as the schema declares no PRIMARY KEY or UNIQUE key within (%s). "+
			"Declare one (UNIQUE (%s)) and handle its violation (ON CONFLICT DO NOTHING / INSERT IGNORE, or the error's code), "+
			"or lock a row both requests share before the read (a parent row FOR UPDATE)", race, ci.table, strings.Join(kv, ", "), cols, cols)
	}
	return fmt.Sprintf("%s: duplicate %s rows for (%s) if no PRIMARY KEY or UNIQUE key lies within (%s); with one (no schema of %s was given) "+
		"the second INSERT fails with a unique violation the code does not handle (no ON CONFLICT / INSERT IGNORE, no check of the error's code "+
		"after the insert). Declare UNIQUE (%s) and handle its violation (ON CONFLICT DO NOTHING / INSERT IGNORE, or the error's code)",
		race, ci.table, strings.Join(kv, ", "), cols, ci.table, cols)
}
