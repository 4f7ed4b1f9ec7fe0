package dbmodel

import (
	"fmt"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// Writes: UPDATE, INSERT (with ON CONFLICT / ON DUPLICATE KEY) and
// DELETE, applied to every live symbol of the table they write.

// lowerExec lowers a write: on a modelled table, the model of the table it
// names applies it to that table's symbols; on another table, only its
// outcome (error, rows affected, returned values) is arbitrary, except
// that an INSERT breaking a CHECK fails.
func (m *lowerer) lowerExec(e *ir.Edge, s *ir.Exec) error {
	var outcome []*ir.Var
	if s.Affected != nil {
		outcome = append(outcome, s.Affected)
	}
	outcome = append(outcome, nonNil(s.Targets)...)
	if s.NoRow != nil {
		outcome = append(outcome, s.NoRow)
	}
	em := m.errFork(e, s.Info, s.Err, nil, nil, outcome...)
	if m.refusedWrite(s) {
		em.assume(ir.False)
		em.jump(e.To)
		return nil
	}
	m.uniqueInsert(em, s)
	m.forgetInserted(em, s)
	t := m.model(writtenTable(s.SQL))
	if t == nil {
		if q, ok := s.SQL.(*sqlir.Insert); ok && q.FromSelect && s.Affected != nil {
			if !m.pinnedSourceCount(em, q, s) {
				m.insertCount(em, q, s.Affected, s.Info)
			}
		} else if s.Affected != nil {
			m.otherTableCount(em, s)
		}
		if q, ok := s.SQL.(*sqlir.Insert); ok {
			em.assume(m.insertChecks(em, q, s.Args))
			m.insertedReturning(em, q, s)
		}
		if q, ok := s.SQL.(*sqlir.Delete); ok {
			m.otherDeleteReturning(em, q, s)
		}
		em.jump(e.To)
		return nil
	}
	m.res.Writes++
	switch q := s.SQL.(type) {
	case *sqlir.Update:
		affected := m.returnedRows(s)
		ignore := q.Ignore && m.opt.Dialect == "mysql"
		m.update(em, t, updateSpec{set: q.Set, where: q.Where, args: s.Args, affected: affected,
			returning: q.Returning, targets: s.Targets, h: s.Tx, first: q.First, info: s.Info,
			ignore: ignore, skips: ignore && (m.setsKey(q.Table, q.Set) || m.checks(t.watched) != ir.True)})
		m.noRow(em, s, affected)
	case *sqlir.Insert:
		affected := m.returnedRows(s)
		if affected != nil {
			m.insertCount(em, q, affected, s.Info)
		}
		m.insert(em, t, q, s, affected)
		if affected != nil {
			m.noRow(em, s, affected)
		}
	case *sqlir.Delete:
		m.delete(em, t, q, s)
	}
	em.jump(e.To)
	return nil
}

// writtenTable returns the table an UPDATE, INSERT or DELETE writes ("":
// another statement).
func writtenTable(q sqlir.Statement) string {
	switch q := q.(type) {
	case *sqlir.Update:
		return q.Table
	case *sqlir.Insert:
		return q.Table
	case *sqlir.Delete:
		return q.Table
	}
	return ""
}

// delete clears the existence flag of every live symbol of t that where
// (nil: every row) selects.
func (m *lowerer) delete(em *emitter, t *tableModel, q *sqlir.Delete, s *ir.Exec) {
	where := q.Where
	flag := m.beginWrite(em, s.Tx, t)
	conflict, locked := m.lockConflict(em, s.Tx, t, where, s.Args)
	var lhs []*ir.Var
	var rhs []ir.Expr
	var changesR ir.Expr
	var all []ir.Expr
	for _, x := range t.syms {
		deleted := ir.And(x.exists, x.isLive(), m.where(where, x, s.Args))
		if x == t.watched {
			deleted = ir.And(deleted, ir.Not(locked))
			changesR = deleted
		}
		all = append(all, deleted)
		lhs = append(lhs, x.exists)
		rhs = append(rhs, ir.And(x.exists, ir.Not(deleted)))
	}
	em.havoc(m.takeFresh()...)
	returned := m.deletedMatches(em, q, s, all)
	m.touchR(em, s.Tx, flag, changesR, m.serialConflict(s.Tx, changesR, conflict))
	if s.Affected != nil {
		em.assume(ir.Cmp(ir.OpGe, s.Affected, ir.IntLit(0)))
	}
	em.assign(lhs, rhs)
	m.deletedReturning(em, t, q, s, returned)
	m.slotDelete(em, t)
	m.endWrite(em, s.Tx, t, flag)
}

// updateSpec is one UPDATE (or an upsert's conflict assignments) on a
// modelled table.
type updateSpec struct {
	set      []sqlir.Assignment
	where    sqlir.Expr // nil: every row
	args     []ir.Expr
	affected *ir.Var // rows affected, or nil
	// returning and targets: RETURNING items and the variables they are
	// read into.
	returning []sqlir.SelectItem
	targets   []*ir.Var
	// single is set when at most one row matches whatever the WHERE says
	// (the row an INSERT conflicts with, on one unique key).
	single bool
	// h is the handle the statement runs on.
	h ir.Tx
	// flag, for the conflict assignments of an upsert, is the INSERT's
	// "the write changes r" (the INSERT begins and ends the write).
	flag *ir.Var
	// first is the ORDER BY of UPDATE … ORDER BY … LIMIT 1 (firstRows),
	// info the statement's.
	first []sqlir.OrderTerm
	info  ir.Info
	// ignore: the assignments of MySQL's INSERT IGNORE … ON DUPLICATE KEY
	// UPDATE or UPDATE IGNORE, which store a value out of range clipped
	// and a NULL for a NOT NULL column as the implicit default
	// (insertignore.go). skips: an UPDATE IGNORE that sets a key column
	// or writes a table with CHECKs leaves a row whose new key duplicates
	// another's, or that would break a CHECK, as it was (updateignore.go).
	ignore, skips bool
	// keys: an upsert's unique keys in the order MySQL checks them
	// (conflictkeys.go), when it may conflict on several; firstKey, set
	// from them, selects the row it updates.
	keys     []conflictKey
	firstKey map[*symbol]ir.Expr
}

// update applies SET … WHERE … to every live symbol of t; RETURNING targets
// get the updated row's values when at most one row matches (the WHERE
// pins a key, or u.single).
func (m *lowerer) update(em *emitter, t *tableModel, u updateSpec) {
	flag := u.flag
	if flag == nil {
		flag = m.beginWrite(em, u.h, t)
	}
	conflict, locked := m.lockConflict(em, u.h, t, u.where, u.args)
	var lhs []*ir.Var
	var rhs []ir.Expr
	var matched, keyed, counted, ranges []ir.Expr
	key, kv := m.pinnedKey(t, u.where, u.args)
	chosen := m.firstRows(em, t, u)
	for x, c := range u.firstKey {
		chosen[x] = ir.And(chosen[x], c)
	}
	for _, x := range t.syms {
		where := m.where(u.where, x, u.args)
		match := ir.And(x.isLive(), x.exists, where, chosen[x], m.notSkipped(u, x))
		if x == t.watched {
			// r locked by another transaction: the write waits if r's
			// committed state matches (conflict), else leaves r alone.
			match = ir.And(match, ir.Not(locked))
		}
		matched = append(matched, match)
		if kv != nil {
			// x is the one row with the pinned key: the statement
			// changes it exactly when it satisfies the rest of the WHERE.
			keyed = append(keyed, ir.And(x.isLive(), x.exists, t.keyEq(x, key, kv)))
		}
		var diffs []ir.Expr
		for _, a := range u.set {
			col := strings.ToLower(a.Col)
			v := x.cols[col]
			val, fails := m.setValue(em, t, u, a, x, v.Type)
			for _, f := range fails {
				ranges = append(ranges, ir.Implies(match, f))
			}
			lhs = append(lhs, v)
			rhs = append(rhs, ir.IteOf(match, val, v))
			diffs = append(diffs, ir.Not(ir.Eq(val, v)))
			if g, null := m.assignNull(t, a.Col, a.Value, x, u.args); g != nil {
				lhs = append(lhs, g)
				rhs = append(rhs, ir.IteOf(match, null, g))
			}
		}
		counted = append(counted, m.countedRow(match, diffs, u.affected != nil && !m.read[u.affected]))
	}
	// dirty: unless the one row the statement can change is a live
	// symbol, rows the symbols do not track may have changed.
	touchedTracked := ir.Expr(ir.False)
	switch {
	case kv != nil:
		touchedTracked = ir.Or(keyed...)
	case u.single:
		// The only row changed is a symbol that matched, if one did.
		touchedTracked = ir.Or(matched...)
	}
	lhs = append(lhs, t.dirty, t.written)
	rhs = append(rhs, ir.Or(t.dirty, ir.Not(touchedTracked)), ir.True)
	em.havoc(m.takeFresh()...)
	m.touchR(em, u.h, flag, matched[0], m.serialConflict(u.h, matched[0], conflict))
	if u.affected != nil {
		cs := []ir.Expr{ir.Cmp(ir.OpGe, u.affected, ir.IntLit(0))}
		for i := range matched {
			cs = append(cs, ir.Implies(counted[i], ir.Cmp(ir.OpGe, u.affected, ir.IntLit(1))))
			if kv != nil {
				// RowsAffected of a key-pinned UPDATE is 1 if the row
				// with the key matched (MySQL: and changed), else 0.
				cs = append(cs, ir.Implies(ir.And(keyed[i], ir.Not(counted[i])), ir.Eq(u.affected, ir.IntLit(0))))
			}
		}
		if kv != nil {
			cs = append(cs, ir.Cmp(ir.OpLe, u.affected, ir.IntLit(1)), m.absentKey(t, key, kv, u.affected))
		}
		if m.opt.Dialect == "mysql" && m.read[u.affected] {
			// MySQL counts changed rows: a SET that can change no value
			// of any row counts none, tracked or not.
			if may := m.mayChange(u); may != ir.True {
				m.assumeChangedRows()
				cs = append(cs, ir.Implies(ir.Not(may), ir.Eq(u.affected, ir.IntLit(0))))
			}
		}
		em.assume(ir.And(cs...))
	}
	var conds []ir.Expr
	if (kv != nil || u.single) && len(u.targets) > 0 {
		// At most one row matches; remember which, to bind RETURNING.
		var ml []*ir.Var
		var mr []ir.Expr
		for _, mt := range matched {
			v := m.p.NewVar("$matched", ir.Bool, ir.Ghost)
			ml = append(ml, v)
			mr = append(mr, mt)
			conds = append(conds, v)
		}
		em.assign(ml, mr)
	}
	// The statement fails if a value it writes leaves its column's range
	// or is a NULL for a NOT NULL column.
	em.fact(ir.And(ranges...))
	updated := m.updatedMarks(em, t, matched)
	em.assign(lhs, rhs)
	// The statement fails if it would break a CHECK of the table: the
	// rows it wrote satisfy them.
	var checks []ir.Expr
	for i, x := range t.syms {
		if c := m.checks(x); c != ir.True {
			checks = append(checks, ir.Implies(ir.And(x.isLive(), x.exists), c))
		}
		if updated != nil {
			checks = append(checks, ir.Implies(updated[i], m.writtenChecks(x)))
		}
	}
	em.havoc(m.takeFresh()...)
	em.assume(ir.And(checks...))
	if conds != nil {
		m.bindReturning(em, u.returning, u.targets, t.syms, conds, u.args)
	}
	if u.flag == nil {
		m.endWrite(em, u.h, t, flag)
	}
}

// insert adds the rows of INSERT q. Each new row is either r or a row the
// symbols do not track; with ON CONFLICT / ON DUPLICATE KEY it may instead
// conflict with an existing row, which DO UPDATE assignments change (DO
// NOTHING: no change). RETURNING targets get the last row written: the
// inserted values, or the conflicting row as updated.
//
// A column the INSERT omits, or sets to DEFAULT, gets its default (see
// omitted); for INSERT … SELECT, or VALUES without a column list whose
// columns the schema does not give, every value is arbitrary.
func (m *lowerer) insert(em *emitter, t *tableModel, q *sqlir.Insert, s *ir.Exec, affected *ir.Var) {
	args, targets, info, h := s.Args, s.Targets, s.Info, s.Tx
	flag := m.beginWrite(em, h, t)
	rows := q.Rows
	if q.FromSelect {
		rows = [][]sqlir.Expr{nil}
	}
	// The rows of one plain INSERT have distinct keys where it succeeds
	// (a duplicate fails the whole statement: 1062, 23505, SQLite's
	// UNIQUE constraint failed): each new row is checked against the
	// statement's earlier ones (distinctRows).
	multi := !q.FromSelect && len(q.Rows) > 1 && !q.HasOnConflict && !q.OnConflictNothing && !q.Replace
	var earlier []*symbol
	arbiter := m.arbiterKey(t, q) // a multi-row upsert's (upsertrows.go)
	var skipped []*emitter        // SQLite's INSERT OR IGNORE: rows skipped for a CHECK
	for ri, row := range rows {
		last := ri == len(rows)-1
		// The new row's values, in ghost variables.
		vals, layoutKnown, none, facts := m.insertedValues(em, t, q, row, s, affected)
		newRow := &symbol{name: "new", table: t.name, cols: map[string]*ir.Var{}}
		var lhs []*ir.Var
		var rhs []ir.Expr
		for _, c := range t.cols {
			v := m.p.NewVar("new."+c, t.sorts[c], ir.Ghost)
			newRow.cols[c] = v
			val, ok := vals[c]
			if !ok {
				var fact ir.Expr
				if val, fact = m.unsetValue(t, q, c, v.Type, layoutKnown, info); fact != nil {
					facts = append(facts, fact)
				}
			}
			lhs = append(lhs, v)
			conv := m.convert(val, v.Type)
			switch {
			case ok && m.mysqlIgnore(q):
				// INSERT IGNORE stores a value out of the column's
				// range clipped to it.
				conv = m.clipped(t.name, c, conv)
			case ok:
				// The INSERT fails if a value it gives leaves its
				// column's range.
				facts = append(facts, m.inColumnRange(t.name, c, conv))
			}
			rhs = append(rhs, conv)
		}
		if m.omitsRequired(t, q) != "" {
			// A NOT NULL column without a DEFAULT is left out: the
			// row is never inserted (requiredcols.go).
			facts = append(facts, ir.False)
		}
		em.havoc(m.takeFresh()...)
		if len(facts) > 0 {
			em.assume(ir.And(facts...))
		}
		em.assign(lhs, rhs)
		// The INSERT fails if the new row breaks a CHECK; SQLite's INSERT
		// OR IGNORE skips it.
		check := m.writtenChecks(newRow)
		em.havoc(m.takeFresh()...)
		if m.opt.Dialect == "sqlite" && q.OrIgnore && check != ir.True {
			skipped = append(skipped, em.fork(ir.Not(check)))
		} else {
			em.assume(check)
		}
		// An upsert whose every possible conflict is on a key with a
		// generated column it omits (AUTO_INCREMENT, SQLite's rowid)
		// conflicts with no row: it is a plain INSERT (adv8 F5).
		fresh := (q.HasOnConflict || q.OnConflictNothing || q.Replace) && m.conflictFree(t, q)
		if plainInsert(q) || multi || fresh || q.FromSelect && !q.HasOnConflict && !q.OnConflictNothing && !q.Replace {
			// A plain INSERT of a key a row the symbols track has fails
			// (the error path above), it never succeeds.
			em.assume(ir.Not(m.keyClash(t, newRow)))
		}
		join := m.p.NewLoc()
		if arbiter != nil && m.failsOnSecondUpdate(q) {
			em.assume(t.arbiterDiffers(arbiter, newRow, earlier))
		}
		if (q.HasOnConflict || q.OnConflictNothing) && !fresh {
			cwhere, cargs, ckeys := m.conflictWhere(t, q, row, newRow, args)
			m.conflictPath(em, t, q, newRow, join, updateSpec{where: cwhere, args: cargs, single: true, h: h, flag: flag,
				set: conflictSet(q, ri), ignore: m.mysqlIgnore(q), keys: ckeys, info: info}, last, targets, singleCount(q, affected))
		}
		if n := singleCount(q, affected); n != nil {
			// The row is inserted: every engine counts it, 1.
			em.assume(ir.Eq(n, ir.IntLit(1)))
		}
		earlier = t.distinctRows(em, multi, arbiter, newRow, earlier)
		if last {
			// RETURNING sees the inserted row.
			m.bindReturning(em, q.Returning, targets, []*symbol{newRow}, []ir.Expr{ir.True}, args)
		}
		m.slotInserted(em, t)
		// Either r is the new row, or the new row is untracked.
		choice := m.p.NewVar("$r_is_new", ir.Bool, ir.Ghost)
		em.havoc(choice)
		other := em.fork(ir.Not(choice))
		m.touchR(em, h, flag, ir.True, m.heldByOther(h, t))
		lhs, rhs = nil, nil
		for _, c := range t.cols {
			lhs = append(lhs, t.watched.cols[c])
			rhs = append(rhs, newRow.cols[c])
		}
		lhs = append(lhs, t.watched.exists, t.dirty, t.written)
		// (INSERT … SELECT may insert other rows besides r.)
		rhs = append(rhs, ir.True, ir.Or(t.dirty, t.written, ir.BoolConst(q.FromSelect)), ir.True)
		em.assign(lhs, rhs)
		em.jump(join)
		// The new row is not r: later reads cannot rely on ψ.
		other.assume(m.slotInsert(t, newRow))
		other.assign([]*ir.Var{t.dirty, t.written}, []ir.Expr{ir.True, ir.True})
		other.jump(join)
		if none != nil {
			none.jump(join)
		}
		for _, sk := range skipped {
			sk.jump(join)
		}
		skipped = nil
		em.cur = join
	}
	m.endWrite(em, h, t, flag)
}

// mayChange is a condition, free of row values, without which u's SET
// leaves every row as it was: each assignment is col = col ± e (either way
// round for +), which changes the row exactly when e ≠ 0. Any other
// assignment may change a row (True). A generated MySQL program read 0
// rows affected from UPDATE … SET balance = balance + 0 while the model
// counted the untracked row it matched.
func (m *lowerer) mayChange(u updateSpec) ir.Expr {
	var alts []ir.Expr
	for _, a := range u.set {
		delta := relativeDelta(a)
		if delta == nil {
			return ir.True
		}
		e := m.expr(delta, nil, u.args)
		if e.Sort() != ir.Int {
			return ir.True
		}
		alts = append(alts, ir.Not(ir.Eq(e, ir.IntLit(0))))
	}
	return ir.Or(alts...)
}

// relativeDelta returns e of an assignment col = col + e, col = e + col or
// col = col - e with e free of columns (nil otherwise).
func relativeDelta(a sqlir.Assignment) sqlir.Expr {
	b, ok := a.Value.(*sqlir.Binary)
	if !ok || (b.Op != sqlir.OpAdd && b.Op != sqlir.OpSub) {
		return nil
	}
	self := func(e sqlir.Expr) bool {
		c, ok := e.(*sqlir.ColRef)
		return ok && strings.EqualFold(c.Name, a.Col)
	}
	switch {
	case self(b.X) && !mentionsColumn(b.Y):
		return b.Y
	case b.Op == sqlir.OpAdd && self(b.Y) && !mentionsColumn(b.X):
		return b.X
	}
	return nil
}

// keyClash is whether the new row has the key of a row of t the symbols
// track and know to exist (r, or a live symbol of a row read), on a key
// the model uses (the schema's, or the inferred id it states as an
// assumption).
func (m *lowerer) keyClash(t *tableModel, newRow *symbol) ir.Expr {
	var clashes []ir.Expr
	for _, y := range t.syms {
		same := t.sameRow(newRow, y)
		if same == ir.False {
			continue
		}
		var there ir.Expr = y.exists
		if y != t.watched {
			// A row read is known to be there while the symbol is live,
			// or while a lock of the reading transaction holds it.
			there = ir.And(ir.Or(y.isLive(), y.isHeld()), y.exists)
		}
		clashes = append(clashes, ir.And(there, same))
	}
	return ir.Or(clashes...)
}

// insertAffected returns what is known of the rows-affected count n of a
// successful INSERT q: a plain INSERT … VALUES inserts exactly its rows;
// with ON CONFLICT / ON DUPLICATE KEY / IGNORE, REPLACE or a SELECT, the
// count is only known not to be negative (MySQL counts an ON DUPLICATE KEY
// update as 2, an unchanged row as 0; REPLACE counts deleted rows too).
func insertAffected(q *sqlir.Insert, n *ir.Var) ir.Expr {
	if q.FromSelect || q.HasOnConflict || q.OnConflictNothing || q.Replace || len(q.Rows) == 0 {
		return ir.Cmp(ir.OpGe, n, ir.IntLit(0))
	}
	return ir.Eq(n, ir.IntLit(int64(len(q.Rows))))
}

// insertColumns returns the columns the values of row (of INSERT … VALUES
// q) go to, in order: q.Columns; without a column list, the schema's
// columns (Postgres fills the first ones, the rest get their defaults);
// none for an empty row (DEFAULT VALUES). ok is false when the columns
// are not known (no schema, or more values than columns).
func (m *lowerer) insertColumns(q *sqlir.Insert, row []sqlir.Expr) (cols []string, ok bool) {
	if len(q.Columns) > 0 {
		return q.Columns, true
	}
	if len(row) == 0 {
		return nil, true
	}
	t := m.schemaTable(q.Table)
	if t == nil || len(row) > len(t.Columns) {
		return nil, false
	}
	for _, c := range t.Columns[:len(row)] {
		cols = append(cols, c.Name)
	}
	return cols, true
}

// isDefaultKeyword reports whether e is the DEFAULT keyword of INSERT …
// VALUES.
func isDefaultKeyword(e sqlir.Expr) bool {
	u, ok := e.(*sqlir.Unknown)
	return ok && u.Default
}

// omitted returns the value column col of table t gets when
// the INSERT at info omits it (or writes DEFAULT), as a value of sort s,
// and a fact about it to assume (or nil):
//   - a constant DEFAULT of the schema: that constant;
//   - a sequence (serial, identity, AUTO_INCREMENT): an arbitrary value
//     of at least 1 (sequences start at 1 unless told otherwise);
//   - SQLite's rowid alias without AUTOINCREMENT: an arbitrary value (one
//     more than the largest rowid, which may be negative);
//   - another DEFAULT expression (now(), …), or a column the schema does
//     not describe: an arbitrary value;
//   - no DEFAULT: NULL, or (NOT NULL) the INSERT fails — on PostgreSQL
//     always (ON CONFLICT included: the NOT NULL check comes first), on
//     SQLite unless the INSERT may be an INSERT OR IGNORE (which skips
//     the row without an error), so the fact is false there; MySQL writes
//     an implicit default in non-strict mode and under INSERT IGNORE. The
//     model has no NULL: elsewhere the value is arbitrary, and marked
//     (ir.Var.Approx) so that a counterexample reading it is not reported
//     as certain.
func (m *lowerer) omitted(t *tableModel, col string, s ir.Sort, info ir.Info, q *sqlir.Insert) (ir.Expr, ir.Expr) {
	var sc *sqlir.Column
	if t.schema != nil {
		for i := range t.schema.Columns {
			if strings.EqualFold(t.schema.Columns[i].Name, col) {
				sc = &t.schema.Columns[i]
				break
			}
		}
	}
	switch {
	case sc == nil:
		return m.freshVar("$default_"+col, s), nil
	case m.opt.Dialect == "sqlite" && strings.EqualFold(t.schema.RowidAlias, col) && !sc.AutoIncrement:
		// A new rowid: one more than the largest, which may be < 1.
		return m.freshVar("$rowid_"+col, s), nil
	case sc.AutoIncrement:
		v := m.freshVar("$serial_"+col, s)
		if s == ir.Int {
			return v, ir.Cmp(ir.OpGe, v, ir.IntLit(1))
		}
		return v, nil
	case sc.Default != nil:
		return m.convert(m.expr(sc.Default, nil, nil), s), nil
	case sc.HasDefault:
		return m.freshVar("$default_"+col, s), nil
	}
	v := m.freshVar("$default_"+col, s)
	at := ""
	if pos := info.Position(); pos != "" {
		at = " at " + pos
	}
	// SQLite lets a PRIMARY KEY column without NOT NULL hold NULL.
	notNull := sc.NotNull && (m.opt.Dialect != "sqlite" || !sc.NotNullByKey)
	if notNull && (m.opt.Dialect == "postgres" || m.opt.Dialect == "sqlite" && !q.OrIgnore) {
		return v, ir.False
	}
	if notNull {
		v.Approx = fmt.Sprintf("column %s omitted by the INSERT%s: NOT NULL without DEFAULT, so the INSERT fails (MySQL non-strict mode and INSERT IGNORE, SQLite INSERT OR IGNORE: an implicit default or no row), not modelled", sc.Name, at)
	} else {
		v.Approx = fmt.Sprintf("column %s omitted by the INSERT%s: NULL, not modelled", sc.Name, at)
	}
	return v, nil
}

// sqlAnd returns x AND y (y when x is nil).
func sqlAnd(x, y sqlir.Expr) sqlir.Expr {
	if x == nil {
		return y
	}
	return &sqlir.Binary{Op: sqlir.OpAnd, X: x, Y: y}
}

// bindReturning constrains the RETURNING targets: when conds[i] holds, the
// returned row is rows[i] (in its current state).
func (m *lowerer) bindReturning(em *emitter, items []sqlir.SelectItem, targets []*ir.Var, rows []*symbol, conds []ir.Expr, args []ir.Expr) {
	if len(targets) == 0 {
		return
	}
	var facts []ir.Expr
	for i, x := range rows {
		var eqs []ir.Expr
		for j, it := range items {
			if j >= len(targets) || targets[j] == nil || it.Star || it.Expr == nil {
				continue
			}
			val := m.expr(it.Expr, x, args)
			eqs = append(eqs, ir.Eq(targets[j], m.convert(val, targets[j].Type)))
		}
		facts = append(facts, ir.Implies(conds[i], ir.And(eqs...)))
	}
	em.havoc(m.takeFresh()...)
	em.assume(ir.And(facts...))
}

// insertedValues returns the values row of INSERT q gives the columns it
// sets (INSERT … VALUES: row's; INSERT … SELECT: see selectedValues),
// whether the columns it omits are known (they get their defaults), and
// for an INSERT … SELECT whose source is followed, the branch on which it
// selects no row and what its source row satisfies.
func (m *lowerer) insertedValues(em *emitter, t *tableModel, q *sqlir.Insert, row []sqlir.Expr, s *ir.Exec, affected *ir.Var) (vals map[string]ir.Expr, layoutKnown bool, none *emitter, facts []ir.Expr) {
	vals = map[string]ir.Expr{}
	if !q.FromSelect {
		var cols []string
		cols, layoutKnown = m.insertColumns(q, row)
		var skip []ir.Expr
		for i, c := range cols {
			if i < len(row) && !isDefaultKeyword(row[i]) {
				vals[strings.ToLower(c)] = m.assigned(t, c, row[i], nil, s.Args)
				m.ignoredNull(t, q, c, row[i], s.Args, vals, s.Info)
				vals[strings.ToLower(c)] = m.untrackedNull(em, t, c, row[i], s.Args, vals[strings.ToLower(c)], s.Info)
				if _, null := m.assignNull(t, c, row[i], nil, s.Args); null != nil {
					vals[nullFlag(c)] = null
				}
				ok := m.notNullWritten(t, c, row[i], nil, s.Args)
				switch {
				case ok == ir.True, m.mysqlIgnore(q):
					// (INSERT IGNORE stores the implicit default.)
				case m.opt.Dialect == "sqlite" && q.OrIgnore:
					// SQLite's INSERT OR IGNORE skips the row, no error.
					skip = append(skip, ir.Not(ok))
				case m.opt.Dialect == "sqlite" && q.Replace && m.replacedNull(t, c, ok, vals, s.Info):
					// SQLite's OR REPLACE stores the column's DEFAULT.
				default:
					// A NULL for a NOT NULL column fails the INSERT: ON
					// CONFLICT DO NOTHING and MySQL's REPLACE too (checked
					// on the three engines: groundtruth TestIgnoreWrites).
					facts = append(facts, ok)
				}
			}
		}
		if len(skip) > 0 {
			em.havoc(m.takeFresh()...)
			none = em.fork(ir.Or(skip...))
		}
		return vals, layoutKnown, none, facts
	}
	cols, ok := m.selectColumns(q)
	if !ok {
		return vals, false, nil, nil
	}
	// INSERT … SELECT of known columns: the columns it omits get their
	// defaults; the others the select list's values on one source row
	// (insertselect.go), or arbitrary values.
	if src := m.selectedValues(em, t, q, s, cols, vals); src != nil {
		// With no source row, nothing is inserted.
		return vals, true, m.noSourceRow(em, affected, m.sourcePinned(q, s.Args)), []ir.Expr{src}
	}
	return vals, true, nil, nil
}

// noSourceRow forks em on whether the SELECT of an INSERT … SELECT
// selects no row: the branch returned inserts nothing (its rows-affected
// count, if read, is 0); em continues with one selected row (a count of
// at least 1: insertCount's approximation, kept where it is at least 1;
// exactly 1 when one says the SELECT selects at most one row, see
// sourcePinned).
func (m *lowerer) noSourceRow(em *emitter, affected *ir.Var, one bool) *emitter {
	empty := m.p.NewVar("$no_source_row", ir.Bool, ir.Ghost)
	em.havoc(empty)
	none := em.fork(empty)
	if affected != nil {
		none.assign([]*ir.Var{affected}, []ir.Expr{ir.IntLit(0)})
		count := ir.IteOf(ir.Cmp(ir.OpGe, affected, ir.IntLit(1)), affected, ir.IntLit(1))
		if one {
			count = ir.IntLit(1)
		}
		em.assign([]*ir.Var{affected}, []ir.Expr{count})
	}
	return none
}

// conflictPath forks an upsert (ON CONFLICT, ON DUPLICATE KEY) at em: on
// the conflict path, which continues at join, the key existed, and
// nothing happens (DO NOTHING) or the conflict assignments update the
// existing row, one row (the conflict is on one unique key; u gives the
// WHERE that selects it and the assignments); em continues with the
// insert path.
func (m *lowerer) conflictPath(em *emitter, t *tableModel, q *sqlir.Insert, newRow *symbol, join ir.Loc, u updateSpec, last bool, targets []*ir.Var, count *ir.Var) {
	conflicted := m.p.NewVar("$conflict", ir.Bool, ir.Ghost)
	em.havoc(conflicted)
	conflict := em.fork(conflicted)
	if count != nil && !q.HasOnConflict {
		// DO NOTHING (INSERT IGNORE) on a conflict: no row counted.
		conflict.assume(ir.Eq(count, ir.IntLit(0)))
	}
	if q.HasOnConflict {
		// (MySQL's INSERT IGNORE … ON DUPLICATE KEY UPDATE updates too.)
		if last {
			u.returning, u.targets = q.Returning, targets
		}
		if len(u.keys) > 1 {
			u.firstKey = m.firstConflicting(conflict, t, u)
		}
		m.update(conflict, t, u)
	}
	conflict.jump(join)
	// No conflict: no row the symbols track holds the new row's key (a
	// row read just before with that key makes the statement take the
	// conflict path, or fail). Stated as a fact: a key computed by code
	// the model approximates (a date formatted by time.Format) does not
	// make every insert path a read of the approximation; a replay
	// checks it.
	em.fact(ir.Not(m.keyClash(t, newRow)))
}
