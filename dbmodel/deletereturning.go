package dbmodel

import (
	"fmt"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// DELETE … RETURNING returns the deleted row's values, as they were: a
// row of the table, so they satisfy its CHECKs, the DELETE's WHERE, and,
// on a table the property watches, the property as every row of the
// initial database does unless the run has written rows the symbols do
// not track. They were arbitrary (a released hold's amount -1 under
// CHECK (amount > 0), a deleted wallet's balance -1 under balance >= 0:
// independent tester adv16 fu1).

// otherDeleteReturning binds the RETURNING targets of DELETE q, on a
// table no model tracks, to the deleted row as otherSelect binds the row
// a SELECT of that table reads: its WHERE, CHECKs, column ranges and,
// when no write of the entry to the table reaches the DELETE, what
// --assume says of the table's rows (they are then rows of the initial
// database). After such a write the row may be the one the entry wrote,
// whose values the model does not keep: the targets are approximations.
// (The --assume facts were left out, and a row the entry had just
// inserted was returned as any row of the table: independent tester
// adv17, assume_returning.)
func (m *lowerer) otherDeleteReturning(em *emitter, q *sqlir.Delete, s *ir.Exec) {
	if len(q.Returning) == 0 || len(nonNil(s.Targets)) == 0 {
		return
	}
	if at := m.ownWrite(m.curFrom, []string{q.Table}); at != "" {
		var lhs []*ir.Var
		var rhs []ir.Expr
		for i, t := range s.Targets {
			if t == nil {
				continue
			}
			v := m.freshVar("$deletedBack", t.Type)
			v.Approx = fmt.Sprintf("returned column %d of the DELETE at %s, which may delete the row the entry wrote at %s (a table the constraint does not watch: its values are not kept)", i+1, s.Info.Position(), at)
			lhs = append(lhs, t)
			rhs = append(rhs, v)
		}
		em.havoc(m.takeFresh()...)
		em.assign(lhs, rhs)
		return
	}
	read := &ir.Select{
		SQL:     &sqlir.Select{Table: q.Table, Columns: q.Returning, Where: q.Where},
		Args:    s.Args,
		Tx:      s.Tx,
		Targets: s.Targets,
		Info:    s.Info,
	}
	m.readOtherRow(em, read)
	facts := m.otherTableFacts(read, m.curFrom)
	em.havoc(m.takeFresh()...)
	em.assume(facts)
}

// deletedMatches snapshots, at em, whether each symbol of t is deleted
// (deleted[i], before the DELETE clears the existence flags), for
// deletedReturning; nil when s returns nothing the program reads.
func (m *lowerer) deletedMatches(em *emitter, q *sqlir.Delete, s *ir.Exec, deleted []ir.Expr) []ir.Expr {
	if len(q.Returning) == 0 || len(nonNil(s.Targets)) == 0 {
		return nil
	}
	var lhs []*ir.Var
	var conds []ir.Expr
	for range deleted {
		v := m.p.NewVar("$deleted", ir.Bool, ir.Ghost)
		lhs = append(lhs, v)
		conds = append(conds, v)
	}
	em.havoc(m.takeFresh()...)
	em.assign(lhs, deleted)
	return conds
}

// deletedReturning binds the RETURNING targets of DELETE q on modelled
// table t to a row y that the DELETE deleted: one of t's symbols that it
// deleted (conds, from deletedMatches; the one, when the WHERE pins a
// key), or a row the symbols do not track, which satisfies what every
// row of the initial database does unless the run may have changed such
// rows (then its values are approximations, see untrackedRead).
func (m *lowerer) deletedReturning(em *emitter, t *tableModel, q *sqlir.Delete, s *ir.Exec, conds []ir.Expr) {
	if conds == nil {
		return
	}
	y := &symbol{name: "deleted", table: t.name, cols: map[string]*ir.Var{}, nonNull: map[string]bool{}}
	var vars []*ir.Var
	for _, c := range t.cols {
		v := m.p.NewVar("deleted."+c, t.sorts[c], ir.Ghost)
		y.cols[c] = v
		vars = append(vars, v)
	}
	em.havoc(vars...)
	_, kv := m.pinnedKey(t, q.Where, s.Args)
	var aliased, pinned []ir.Expr
	for i, x := range t.syms {
		var eqs []ir.Expr
		for _, c := range t.cols {
			eqs = append(eqs, ir.Eq(y.cols[c], x.cols[c]))
		}
		aliased = append(aliased, ir.And(conds[i], ir.And(eqs...)))
		if kv != nil {
			// At most one row has the key: a symbol deleted is the row.
			pinned = append(pinned, ir.Implies(conds[i], ir.And(eqs...)))
		}
	}
	dirt := m.visibleDirt(t, s.Tx)
	alias := ir.Or(aliased...)
	facts := []ir.Expr{m.where(q.Where, y, s.Args), m.checks(y), m.columnsInRange(y),
		ir.Or(alias, dirt, m.initial(y)), ir.And(pinned...)}
	m.untrackedRead(em, t, y, ir.And(dirt, ir.Not(alias)), s.Info)
	em.havoc(m.takeFresh()...)
	em.assume(ir.And(facts...))
	m.bindReturning(em, q.Returning, s.Targets, []*symbol{y}, []ir.Expr{ir.True}, s.Args)
}
