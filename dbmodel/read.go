package dbmodel

import (
	"fmt"
	"github.com/dbverify/dbverify/spec"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// Reads: a SELECT binds its symbol (or, on another table, arbitrary
// values constrained by the facts about that table).

func (m *lowerer) lowerSelect(e *ir.Edge, s *ir.Select) {
	m.skipLocked(s)
	if s.LockOnly {
		m.lowerLockOnly(e, s)
		return
	}
	targets := nonNil(s.Targets)
	x := m.selSym[s]
	if x == nil {
		m.otherSelect(e, s, targets)
		return
	}
	t := m.model(x.table)
	em := m.errFork(e, s.Info, s.Err, m.noRowFacts(s, t), s.NoRow, targets...)
	m.lockingRead(em, s)
	// The handle sees r's committed state where another transaction holds
	// it; while another transaction has pending writes, the other symbols
	// may hold values this handle does not see, and the row read is not
	// kept (not live) for later statements.
	var rv *symbol
	stale := ir.Expr(ir.False)
	switch {
	case t == m.w:
		rv = m.readView(em, s, m.view(em, s.Tx))
		stale = m.staleRead(s)
	case m.splitSlot(t):
		rv = m.viewOf(em, s.Tx, t)
	}
	foreign := m.pendingOther(s.Tx)
	// Re-binding a live symbol forgets its row, which may have been written.
	var vars []*ir.Var
	for _, c := range t.cols {
		vars = append(vars, x.cols[c])
	}
	em.assign([]*ir.Var{t.dirty}, []ir.Expr{ir.Or(t.dirty, ir.And(x.live, t.written))})
	em.havoc(vars...)
	em.assign([]*ir.Var{x.live, x.exists}, []ir.Expr{ir.Not(foreign), ir.True})
	items, starKnown := m.selectItems(s.SQL)
	var facts []ir.Expr
	facts = append(facts, m.where(s.SQL.Where, x, s.Args), m.checks(x), m.selectedNotNull(x), m.slotRead(t, x, rv),
		m.scannedNotNull(s, items, x), m.scannedInDomain(s, items, x), m.columnsInRange(x), m.noDivByZero(s, items, x), m.absentRead(t, x, rv))
	aliased := []ir.Expr{}
	// isR: x is r (a stale snapshot read of another row is approximated).
	isR := ir.Expr(ir.False)
	if len(t.keys) > 0 {
		for _, y := range t.syms {
			if y == x {
				continue
			}
			// Only a row that exists is the row read: one deleted (and
			// maybe inserted again, untracked) is not.
			same := ir.And(y.isLive(), y.exists, ir.Not(foreign), ir.Not(stale))
			if y == t.watched {
				if rv != nil {
					y = rv
				}
				same = y.exists
				isR = t.sameRow(x, y)
			}
			same = ir.And(same, t.sameRow(x, y))
			if same == ir.False {
				continue
			}
			var eqs []ir.Expr
			for _, c := range t.cols {
				eqs = append(eqs, ir.Eq(x.cols[c], y.cols[c]))
			}
			facts = append(facts, ir.Implies(same, ir.And(eqs...)))
			aliased = append(aliased, same)
		}
	}
	order, ordered := m.firstRowFacts(s, t, x, rv, foreign, stale)
	facts = append(facts, order)
	dirt := m.visibleDirt(t, s.Tx)
	old := ir.And(stale, ir.Not(ir.And(rvExists(rv), isR)))
	facts = append(facts, ir.Or(append([]ir.Expr{dirt, old, m.initial(x)}, aliased...)...))
	m.untrackedRead(em, t, x, ir.Or(ir.And(dirt, ir.Not(ir.Or(aliased...))), old), s.Info)
	em.havoc(m.takeFresh()...)
	for _, f := range facts {
		em.assume(f)
	}
	m.bindTargets(em, s, items, starKnown, x, m.orderApprox(s, ordered))
	m.lockSelected(em, s, x)
	m.bindHeld(em, s, x)
	em.jump(e.To)
}

// bindTargets assigns the scan targets of s the values of its items on
// the row x read (marked as approximations with note approx, when set).
func (m *lowerer) bindTargets(em *emitter, s *ir.Select, items []sqlir.SelectItem, starKnown bool, x *symbol, approx string) {
	var lhs []*ir.Var
	var rhs []ir.Expr
	for i, t := range s.Targets {
		if t == nil {
			continue
		}
		var val ir.Expr
		differs := ""
		if i < len(items) && !items[i].Star {
			differs = m.goStringDiffers(x.table, items[i].Expr)
		}
		switch {
		case approx != "":
			v := m.freshVar("$order", t.Type)
			v.Approx = approx
			val = v
		case differs != "":
			v := m.freshVar("$gostr", t.Type)
			v.Approx = fmt.Sprintf("result column %d of the SELECT at %s: %s", i+1, s.Info.Position(), differs)
			val = v
		case i < len(items) && !items[i].Star && !sqlir.HasUnknown(items[i].Expr):
			val = m.expr(items[i].Expr, x, s.Args)
		case i < len(items) && !items[i].Star:
			v := m.freshVar("$subquery", t.Type)
			v.Approx = fmt.Sprintf("result column %d of the SELECT at %s (a subquery or an expression the model does not evaluate)", i+1, s.Info.Position())
			val = v
		default:
			v := m.freshVar("$col", t.Type)
			if !starKnown {
				v.Approx = fmt.Sprintf("result column %d of the SELECT * at %s (the columns of * are not known without --schema)", i+1, s.Info.Position())
			} else {
				v.Approx = fmt.Sprintf("result column %d of the SELECT at %s (more targets than columns)", i+1, s.Info.Position())
			}
			val = v
		}
		lhs = append(lhs, t)
		rhs = append(rhs, m.convert(val, t.Type))
	}
	if len(lhs) > 0 {
		em.havoc(m.takeFresh()...)
		em.assign(lhs, rhs)
	}
}

// otherSelect lowers a SELECT of another table, or a join/aggregate:
// arbitrary results, except for what its WHERE says of the row read
// (otherwhere.go), what --assume says of that table's rows and what an
// earlier read of the same key read (readmemo.go).
func (m *lowerer) otherSelect(e *ir.Edge, s *ir.Select, targets []*ir.Var) {
	if t := m.readModel(s.SQL); t != nil {
		if m.countSelect(e, s, t) {
			return
		}
		m.approxSelect(e, s, t)
		return
	}
	// (m.curFrom, not e.From: under --concurrent, e may start at a
	// location of the lowered program — the interference before the
	// read —, and ownWrite's table is of the source program's; indexing
	// it by the other crashed, adv15 concpanic, or read another location.)
	if at := m.ownWrite(m.curFrom, s.SQL.Tables()); at != "" {
		m.ownWriteSelect(e, s, at)
		return
	}
	em := m.errFork(e, s.Info, s.Err, m.memoNoRow(s), s.NoRow, targets...)
	m.readOtherRow(em, s)
	facts := m.otherTableFacts(s, m.curFrom)
	em.havoc(m.takeFresh()...)
	em.assume(facts)
	m.memoRead(em, s)
	em.jump(e.To)
}

// otherTableFacts returns the facts about table (not the constrained one)
// that a row read into targets satisfies, when no write of the entry to
// that table reaches the read at from (so its rows are as they were
// initially).
func (m *lowerer) otherTableFacts(s *ir.Select, from ir.Loc) ir.Expr {
	pins := m.pinnedResults(s)
	if s.SQL.Complex || m.ownWrite(from, []string{s.SQL.Table}) != "" {
		return pins
	}
	row := &symbol{table: strings.ToLower(s.SQL.Table), cols: map[string]*ir.Var{}}
	for i, it := range s.SQL.Columns {
		if c, ok := it.Expr.(*sqlir.ColRef); ok && !it.Star && i < len(s.Targets) && s.Targets[i] != nil {
			row.cols[strings.ToLower(c.Name)] = s.Targets[i]
		}
	}
	var out []ir.Expr
	for _, f := range spec.TableFacts(m.opt.Facts, s.SQL.Table) {
		if !m.covered(f.Expr, row) {
			continue
		}
		out = append(out, asBool(m.expr(f.Expr, row, nil)))
	}
	return ir.And(append(out, pins)...)
}

// pinnedResults says what a SELECT of a table the model does not track
// returns in the columns its WHERE pins: SELECT id FROM users WHERE id = $1
// returns $1 in id (an independent tester's c19 scanned the id of a parent
// row it locked FOR UPDATE, and the model let the id differ from the one
// selected, so two requests for different users seemed to share an
// account). Only numeric columns the schema declares, in a single-table
// SELECT: a string read back may differ from the one compared (CHAR
// padding, collations, uuid spellings).
func (m *lowerer) pinnedResults(s *ir.Select) ir.Expr {
	q := s.SQL
	t := m.schemaTable(q.Table)
	if t == nil || q.Complex || len(q.Tables()) != 1 {
		return ir.True
	}
	var out []ir.Expr
	for _, pin := range columnPins(q.Table, q.Where) {
		if !numericColumn(t, pin.col) || !keyValue(pin.val) {
			continue
		}
		// (A Go string bound to the numeric column reads back as the
		// number it converts to: "01" as 1.)
		val := m.pinKey(q.Table, pin.col, m.value(pin.val, nil, s.Args))
		if val == nil {
			continue
		}
		for i, it := range q.Columns {
			c, ok := it.Expr.(*sqlir.ColRef)
			if it.Star || !ok || !strings.EqualFold(c.Name, pin.col) || i >= len(s.Targets) || s.Targets[i] == nil {
				continue
			}
			if tv := s.Targets[i]; tv.Type == val.Sort() {
				out = append(out, ir.Eq(tv, val))
			}
		}
	}
	return ir.And(out...)
}

// goStringDiffers says why a string column e of table, read into Go, is
// not the value SQL compares ("" when it is): on Postgres a CHAR(n) value
// arrives padded with blanks to n characters, which SQL comparisons
// ignore and Go's do not ("savings   " != "savings"); on MySQL a
// non-binary string column compares under its collation, by default
// ignoring case and trailing spaces ('SAVINGS ' = 'savings'), while Go
// compares bytes. The value read is then not the column's value in the
// model but an arbitrary, marked one: a verdict that would depend on it
// is UNKNOWN, never a SAFE that trusts a Go check of the string.
func (m *lowerer) goStringDiffers(table string, e sqlir.Expr) string {
	c, ok := e.(*sqlir.ColRef)
	if !ok {
		return ""
	}
	st := m.schemaTable(table)
	if st == nil {
		// No schema: a MySQL column holding strings has the server's
		// default collation (columnCollation), and a row 'ABC' that
		// WHERE code = 'abc' matched reaches Go as "ABC".
		if m.opt.Dialect == "mysql" && m.columnCollation(table, c.Name) != collExact {
			return "without a schema, MySQL compares this string under the server's default collation (ignoring case and trailing spaces), Go compares it byte for byte"
		}
		return ""
	}
	for _, col := range st.Columns {
		if !strings.EqualFold(col.Name, c.Name) {
			continue
		}
		t := strings.ToLower(strings.TrimSpace(col.Type))
		switch m.opt.Dialect {
		case "postgres":
			if t == "bpchar" || t == "char" || t == "character" || strings.HasPrefix(t, "char(") || strings.HasPrefix(t, "character(") ||
				strings.HasPrefix(t, "char (") || strings.HasPrefix(t, "character (") {
				return "a CHAR(n) value reaches Go padded with blanks, which SQL comparisons ignore and Go's do not"
			}
		case "sqlite":
			if m.columnCollation(table, col.Name) != collExact {
				return "SQLite compares this string under its COLLATE (NOCASE or RTRIM), Go compares it byte for byte"
			}
		case "mysql":
			binary := strings.Contains(t, "binary") || strings.Contains(t, "blob") || strings.Contains(t, "_bin")
			if !binary && (strings.Contains(t, "char") || strings.Contains(t, "text") || strings.HasPrefix(t, "enum") || strings.HasPrefix(t, "set(")) {
				return "MySQL compares this string under its collation (by default ignoring case and trailing spaces), Go compares it byte for byte"
			}
		}
		return ""
	}
	return ""
}

// untrackedRead gives the row x read, where untracked holds (the handle
// may see writes to rows the symbols do not track, and x is none of the
// rows they track), values the model marks as approximations: those
// writes' values are not kept, so the model lets the row hold anything
// that satisfies the WHERE and the CHECKs, which the real row may not.
// A counterexample whose decisions rest on them is then UNKNOWN "may be
// spurious" (vcgen.ApproxReads) instead of an UNSAFE the engine does not
// reproduce (a generated program read back a balance its own UPDATE had
// just set, and the trace showed another). Key columns stay exact: the
// WHERE pins them, or any row may be the one read.
func (m *lowerer) untrackedRead(em *emitter, t *tableModel, x *symbol, untracked ir.Expr, info ir.Info) {
	if untracked == ir.False {
		return
	}
	key := map[string]bool{}
	for _, k := range t.keys {
		for _, c := range k {
			key[c] = true
		}
	}
	note := fmt.Sprintf("the row of %s read at %s, after writes to rows of %s the model does not track (their values are not kept)",
		t.spelled, info.Position(), t.spelled)
	var lhs, approx []*ir.Var
	var rhs []ir.Expr
	for _, c := range t.cols {
		if key[c] {
			continue
		}
		v := m.p.NewVar(x.name+"."+c+"~", x.cols[c].Type, ir.Ghost)
		v.Approx = note
		approx = append(approx, v)
		lhs = append(lhs, x.cols[c])
		rhs = append(rhs, v)
	}
	if len(lhs) == 0 {
		return
	}
	join := m.p.NewLoc()
	br := em.fork(untracked)
	br.havoc(approx...)
	br.assign(lhs, rhs)
	br.jump(join)
	em.jump(join)
}

// noFacts is the no-row condition of a read whose rows are not modelled.
func noFacts(*emitter) ir.Expr { return ir.True }

// noRowFacts returns the no-row condition of SELECT s on table t: r, as
// s's handle sees it, does not satisfy the WHERE (unless LIMIT/OFFSET may
// leave a matching row out).
func (m *lowerer) noRowFacts(s *ir.Select, t *tableModel) func(*emitter) ir.Expr {
	if t.slot && !s.SQL.SkipsRows {
		// No row: the slot, if it exists, does not match (as the
		// committed state has it, under concurrent requests).
		return func(em *emitter) ir.Expr {
			sv := t.watched
			if m.splitSlot(t) {
				sv = m.viewOf(em, s.Tx, t)
			}
			return ir.Not(ir.And(sv.exists, m.where(s.SQL.Where, sv, s.Args)))
		}
	}
	if t != m.w || s.SQL.SkipsRows {
		return noFacts
	}
	return func(em *emitter) ir.Expr {
		rv := m.readView(em, s, m.view(em, s.Tx))
		return ir.Not(ir.And(rv.exists, m.where(s.SQL.Where, rv, s.Args)))
	}
}
