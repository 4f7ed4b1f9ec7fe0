package dbmodel

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// The row an upsert without a conflict target updates, on a table with
// several unique keys. MariaDB's INSERT … ON DUPLICATE KEY UPDATE checks
// the PRIMARY KEY first, then the UNIQUE keys without a nullable column
// in their order, then the other UNIQUE keys; the first key on which a
// row has the new row's values gives the row it updates (groundtruth
// TestUpsertConflictKeyOrder). A row the symbols track is updated
// through key i only if no row matches the new row on an earlier key:
// neither a row the symbols track nor, a choice of the model, a row they
// do not track. That choice is exact while nothing the path observed
// decides it; where an observation may (a read, UPDATE or DELETE of the
// table may have seen that no row has it; a row the symbols no longer track
// may have it), the value chosen is an approximation, so that a
// counterexample relying on it is UNKNOWN (issue 8: the model updated
// the api_key's row where MariaDB updated the PRIMARY KEY's).

// conflictKey is one unique key an upsert may conflict on: its columns
// and "the row has the new row's values there".
type conflictKey struct {
	cols  []string
	match sqlir.Expr
}

// conflictWhere returns the condition that selects the row an INSERT
// conflicts with: the conflict target's columns (Postgres ON CONFLICT
// (cols), a unique index) equal to the inserted values; else, when the
// table has one unique key, that key's columns; with several (MySQL's ON
// DUPLICATE KEY conflicts on any of them) a row equal to the new one on
// at least one key (adv7 F2: the update hit a row that conflicted on
// neither), and on MySQL the keys in the order the engine checks them
// (firstConflicting picks the row; elsewhere which one is the model's
// choice). Otherwise (no key known, a key value not given) an arbitrary
// row.
func (m *lowerer) conflictWhere(t *tableModel, q *sqlir.Insert, row []sqlir.Expr, newRow *symbol, args []ir.Expr) (sqlir.Expr, []ir.Expr, []conflictKey) {
	unknown := &sqlir.Unknown{Text: conflictingRow}
	if q.FromSelect {
		return unknown, args, nil
	}
	// A key column the INSERT omits gets the new row's value (a sequence's,
	// a DEFAULT), bound as an extra argument: a PostgreSQL sequence's next
	// value (at least 1) may be an existing row's id.
	out := args
	omitted := func(col string) sqlir.Expr {
		v, ok := newRow.cols[strings.ToLower(col)]
		if !ok {
			return nil
		}
		out = append(slices.Clip(out), v)
		return &sqlir.Param{Index: len(out) - 1}
	}
	where, keys, ok := m.conflictMatch(t, q, row, omitted, unknown)
	if !ok {
		return unknown, args, nil
	}
	return where, out, keys
}

// conflictMatch is conflictWhere's condition, key columns the INSERT
// omits read through omitted, and the keys in the engine's order where
// MySQL's does the choosing; false where no row can be named.
func (m *lowerer) conflictMatch(t *tableModel, q *sqlir.Insert, row []sqlir.Expr, omitted func(string) sqlir.Expr, unknown sqlir.Expr) (sqlir.Expr, []conflictKey, bool) {
	if cols := q.ConflictColumns; len(cols) > 0 {
		where := keyMatch(cols, q, row, omitted)
		if where == nil {
			return nil, nil, false
		}
		if q.ConflictWhere != nil {
			// The arbiter is a partial unique index: the conflicting row
			// satisfies the index's own predicate, which the conflict
			// target's WHERE only implies. Among rows with these values,
			// which one is in the index (and conflicts) is arbitrary.
			where = sqlAnd(where, &sqlir.Unknown{Text: inPartialIndex})
		}
		return where, nil, true
	}
	if len(t.allKeys) == 1 {
		if where := keyMatch(t.allKeys[0], q, row, omitted); where != nil {
			return where, nil, true
		}
		return nil, nil, false
	}
	var keys []conflictKey
	var anyKey sqlir.Expr
	for _, k := range m.checkOrder(t) {
		where := keyMatch(k, q, row, nil)
		switch {
		case where != nil:
			keys = append(keys, conflictKey{cols: k, match: where})
			if anyKey == nil {
				anyKey = where
			} else {
				anyKey = &sqlir.Binary{Op: sqlir.OpOr, X: anyKey, Y: where}
			}
		case !m.omitsFresh(t.schema, k, q):
			return nil, nil, false
		}
	}
	switch {
	case anyKey == nil:
		return nil, nil, false
	case len(keys) == 1:
		return anyKey, nil, true
	case m.opt.Dialect == "mysql":
		return anyKey, keys, true
	case m.opt.Dialect == "sqlite":
		// SQLite picks the row too (its rowid first, then the UNIQUE keys
		// last declared first: TestUpsertConflictKeyOrder), by an order
		// the schema's keys do not keep: which row is an approximation.
		return sqlAnd(anyKey, &sqlir.Unknown{Text: "the row SQLite's upsert without a conflict target updates when several keys conflict"}), nil, true
	}
	return sqlAnd(anyKey, unknown), nil, true
}

// checkOrder returns the unique keys of t in the order MySQL checks them
// for a duplicate: the PRIMARY KEY (the schema's first key), then the
// keys without a nullable column, then the others, each group in the
// schema's order (MariaDB's sort_keys; a key on a column prefix, which
// comes later still, is not told apart).
func (m *lowerer) checkOrder(t *tableModel) [][]string {
	nullable := func(k []string) bool {
		for _, c := range k {
			if !notNull(t.schema, c) {
				return true
			}
		}
		return false
	}
	out := slices.Clone(t.allKeys)
	if t.schema != nil {
		slices.SortStableFunc(out, func(a, b []string) int {
			switch na, nb := nullable(a), nullable(b); {
			case na == nb:
				return 0
			case nb:
				return -1
			}
			return 1
		})
	}
	return out
}

// keyMatch returns "col = value" for each column of key cols, the values
// those the INSERT gives in row; nil when it does not give one.
func keyMatch(cols []string, q *sqlir.Insert, row []sqlir.Expr, omitted func(string) sqlir.Expr) sqlir.Expr {
	var where sqlir.Expr
	for _, k := range cols {
		found := false
		for i, c := range q.Columns {
			if strings.EqualFold(c, k) && i < len(row) {
				where = sqlAnd(where, &sqlir.Binary{Op: sqlir.OpEq, X: &sqlir.ColRef{Name: c}, Y: row[i]})
				found = true
			}
		}
		if !found && omitted != nil {
			if v := omitted(k); v != nil {
				where = sqlAnd(where, &sqlir.Binary{Op: sqlir.OpEq, X: &sqlir.ColRef{Name: k}, Y: v})
				found = true
			}
		}
		if !found {
			return nil
		}
	}
	return where
}

// firstConflicting returns, for each symbol of t, that it is the row the
// upsert u updates (u.keys in the engine's order): it has the new row's
// values on a key, and no row has them on an earlier key. Whether a row
// the symbols do not track has them is a choice made at em.
func (m *lowerer) firstConflicting(em *emitter, t *tableModel, u updateSpec) map[*symbol]ir.Expr {
	there := func(y *symbol) ir.Expr {
		if y == t.watched {
			return y.exists
		}
		return ir.And(ir.Or(y.isLive(), y.isHeld()), y.exists)
	}
	// on[i][y]: symbol y has the new row's values on key i.
	on := make([]map[*symbol]ir.Expr, len(u.keys))
	tracked := make([]ir.Expr, len(u.keys))
	for i, k := range u.keys {
		on[i] = map[*symbol]ir.Expr{}
		var alts []ir.Expr
		for _, y := range t.syms {
			on[i][y] = m.where(k.match, y, u.args)
			alts = append(alts, ir.And(there(y), on[i][y]))
		}
		tracked[i] = ir.Or(alts...)
	}
	em.havoc(m.takeFresh()...)
	// taken[i]: some row has the new row's values on key i (the last
	// key's is never needed).
	taken := make([]ir.Expr, len(u.keys)-1)
	var untracked []ir.Expr
	for i := range taken {
		v := m.p.NewVar("$untracked_on_key", ir.Bool, ir.Ghost)
		em.havoc(v)
		m.approxUntracked(em, t, u, v, i, m.untrackedMatters(t, on, there, tracked, untracked, i))
		untracked = append(untracked, v)
		taken[i] = ir.Or(tracked[i], v)
	}
	out := map[*symbol]ir.Expr{}
	for _, x := range t.syms {
		var alts []ir.Expr
		for i := range u.keys {
			c := []ir.Expr{on[i][x]}
			for _, e := range taken[:i] {
				c = append(c, ir.Not(e))
			}
			alts = append(alts, ir.And(c...))
		}
		out[x] = ir.Or(alts...)
	}
	return out
}

// untrackedMatters is when whether an untracked row has the new row's
// values on key i changes which tracked row the upsert updates: a
// tracked row has them on a later key, and no row on key i or an
// earlier one.
func (m *lowerer) untrackedMatters(t *tableModel, on []map[*symbol]ir.Expr, there func(*symbol) ir.Expr, tracked, untracked []ir.Expr, i int) ir.Expr {
	var later []ir.Expr
	for _, y := range t.syms {
		for _, o := range on[i+1:] {
			later = append(later, ir.And(there(y), o[y]))
		}
	}
	c := []ir.Expr{ir.Or(later...)}
	for _, e := range tracked[:i+1] {
		c = append(c, ir.Not(e))
	}
	for _, e := range untracked {
		c = append(c, ir.Not(e))
	}
	return ir.And(c...)
}

// approxUntracked makes v, the choice of whether an untracked row has
// the new row's values on key i, an approximation where it matters and
// an observation of the path may contradict it: true, where a statement
// of the program reads, updates or deletes rows of t (it may have found
// none with the key); false, where the program wrote rows the symbols do not track, a
// symbol forgot the row it read, or a loop may have read another.
func (m *lowerer) approxUntracked(em *emitter, t *tableModel, u updateSpec, v *ir.Var, i int, matters ir.Expr) {
	var wrong []ir.Expr
	if m.observesTable(t) {
		wrong = append(wrong, v)
	}
	forgot := []ir.Expr{t.dirty, ir.BoolConst(m.src.HasCycle())}
	for _, y := range t.syms[1:] {
		forgot = append(forgot, ir.And(ir.Not(y.isLive()), y.exists))
	}
	wrong = append(wrong, ir.And(ir.Not(v), ir.Or(forgot...)))
	c := ir.And(matters, ir.Or(wrong...))
	if c == ir.False {
		return
	}
	a := m.p.NewVar("$untracked_on_key~", ir.Bool, ir.Ghost)
	a.Approx = fmt.Sprintf("whether a row the model does not track has the new row's %s, which decides the row the upsert at %s updates (MySQL checks its unique keys in order), where what the program saw of the table may decide it",
		strings.Join(u.keys[i].cols, ", "), u.info.Position())
	join := m.p.NewLoc()
	br := em.fork(c)
	br.havoc(a)
	br.assign([]*ir.Var{v}, []ir.Expr{a})
	br.jump(join)
	em.jump(join)
}

// observesTable reports whether a statement of the program other than an
// INSERT reads, changes or deletes rows of t, whatever its WHERE (one
// pinning a key, an OR or an IN over its columns, a join): it may have
// seen that no row has a key value.
func (m *lowerer) observesTable(t *tableModel) bool {
	for _, e := range m.src.Edges {
		switch s := e.Stmt.(type) {
		case *ir.Select:
			if slices.ContainsFunc(s.SQL.Tables(), t.onTable) {
				return true
			}
		case *ir.Exec:
			switch q := s.SQL.(type) {
			case *sqlir.Update:
				if t.onTable(q.Table) {
					return true
				}
			case *sqlir.Delete:
				if t.onTable(q.Table) {
					return true
				}
			}
		}
	}
	return false
}
