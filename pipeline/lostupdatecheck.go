package pipeline

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/report"
	"github.com/dbverify/dbverify/smt"
	"github.com/dbverify/dbverify/spec"
)

// lostUpdate is a read-modify-write that loses a concurrent update, with
// the values of two requests that show it.
type lostUpdate struct {
	read, write ir.Info
	table, col  string
	why         string // why the engine lets it happen (the isolation)
	// locked lists the locks the requests take before the read, on
	// different rows ("" if none).
	locked string
	// v0 is the value both requests read; a and b what they write (b
	// last); ab and ba the final value of the serial orders.
	v0, a, b, ab, ba string
}

// lostUpdateFinder checks the candidate writes a pathWalker meets
// against the reads of the path.
type lostUpdateFinder struct {
	txLevels
	checks int
	s      *smt.Solver
	found  map[[2]*ir.Edge]bool
	out    []lostUpdate
	// invariants are the run's row constraints, which the example's row
	// preferably keeps (lostupdateinv.go).
	invariants []*spec.RowCheck
}

// lostUpdates returns the lost updates of prog (see lostupdate.go).
func lostUpdates(prog *ir.Program, s *smt.Solver, dialect, override string, code *codeLevels, checks []*spec.RowCheck) ([]lostUpdate, error) {
	if dialect == "sqlite" {
		return nil, nil // transactions run one at a time
	}
	reads, writes := lostUpdateCandidates(prog)
	if len(writes) == 0 {
		return nil, nil
	}
	f := &lostUpdateFinder{txLevels: txLevels{prog: prog, dialect: dialect, override: override, code: code}, s: s, found: map[[2]*ir.Edge]bool{}, invariants: checks}
	w := newPathWalker(prog, reads, writes, func() bool { return f.checks >= lostUpdateMaxChecks }, f.atWrite)
	if err := w.run(); err != nil {
		return nil, err
	}
	return f.out, nil
}

// atWrite checks the candidate write w against each read of the path
// whose row and column it writes back.
func (f *lostUpdateFinder) atWrite(st *pathState, w *rowAccess) error {
	for _, pr := range st.reads {
		k := [2]*ir.Edge{pr.r.edge, w.edge}
		if f.found[k] || !pairs(pr.r, w) {
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
		for _, col := range sortedColumns(w.writes) {
			if pr.vals[col] == nil || f.checks >= lostUpdateMaxChecks {
				continue
			}
			f.checks++
			lu, err := f.query(st, pr, w, col, locks)
			if err != nil {
				return err
			}
			if lu != nil {
				lu.why, lu.locked = why, lockedNote(locks)
				f.out = append(f.out, *lu)
				f.found[k] = true
				break
			}
		}
	}
	return nil
}

func sortedColumns(m map[string]int) []string {
	var out []string
	for c := range m {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// heldThrough returns the row locks the request held when it read pr
// and still holds (their transactions open since): if the other request
// needs one of them before its read, the two are serialized. False: a
// lock not pinned by key.
func heldThrough(st *pathState, pr *pathRead) ([]rowLock, bool) {
	var out []rowLock
	for _, l := range pr.locks {
		if st.open[l.tx] == nil || st.gen[l.tx] != l.gen {
			continue // released between the read and the write
		}
		if l.any {
			return nil, false
		}
		out = append(out, l)
	}
	return out, true
}

// unprotected decides whether the engine lets the read pr and the write w
// of the path lose an update, and why (the isolation); false: it does
// not, or it cannot be told.
func (f *lostUpdateFinder) unprotected(st *pathState, pr *pathRead, w *rowAccess) (string, bool) {
	x := w.edge.Stmt.(*ir.Exec)
	if (x.Tx != 0 && st.open[x.Tx] == nil) || (pr.tx != 0 && pr.begin == nil) {
		return "", false // a handle whose transaction the path did not begin
	}
	readOpen := pr.tx != 0 && st.open[pr.tx] != nil && st.gen[pr.tx] == pr.gen
	sameTx := readOpen && pr.tx == x.Tx
	if !sameTx {
		if readOpen {
			return "", false // the write on another handle while the read's transaction is open (tx-escape)
		}
		if b := st.open[x.Tx]; x.Tx != 0 && f.dialect == "postgres" {
			if iso, ok := f.level(b); !ok || iso.Level != ReadCommitted {
				return "", false // a snapshot taken before the read may make the write fail (40001)
			}
		}
		return "the read and the write are not in one transaction (the read commits before the write runs), so at any isolation level " +
			"both requests may read the value before either writes it", true
	}
	iso, ok := f.level(pr.begin)
	if !ok || !commitReachable(f.prog, w.edge.To, x.Tx) {
		return "", false
	}
	var why string
	switch {
	case f.dialect == "postgres" && iso.Level == ReadCommitted:
		why = fmt.Sprintf("at READ COMMITTED (%s) the second request's SELECT reads the committed value and its UPDATE then overwrites the first "+
			"request's (REPEATABLE READ or SERIALIZABLE would fail it with 40001 instead)", iso.Source)
	case f.dialect == "mysql" && iso.Level != Serializable:
		why = fmt.Sprintf("at %s (%s) InnoDB's plain SELECT takes no lock and its UPDATE writes the newest row version without a conflict check "+
			"(SERIALIZABLE would make the read a shared lock)", iso.Level, iso.Source)
	default:
		return "", false
	}
	return why, true
}

// txLevels tells the isolation level of a program's transactions.
type txLevels struct {
	prog     *ir.Program
	dialect  string
	override string // --isolation
	code     *codeLevels
}

// level is the isolation level of the transaction begun at b (false: set
// by options the code does not show).
func (f *txLevels) level(b *ir.TxOp) (report.Isolation, bool) {
	if f.override != "" {
		return report.Isolation{Level: f.override, Source: "--isolation"}, true
	}
	if iso, ok := sqliteLevel(f.dialect, f.code, b); ok {
		return iso, true
	}
	if lv, source, ok := f.code.begun(b); ok {
		return report.Isolation{Level: lv, Source: source}, true
	}
	if b.Options {
		return report.Isolation{}, false
	}
	if set := setTransaction(f.prog, f.dialect, b); set.Level != "" {
		return set, true
	}
	def := dialectDefault(f.dialect)
	def.Source += " for the transaction at " + b.Info.Position()
	return def, true
}

// query asks for two requests on the path that both read the row's
// column col, whose last write (B's) differs from the final value of both
// serial orders, and that do not lock a common row before their reads
// (locks); nil when there are none (or the solver cannot tell).
func (f *lostUpdateFinder) query(st *pathState, pr *pathRead, w *rowAccess, col string, locks []rowLock) (*lostUpdate, error) {
	x := w.edge.Stmt.(*ir.Exec)
	wkey := st.keyValues(w.key, x.Args)
	conds := append([]ir.Expr(nil), st.pc...)
	if pr.err != nil {
		conds = append(conds, ir.Not(pr.err)) // the row was found
	}
	for c, v := range pr.key {
		conds = append(conds, ir.Eq(v, wkey[c])) // the write's row is the read's
	}
	z := ir.And(conds...)
	written := map[string]ir.Expr{}
	for c, i := range w.writes {
		if pr.vals[c] != nil {
			written[c] = st.value(x.Args[i])
		}
	}
	row := map[*ir.Var]bool{}
	for _, v := range pr.vals {
		row[v] = true
	}
	free := map[*ir.Var]bool{}
	ir.CollectVars(z, free)
	for _, e := range written {
		ir.CollectVars(e, free)
	}
	for _, e := range pr.key {
		ir.CollectVars(e, free)
	}
	for _, l := range locks {
		for _, e := range l.key {
			ir.CollectVars(e, free)
		}
	}
	mA, mB := requestCopy(free, row, "A"), requestCopy(free, row, "B")
	wA, wB := substAll(written, mA), substAll(written, mB)
	mBA, mAB := withRow(mB, pr.vals, wA), withRow(mA, pr.vals, wB) // B after A, A after B
	wBA, wAB := substAll(written, mBA), substAll(written, mAB)
	parts := []ir.Expr{ir.Substitute(z, mA), ir.Substitute(z, mB), ir.Substitute(z, mBA), ir.Substitute(z, mAB),
		ir.Not(ir.Eq(wB[col], wBA[col])), ir.Not(ir.Eq(wB[col], wAB[col]))}
	for _, v := range pr.key {
		parts = append(parts, ir.Eq(ir.Substitute(v, mA), ir.Substitute(v, mB))) // one row
	}
	for _, l := range locks {
		var differ []ir.Expr
		for _, v := range l.key {
			differ = append(differ, ir.Not(ir.Eq(ir.Substitute(v, mA), ir.Substitute(v, mB))))
		}
		parts = append(parts, ir.Or(differ...)) // the requests lock different rows
	}
	// Preferably from a row that keeps the run's constraints, and both
	// requests change the value (the plainest witness).
	changes := ir.And(ir.Not(ir.Eq(wA[col], pr.vals[col])), ir.Not(ir.Eq(wB[col], pr.vals[col])))
	inv := rowInvariant(f.invariants, w.table, pr.vals)
	m, err := solveModel(f.s, ir.And(parts...), ir.And(inv, changes), inv, changes)
	if errors.Is(err, smt.ErrSort) {
		return nil, nil // values the row model does not compare (a bool column keyed by a number): no finding
	}
	if err != nil || m == nil {
		if err != nil {
			err = fmt.Errorf("lost update at %s: %w", w.edge.Stmt.Source().Position(), err)
		}
		return nil, err
	}
	val := func(e ir.Expr) string {
		v, err := ir.Eval(e, m.Value)
		if err != nil {
			return "?"
		}
		return v.String()
	}
	return &lostUpdate{read: pr.r.edge.Stmt.Source(), write: w.edge.Stmt.Source(), table: w.table, col: col,
		v0: val(pr.vals[col]), a: val(wA[col]), b: val(wB[col]), ab: val(wBA[col]), ba: val(wAB[col])}, nil
}

// solveModel returns a model of base and the first of preferred it
// satisfies, else of base (nil: none, or the solver cannot tell).
func solveModel(s *smt.Solver, base ir.Expr, preferred ...ir.Expr) (*smt.Model, error) {
	s.Push()
	defer s.Pop()
	if err := s.Assert(base); err != nil {
		return nil, err
	}
	for _, extra := range append(preferred, ir.True) {
		s.Push()
		err := s.Assert(extra)
		var res smt.Result
		if err == nil {
			res, err = s.Check()
		}
		var m *smt.Model
		if err == nil && res == smt.Sat {
			m, err = s.Model()
		}
		s.Pop()
		if err != nil || m != nil {
			return m, err
		}
	}
	return nil, nil
}

// requestCopy renames the free variables of a path for one request
// (name prefixed), keeping the row's values shared.
func requestCopy(free, row map[*ir.Var]bool, name string) map[*ir.Var]ir.Expr {
	m := map[*ir.Var]ir.Expr{}
	for v := range free {
		if !row[v] {
			m[v] = &ir.Var{Name: name + "." + v.Name, Type: v.Type, Kind: ir.Ghost}
		}
	}
	return m
}

// withRow returns m where the row's columns read hold the values the
// other request wrote (it ran first).
func withRow(m map[*ir.Var]ir.Expr, vals map[string]*ir.Var, written map[string]ir.Expr) map[*ir.Var]ir.Expr {
	out := make(map[*ir.Var]ir.Expr, len(m)+len(written))
	for k, v := range m {
		out[k] = v
	}
	for c, e := range written {
		out[vals[c]] = e
	}
	return out
}

func substAll(es map[string]ir.Expr, m map[*ir.Var]ir.Expr) map[string]ir.Expr {
	out := map[string]ir.Expr{}
	for c, e := range es {
		out[c] = ir.Substitute(e, m)
	}
	return out
}

// lostUpdateFindings returns the lost-update findings of the jobs'
// programs: one per (read, write) pair, with the first entry that runs
// it.
func lostUpdateFindings(jobs []job, cfg Config, code *codeLevels) ([]report.Finding, error) {
	checks := rowChecks(jobs)
	return programFindings(jobs, cfg, "lost-update check", func(prog *ir.Program, s *smt.Solver, dialect string) ([]report.Finding, error) {
		lus, err := lostUpdates(prog, s, dialect, cfg.Isolation, code, checks)
		var out []report.Finding
		for _, lu := range lus {
			out = append(out, report.Finding{Class: report.FindingLostUpdate, Position: lu.write.Position(), Related: lu.read.Position(), Message: lu.message()})
		}
		return out, err
	})
}

// programFindings runs find on each program of the jobs once, with one
// solver, and returns its findings (one per position and related
// position), each with the first entry that runs it.
func programFindings(jobs []job, cfg Config, what string, find func(*ir.Program, *smt.Solver, string) ([]report.Finding, error)) ([]report.Finding, error) {
	s, err := newSolver(cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer releaseSolver(cfg, s)
	var out []report.Finding
	seen := map[string]bool{}
	done := map[*ir.Program]bool{}
	for _, j := range jobs {
		if done[j.prog] {
			continue
		}
		done[j.prog] = true
		fs, err := find(j.prog, s, progDialect(cfg, j.prog))
		if err != nil {
			return nil, err
		}
		for _, f := range fs {
			k := f.Position + " " + f.Related
			if seen[k] {
				continue
			}
			seen[k] = true
			f.Entry = j.entry
			out = append(out, f)
		}
	}
	return out, nil
}

// lockedNote says which locks taken before the read do not order the
// two requests.
func lockedNote(locks []rowLock) string {
	if len(locks) == 0 {
		return ""
	}
	var at []string
	for _, l := range locks {
		at = append(at, fmt.Sprintf("%s at %s", l.table, l.at.Position()))
	}
	return fmt.Sprintf(" (the row locks taken before the read, of %s, order two requests only when they lock the same rows)", strings.Join(dedupe(at), ", "))
}

// message says which read, which write, the values of two requests that
// lose an update, why the isolation level lets them, and the fixes.
func (lu *lostUpdate) message() string {
	serial := fmt.Sprintf("end at %s or %s", lu.ab, lu.ba)
	if lu.ab == lu.ba {
		serial = fmt.Sprintf("end at %s either way", lu.ab)
	}
	writes := fmt.Sprintf("write %s and %s", lu.a, lu.b)
	if lu.a == lu.b {
		writes = "both write " + lu.a
	}
	return fmt.Sprintf("%q writes back %s.%s computed in Go from %q at %s, with no lock of the row held from the read to the write%s: "+
		"two requests that both read %s %s and %s end at %s, as the second write overwrites the first (one after the other they %s); %s. "+
		"Write relative to the current value (SET %s = %s + …), lock the row on the read (FOR UPDATE), or check that it did not change "+
		"(AND %s = $old, or a version column, with RowsAffected checked)",
		lu.write.Text, lu.table, lu.col, lu.read.Text, lu.read.Position(), lu.locked, lu.col, lu.v0, writes, lu.b, serial, lu.why,
		lu.col, lu.col, lu.col)
}
