package dbmodel

import (
	"fmt"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// Whether a write with RETURNING returned a row, for a single-row Scan of
// it (ir.Exec.NoRow: none is ErrNoRows). An UPDATE or INSERT on a modelled
// table returns one row per row it wrote, so "no row" is "rows affected
// = 0" (as PostgreSQL counts them: the rows matched); elsewhere it stays
// arbitrary.

// returnedRows returns the variable counting the rows s writes: its rows
// affected, or, when the program reads only whether it returned a row, a
// ghost (nil: neither is read).
func (m *lowerer) returnedRows(s *ir.Exec) *ir.Var {
	if s.Affected != nil || s.NoRow == nil {
		return s.Affected
	}
	return m.p.NewVar("$returnedRows", ir.Int, ir.Ghost)
}

// noRow ties s.NoRow to the rows s wrote (affected).
func (m *lowerer) noRow(em *emitter, s *ir.Exec, affected *ir.Var) {
	if s.NoRow == nil || affected == nil {
		return
	}
	em.assume(ir.Eq(s.NoRow, ir.Eq(affected, ir.IntLit(0))))
}

// insertCount sets what is known of the rows-affected count n of a
// successful INSERT q (insertAffected). The count of INSERT … SELECT is
// decided by the SELECT, which the model does not follow: it is an
// approximation (assigned, not assumed, so that only a path whose
// conditions read it is marked).
func (m *lowerer) insertCount(em *emitter, q *sqlir.Insert, n *ir.Var, info ir.Info) {
	if !q.FromSelect {
		em.assume(insertAffected(q, n))
		return
	}
	v := m.p.NewVar("$selectedRows", ir.Int, ir.Ghost)
	v.Approx = fmt.Sprintf("the number of rows the INSERT … SELECT at %s inserts (its SELECT is not modelled)", info.Position())
	em.havoc(v)
	em.assign([]*ir.Var{n}, []ir.Expr{ir.IteOf(ir.Cmp(ir.OpGe, v, ir.IntLit(0)), v, ir.Neg(v))})
}

// countedRow returns when a row that the UPDATE matches (match) counts in
// its rows affected: PostgreSQL and SQLite count the rows matched; MySQL
// the rows changed (diffs: the SET assignments that change a value), and
// a matched row left unchanged counts only with the client flag
// CLIENT_FOUND_ROWS, which the model does not know: it is then unknown.
//
// A count the program never reads (unread) constrains no execution; it
// keeps the matched rows, as a hint for the trace and its replay, without
// MySQL's "the SET changes a value", whose atoms reached the refinement,
// which then failed to prove a loop it proved without them
// (booking/promote_waitlist_safe).
func (m *lowerer) countedRow(match ir.Expr, diffs []ir.Expr, unread bool) ir.Expr {
	if m.opt.Dialect != "mysql" || unread {
		return match
	}
	m.assumeChangedRows()
	return ir.And(match, ir.Or(diffs...))
}

// assumeChangedRows states the MySQL client setting the model's
// rows-affected counts rely on.
func (m *lowerer) assumeChangedRows() {
	m.assume("MySQL RowsAffected counts changed rows (the driver's default; a DSN with clientFoundRows=true counts matched rows)")
}

// otherTableCount sets the rows-affected count of a write s on a table the
// model does not track (the constraint does not watch it): any count is
// possible for some initial database, but not together with the values
// the program reads from the same table, which are not tied to it (a
// SELECT of the row, then UPDATE … WHERE id = $1 AND balance >= $2: the
// count is 1 exactly when the balance read covers it). Where the program
// both reads the count and SELECTs that table, the count is an
// approximation (a counterexample that depends on it is UNKNOWN, not
// UNSAFE); elsewhere it is exact. An INSERT's count is insertAffected's,
// as on a tracked table: a successful INSERT … VALUES inserts its rows
// (it was only non-negative, and every trace of an INSERT into a table
// the constraint does not watch said rowsAffected = 0: adv17 ledger).
func (m *lowerer) otherTableCount(em *emitter, s *ir.Exec) {
	table := writtenTable(s.SQL)
	if q, isInsert := s.SQL.(*sqlir.Insert); isInsert {
		em.assume(insertAffected(q, s.Affected))
		return
	}
	if !m.read[s.Affected] || !m.selected[strings.ToLower(table)] {
		em.assume(ir.Cmp(ir.OpGe, s.Affected, ir.IntLit(0)))
		return
	}
	v := m.p.NewVar("$otherRows", ir.Int, ir.Ghost)
	v.Approx = fmt.Sprintf("the rows-affected count of the write at %s on table %s, which the program also reads: "+
		"the model does not track that table's rows, so the count is not tied to the values read", s.Info.Position(), table)
	em.havoc(v)
	em.assign([]*ir.Var{s.Affected}, []ir.Expr{ir.IteOf(ir.Cmp(ir.OpGe, v, ir.IntLit(0)), v, ir.Neg(v))})
}

// insertedReturning binds the RETURNING targets of a single-row INSERT …
// VALUES on a table the property does not watch to the values it inserts:
// the row returned is the row as inserted. They were arbitrary: INSERT
// INTO streaks (user_id, days) VALUES ($1, 1) RETURNING days scanned any
// days, and points = points + days went negative in a counterexample no
// run has (independent tester adv10 m2). A column the INSERT does not
// give (a DEFAULT, a serial key), an expression over columns, a value that
// may be NULL and an upsert's row (the existing row as updated) stay
// arbitrary, as every value of a table the property does not watch.
func (m *lowerer) insertedReturning(em *emitter, q *sqlir.Insert, s *ir.Exec) {
	if q.FromSelect || len(q.Rows) != 1 || q.HasOnConflict || q.OnConflictNothing || q.Replace || len(q.Returning) == 0 {
		return
	}
	row := q.Rows[0]
	given := map[string]sqlir.Expr{}
	for i, c := range q.Columns {
		if i < len(row) && !isDefaultKeyword(row[i]) && m.neverNull(row[i], nil, s.Args) {
			given[strings.ToLower(c)] = row[i]
		}
	}
	var facts []ir.Expr
	for j, it := range q.Returning {
		if j >= len(s.Targets) || s.Targets[j] == nil || it.Star {
			continue
		}
		ref, ok := it.Expr.(*sqlir.ColRef)
		if !ok {
			continue
		}
		val, ok := given[strings.ToLower(ref.Name)]
		if !ok {
			continue
		}
		target := s.Targets[j]
		facts = append(facts, ir.Eq(target, m.convert(m.expr(val, nil, s.Args), target.Type)))
	}
	em.havoc(m.takeFresh()...)
	em.assume(ir.And(facts...))
}

// singleCount is the rows-affected count n of INSERT q when q writes
// one row given by VALUES and its count is 1 where it inserts that row
// (nil otherwise): a plain INSERT, ON CONFLICT DO NOTHING / DO UPDATE,
// INSERT IGNORE and ON DUPLICATE KEY UPDATE on their inserting path
// (insertAffected leaves the count of an upsert only non-negative, and a
// trace printed rowsAffected = 0 for an INSERT … ON CONFLICT DO NOTHING
// that inserted the violating row). REPLACE counts the rows it deletes
// too.
func singleCount(q *sqlir.Insert, n *ir.Var) *ir.Var {
	if n == nil || q.FromSelect || q.Replace || len(q.Rows) != 1 {
		return nil
	}
	return n
}
