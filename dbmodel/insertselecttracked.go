package dbmodel

import (
	"fmt"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// INSERT … SELECT from a table the model tracks (INSERT INTO wallets …
// SELECT …, balance - $2 FROM wallets WHERE id = $3: adv16
// ledgercte.Split, UNKNOWN "the selected values are not modelled").
//
// The one source row (insertselect.go: one arbitrary source row is enough
// for a row check) is read as a SELECT reads a row of a tracked table
// (lowerSelect), in the state before the statement as the INSERT's
// handle sees it: a fresh symbol satisfying the WHERE and the CHECKs
// that is the watched row r (as the handle sees it) where it has r's key
// and r exists, a live symbol of an earlier read where it has that
// row's key, and otherwise a row of the initial database (the invariant,
// CHECKs and facts) unless the handle sees writes to rows the symbols do
// not track, whose values it then marks as approximations
// (untrackedRead). The symbol is not kept: the INSERT reads its row
// once. It is followed only where that reading is what lowerSelect
// does: a key to tell rows apart, no concurrent requests, no consistent
// (snapshot) reads, r's own table or another tracked table that is not a
// split key slot.

// trackedSource returns the source row of INSERT … SELECT q (s) from
// table st, which the model tracks, its columns havocked at em, and what
// it satisfies; or nil and why the source is not followed.
func (m *lowerer) trackedSource(em *emitter, st *tableModel, q *sqlir.Insert, s *ir.Exec, ncols int) (*symbol, ir.Expr, string) {
	src := q.Source
	switch {
	case m.concurrent():
		return nil, nil, "a SELECT of " + st.spelled + ", whose rows the model tracks, under concurrent requests"
	case m.consistentReads() && s.Tx != 0:
		return nil, nil, "a SELECT of " + st.spelled + ", whose rows the model tracks, in a transaction with snapshot reads"
	case len(st.keys) == 0 || m.splitSlot(st):
		return nil, nil, "a SELECT of " + st.spelled + ", whose rows the model tracks without a key to tell them apart"
	}
	items, known := m.selectItems(src)
	if !known {
		return nil, nil, "the columns of * are not known without --schema"
	}
	if len(items) != ncols {
		return nil, nil, fmt.Sprintf("%d selected values for %d columns", len(items), ncols)
	}
	m.srcSyms++
	x := m.newSymbol(st, fmt.Sprintf("s%d", len(m.selSym)+m.srcSyms), false)
	x.nonNull = st.comparedColumns(src.Where)
	var vars []*ir.Var
	for _, c := range st.cols {
		vars = append(vars, x.cols[c])
	}
	em.havoc(vars...)
	var rv *symbol
	if st == m.w {
		rv = m.view(em, s.Tx)
	}
	foreign := m.pendingOther(s.Tx)
	facts := []ir.Expr{m.where(src.Where, x, s.Args), m.checks(x), m.columnsInRange(x)}
	var aliased []ir.Expr
	for _, y := range st.syms {
		same := ir.And(y.isLive(), y.exists, ir.Not(foreign))
		if y == st.watched {
			if rv != nil {
				y = rv
			}
			same = y.exists
		}
		same = ir.And(same, st.sameRow(x, y))
		if same == ir.False {
			continue
		}
		var eqs []ir.Expr
		for _, c := range st.cols {
			eqs = append(eqs, ir.Eq(x.cols[c], y.cols[c]))
		}
		facts = append(facts, ir.Implies(same, ir.And(eqs...)))
		aliased = append(aliased, same)
	}
	dirt := m.visibleDirt(st, s.Tx)
	facts = append(facts, ir.Or(append([]ir.Expr{dirt, m.initial(x)}, aliased...)...))
	m.untrackedRead(em, st, x, ir.And(dirt, ir.Not(ir.Or(aliased...))), s.Info)
	return x, ir.And(facts...), ""
}
