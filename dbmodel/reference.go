package dbmodel

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/dbverify/dbverify/instrument"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// Key slots: the watched row of a table the property marks as a slot
// (instrument.Watch.Slot; a reference's referenced table) stands for a key
// value — the row with that key, if there is one — rather than for a row
// (docs/design.md §2, foreign keys). It may not exist on entry; an INSERT
// with its key is it; a row read with its key is it. What would move a
// row out of its slot or replace it is not modelled (slotLimits).

// slotLimits marks the program UNKNOWN where the key-slot model does not
// hold: a concurrent product; a statement that changes the key of the
// slot's table or may replace its rows (UPDATE of a key column, an
// upsert, REPLACE, INSERT … SELECT); statements on the watched tables run
// on more than one handle (the slot's state is not kept per transaction);
// a watched row's property column that is not an integer.
func (m *lowerer) slotLimits() {
	var slot *tableModel
	for _, t := range m.tableList() {
		if t.slot {
			slot = t
		}
	}
	if slot == nil {
		return
	}
	at := ir.Info{File: m.src.Pos.File, Line: m.src.Pos.Line}
	text := m.ins.Text()
	if m.concurrent() && !m.slotConcurrencyLimits(slot, text, at) {
		return
	}
	if k := slot.propCols[0]; slot.nullableKey[k] {
		m.p.Unsupport(fmt.Sprintf("key column %s.%s of the reference %s may be NULL: only a NOT NULL key is modelled", slot.spelled, k, text), at)
		return
	}
	for _, t := range m.tableList() {
		for _, c := range t.propCols {
			if t.sorts[c] != ir.Int || t.text[c] {
				m.p.Unsupport(fmt.Sprintf("column %s.%s of the reference %s holds text or a non-integer: only integer keys are modelled", t.spelled, c, text), at)
				return
			}
		}
	}
	handles := map[ir.Tx]bool{}
	for _, e := range m.src.Edges {
		if x, ok := e.Stmt.(*ir.Exec); ok && m.truncatesWatched(x.SQL) {
			m.p.Unsupport(fmt.Sprintf("TRUNCATE of %s (MySQL; not read as a DELETE): the reference %s is not checked across it", strings.Join(m.watchedNames(), " or "), text), x.Info)
			return
		}
		h, table, info, ok := watchedStmt(e.Stmt)
		if !ok || m.model(table) == nil {
			continue
		}
		handles[h] = true
		if len(handles) > 1 && m.split == nil {
			m.p.Unsupport(fmt.Sprintf("statements on %s run on more than one handle (the pool, transactions): the reference %s is modelled on one", strings.Join(m.watchedNames(), " and "), text), info)
			return
		}
		if x, ok := e.Stmt.(*ir.Exec); ok && slot.onTable(table) {
			if why := slotChange(x.SQL, slot); why != "" {
				m.p.Unsupport(fmt.Sprintf("%s %s: the reference %s tracks the row of %s by its key", why, slot.spelled, text, slot.spelled), info)
				return
			}
		}
	}
}

// truncateStmt matches a TRUNCATE statement, which the MySQL parser
// leaves as sqlir.Other (PostgreSQL's is a DELETE of every row).
var (
	truncateStmt = regexp.MustCompile(`(?is)^\s*TRUNCATE\b(.*)$`)
	sqlWord      = regexp.MustCompile(`[A-Za-z0-9_$]+`)
)

// truncatesWatched reports whether q is a TRUNCATE that may name a
// watched table (any word of its text).
func (m *lowerer) truncatesWatched(q sqlir.Statement) bool {
	o, ok := q.(*sqlir.Other)
	if !ok {
		return false
	}
	match := truncateStmt.FindStringSubmatch(o.Text)
	if match == nil {
		return false
	}
	for _, w := range sqlWord.FindAllString(match[1], -1) {
		if m.model(w) != nil {
			return true
		}
	}
	return false
}

// watchedStmt returns the handle, the table and the position of a SQL
// statement (ok false for another statement).
func watchedStmt(s ir.Stmt) (ir.Tx, string, ir.Info, bool) {
	switch s := s.(type) {
	case *ir.Exec:
		return s.Tx, writtenTable(s.SQL), s.Info, true
	case *ir.Select:
		return s.Tx, s.SQL.Table, s.Info, true
	}
	return 0, "", ir.Info{}, false
}

// slotChange says how write q of the slot's table may move or replace a
// row ("" if it cannot).
func slotChange(q sqlir.Statement, slot *tableModel) string {
	switch q := q.(type) {
	case *sqlir.Update:
		for _, a := range q.Set {
			for _, k := range slot.keys {
				for _, c := range k {
					if strings.EqualFold(a.Col, c) {
						return "an UPDATE of key column " + c + " of"
					}
				}
			}
		}
	case *sqlir.Insert:
		switch {
		case q.Replace:
			return "REPLACE into"
		case q.HasOnConflict || q.OnConflictNothing:
			return "an upsert (ON CONFLICT, ON DUPLICATE KEY) into"
		case q.FromSelect:
			return "an INSERT … SELECT into"
		}
	}
	return ""
}

// watchedNames returns the watched tables as the property spells them.
func (m *lowerer) watchedNames() []string {
	var out []string
	for _, t := range m.tableList() {
		out = append(out, t.spelled)
	}
	return out
}

// slotRead returns, for a symbol x read from table t, that the slot is
// the row read when x has its key (True when t has no slot). rv, if not
// nil, is the slot as the read's handle sees it (refconcurrent.go).
func (m *lowerer) slotRead(t *tableModel, x, rv *symbol) ir.Expr {
	if !t.slot {
		return ir.True
	}
	sv := t.watched
	if rv != nil && m.splitSlot(t) {
		sv = rv
	}
	out := ir.Implies(t.sameSlot(x), sv.exists)
	if t.watched.hasRow != nil {
		// A row read: the table has one.
		out = ir.And(out, t.watched.hasRow)
	}
	return out
}

// tracksAny reports whether a key slot's table tracks whether it has a
// row.
func (m *lowerer) tracksAny() bool {
	for _, t := range m.tableList() {
		if t.tracksAny {
			return true
		}
	}
	return false
}

// slotHasRow is, for a slot whose table's "has a row" is tracked, that
// the slot's existence means the table has a row (True otherwise).
func (m *lowerer) slotHasRow(t *tableModel) ir.Expr {
	if t.watched.hasRow == nil {
		return ir.True
	}
	return ir.Implies(t.watched.exists, t.watched.hasRow)
}

// slotInserted records at em, for a slot's table whose "has a row" is
// tracked, that an INSERT put a row in it.
func (m *lowerer) slotInserted(em *emitter, t *tableModel) {
	if t.watched.hasRow != nil {
		em.assign([]*ir.Var{t.watched.hasRow}, []ir.Expr{ir.True})
	}
}

// slotDelete records at em, after a DELETE of t, what is known of "t has
// a row": a DELETE adds none, so it had one before; a row the symbols
// know to exist (the slot, a live row read) means it still has one;
// otherwise it may be empty (the DELETE may have taken the last row).
func (m *lowerer) slotDelete(em *emitter, t *tableModel) {
	v := t.watched.hasRow
	if v == nil {
		return
	}
	before := m.p.NewVar(v.Name+"@delete", ir.Bool, ir.Ghost)
	em.assign([]*ir.Var{before}, []ir.Expr{v})
	em.havoc(v)
	facts := []ir.Expr{ir.Implies(v, before)}
	for _, x := range t.syms {
		facts = append(facts, ir.Implies(ir.And(x.isLive(), x.exists), v))
	}
	em.assume(ir.And(facts...))
}

// sameSlot is whether row x of t has the key of t's slot (the referenced
// column, a NOT NULL key: slotLimits).
func (t *tableModel) sameSlot(x *symbol) ir.Expr {
	key := t.propCols[:1]
	return t.keyEq(x, key, t.symKey(t.watched, key))
}

// slotInsert returns, for a new row of t that is not the watched row,
// that it does not have the slot's key (True when t has no slot).
func (m *lowerer) slotInsert(t *tableModel, newRow *symbol) ir.Expr {
	if !t.slot {
		return ir.True
	}
	return ir.Not(t.sameSlot(newRow))
}

// keepSlotOnEntry copies, at em in the prologue, the key slot's watched
// row into ghost variables (m.slot0): rows of the other watched table
// read from the initial database refer to it as on entry.
func (m *lowerer) keepSlotOnEntry(em *emitter) {
	for _, t := range m.tableList() {
		if !t.slot {
			continue
		}
		p := t.watched
		v := &symbol{name: p.name + "@entry", table: t.name, cols: map[string]*ir.Var{}, nonNull: p.nonNull}
		var lhs []*ir.Var
		var rhs []ir.Expr
		for _, c := range t.cols {
			v.cols[c] = m.p.NewVar(v.name+"."+c, t.sorts[c], ir.Ghost)
			lhs = append(lhs, v.cols[c])
			rhs = append(rhs, p.cols[c])
		}
		v.exists = m.p.NewVar(v.name+".$exists", ir.Bool, ir.Ghost)
		lhs, rhs = append(lhs, v.exists), append(rhs, p.exists)
		if p.hasRow != nil {
			v.hasRow = m.p.NewVar(v.name+".$any", ir.Bool, ir.Ghost)
			lhs, rhs = append(lhs, v.hasRow), append(rhs, p.hasRow)
		}
		em.assign(lhs, rhs)
		m.slot0 = v
	}
}

// slotLink returns what the property says of row x of the initial
// database together with the key slot on entry: for a row of the
// referencing table read (not the watched row, whose link is the
// prologue's), that its reference to the slot's key means the slot was
// occupied. True otherwise.
func (m *lowerer) slotLink(x *symbol) ir.Expr {
	t := m.model(x.table)
	if m.slot0 == nil || t == nil || t.slot || x == t.watched {
		return ir.True
	}
	var rows []instrument.Row
	for _, w := range m.ins.Watched() {
		y := x
		if w.Slot {
			y = m.slot0
		}
		rows = append(rows, m.row(w, y))
	}
	return ir.And(m.ins.OnEntry(rows)...)
}
