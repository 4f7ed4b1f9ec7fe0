package dbmodel

import (
	"fmt"
	"maps"
	"strings"

	"github.com/dbverify/dbverify/instrument"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/spec"
	"github.com/dbverify/dbverify/sqlir"
)

// The property's part of the model, through its instrumentation (package
// instrument): the tables it watches, what holds on entry, the facts
// (--assume, the schema's CHECKs) about rows and parameters, and the
// check at commit points (check, tx.go).

// makeTables creates the model of every table the property watches.
func (m *lowerer) makeTables() error {
	for _, w := range m.ins.Watched() {
		conds := m.ins.Conditions(w.Table)
		exprs := append([]sqlir.Expr(nil), conds...)
		for _, f := range spec.TableFacts(m.opt.Facts, w.Table) {
			exprs = append(exprs, f.Expr)
		}
		t := m.newTableModel(w.Table, exprs)
		t.watchName = w.Symbol
		t.slot = w.Slot
		t.tracksAny = w.Slot && w.Any
		for _, c := range conds {
			maps.Copy(t.numCols, numericColumns(c))
			t.propCols = append(t.propCols, columnNames(c)...)
		}
		if a := t.chooseKey(m.opt.NoInferKey); a != "" {
			m.res.Assumptions = append(m.res.Assumptions, a)
		}
		m.tables[t.name] = t
		sources := m.keySources(t)
		coll := map[string]collClass{}
		for _, c := range t.cols {
			if m.columnKind(t.name, c) != kindNum && (sources[c] >= 2 || m.concurrent()) {
				coll[c] = m.columnCollation(t.name, c)
			}
		}
		t.coll = coll
		if m.w == nil {
			m.w = t
		}
	}
	if m.w == nil {
		return fmt.Errorf("row model: property %q watches no row", m.ins.Text())
	}
	return nil
}

func (m *lowerer) prologue(from, to ir.Loc) {
	info := ir.Info{File: m.src.Pos.File, Line: m.src.Pos.Line, Kind: ir.KindModel,
		Text: "database state on entry: every row satisfies " + m.ins.Text()}
	em := m.emitter(from, info)
	// The entry's parameters are arbitrary (then constrained by the
	// --assume facts below): an explicit havoc makes the abstraction start
	// from consistent values of predicates over them.
	em.havoc(m.src.Inputs...)
	var rvars []*ir.Var
	for _, t := range m.tableList() {
		for _, c := range t.cols {
			rvars = append(rvars, t.watched.cols[c])
		}
	}
	em.havoc(rvars...)
	var lhs []*ir.Var
	var rhs []ir.Expr
	for _, t := range m.tableList() {
		if t.slot {
			// A key slot may be empty on entry (and its table too).
			em.havoc(t.watched.exists)
			if t.watched.hasRow != nil {
				em.havoc(t.watched.hasRow)
			}
		} else if m.tracksAny() {
			// The referencing table may be empty too: a NULL reference
			// then needs a row of the referenced table, any row of T
			// does, and r existing would say the referenced table has
			// one.
			em.havoc(t.watched.exists)
		} else {
			lhs = append(lhs, t.watched.exists)
			rhs = append(rhs, ir.True)
		}
		lhs = append(lhs, t.dirty, t.written)
		rhs = append(rhs, ir.False, ir.False)
		for _, x := range t.syms[1:] {
			lhs = append(lhs, x.live, x.exists)
			rhs = append(rhs, ir.False, ir.False)
			if x.held != nil {
				lhs = append(lhs, x.held)
				rhs = append(rhs, ir.False)
			}
		}
	}
	for _, t := range m.txIDs() {
		st := m.txs[t]
		lhs = append(lhs, st.open, st.wrote, st.pending, st.aborted)
		rhs = append(rhs, ir.False, ir.False, ir.False, ir.False)
	}
	sl, sr := m.savepointsOnEntry()
	lhs, rhs = append(lhs, sl...), append(rhs, sr...)
	for _, st := range m.victims() {
		d := m.dl(st)
		lhs = append(lhs, d.victim, d.zombie)
		rhs = append(rhs, ir.False, ir.False)
	}
	em.assign(lhs, rhs)
	m.keepSlotOnEntry(em)
	m.initUniqueSites(em)
	m.initReadSites(em)
	m.fresh = nil
	var initial []ir.Expr
	for _, t := range m.tableList() {
		if t.slot {
			initial = append(initial, ir.Implies(t.watched.exists, m.initial(t.watched)), m.slotHasRow(t))
			continue
		}
		initial = append(initial, m.initial(t.watched))
	}
	initial = append(initial, m.ins.OnEntry(m.currentRows())...)
	psi := ir.And(initial...)
	inputs := m.inputFacts()
	em.havoc(m.takeFresh()...)
	em.assume(psi)
	em.assume(inputs)
	m.res.OnEntry = ir.And(psi, inputs)
	em.jump(to)
}

// invariant returns what the property says of every row of x's table in
// the initial database (ψ(x) for a row check).
func (m *lowerer) invariant(x *symbol) ir.Expr {
	var out []ir.Expr
	for _, e := range m.ins.Invariant(x.table) {
		out = append(out, asBool(m.expr(e, x, nil)))
	}
	return ir.And(out...)
}

// initial returns what holds of a row of the initial database: the
// property's invariant, the CHECKs and the facts about x's table.
func (m *lowerer) initial(x *symbol) ir.Expr {
	out := []ir.Expr{m.invariant(x), m.checks(x), m.slotLink(x), m.columnsInRange(x)}
	for _, f := range spec.TableFacts(m.opt.Facts, x.table) {
		out = append(out, asBool(m.expr(f.Expr, x, nil)))
	}
	return ir.And(out...)
}

// inputFacts returns the facts about the entry's parameters.
func (m *lowerer) inputFacts() ir.Expr {
	params := &symbol{table: "", cols: map[string]*ir.Var{}}
	for _, v := range m.src.Inputs {
		params.cols[strings.ToLower(v.Name)] = v
	}
	var out []ir.Expr
	for _, f := range spec.ParamFacts(m.opt.Facts) {
		out = append(out, asBool(m.expr(f.Expr, params, nil)))
	}
	return ir.And(out...)
}

// committedRows returns the watched rows as handle h sees the committed
// state (their values assigned to ghost variables at em), for the
// property's check. Transactions track the watched row of m.w (tx.go);
// another table's watched row is its current state.
func (m *lowerer) committedRows(em *emitter, h ir.Tx) []instrument.Row {
	var rows []instrument.Row
	for _, w := range m.ins.Watched() {
		t := m.model(w.Table)
		x := t.watched
		if t == m.w {
			x = m.view(em, h)
		}
		rows = append(rows, m.row(w, x))
	}
	return rows
}

// currentRows returns the watched rows in the current state.
func (m *lowerer) currentRows() []instrument.Row {
	var rows []instrument.Row
	for _, w := range m.ins.Watched() {
		rows = append(rows, m.row(w, m.model(w.Table).watched))
	}
	return rows
}

// row returns watched row w as symbol x gives it.
func (m *lowerer) row(w instrument.Watch, x *symbol) instrument.Row {
	var anyRow, onEntry ir.Expr
	if w.Any && x.hasRow != nil {
		anyRow, onEntry = x.hasRow, ir.True
		if e := m.slot0; e != nil && e.hasRow != nil {
			onEntry = ir.Implies(e.hasRow, e.exists)
		}
	}
	return instrument.Row{Watch: w, Exists: x.exists, Any: anyRow, AnyOnEntry: onEntry,
		Cond: func(e sqlir.Expr) ir.Expr { return asBool(m.expr(e, x, nil)) },
		Col: func(c string) ir.Expr {
			if v := x.cols[strings.ToLower(c)]; v != nil {
				return v
			}
			return m.freshVar("$col_"+c, ir.Int)
		}}
}

// columnNames returns the lower-case names of the columns e reads.
func columnNames(e sqlir.Expr) []string {
	var out []string
	sqlir.Rewrite(e, func(x sqlir.Expr) (sqlir.Expr, bool) {
		if c, ok := x.(*sqlir.ColRef); ok {
			out = append(out, strings.ToLower(c.Name))
		}
		return nil, false
	})
	return out
}
