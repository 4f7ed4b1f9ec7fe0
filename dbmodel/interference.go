package dbmodel

import (
	"github.com/dbverify/dbverify/ir"
)

// interfere emits, at the start of database operation e, what other
// requests may have committed since the program's last operation (see
// Concurrency.Interference), and returns the edge to lower in e's place
// (starting after the interference).
//
// r (the watched row of m.w)'s non-key columns and its existence become
// arbitrary, constrained by the property's invariant (ψ) and the schema's
// CHECKs where r exists, unless an open transaction of
// the program holds r's row lock; r's key stays (other requests are
// assumed not to change a row's key). The rows read so far are forgotten
// (not live): a later read of the same row gets fresh values.
func (m *lowerer) interfere(e *ir.Edge) *ir.Edge {
	if !m.concurrent() || !m.opt.Concurrency.Interference {
		return e
	}
	m.assume("other requests run between this request's database operations; their commits keep the constraint and the schema's CHECKs, change no row's key, and leave rows this request has locked alone")
	t, r := m.w, m.w.watched
	info := e.Stmt.Source()
	info.Kind = ir.KindModel
	info.Text = "other requests may commit here"
	em := m.emitter(e.From, info)
	var held []ir.Expr
	for _, t := range m.txIDs() {
		held = append(held, m.holdsR(m.txs[t]))
	}
	locked := ir.Or(held...)
	key := map[string]bool{}
	for _, k := range t.keys {
		for _, c := range k {
			key[c] = true
		}
	}
	nr := &symbol{name: "r@other", table: t.name, cols: map[string]*ir.Var{}, nonNull: r.nonNull}
	var fresh []*ir.Var
	for _, c := range t.cols {
		if key[c] {
			nr.cols[c] = r.cols[c]
			continue
		}
		v := m.p.NewVar("r@other."+c, t.sorts[c], ir.Ghost)
		nr.cols[c] = v
		fresh = append(fresh, v)
	}
	nr.exists = m.p.NewVar("r@other.$exists", ir.Bool, ir.Ghost)
	fresh = append(fresh, nr.exists)
	em.havoc(fresh...)
	ok := ir.Implies(nr.exists, ir.And(m.invariant(nr), m.checks(nr)))
	em.havoc(m.takeFresh()...)
	em.assume(ok)
	var lhs []*ir.Var
	var rhs []ir.Expr
	for _, c := range t.cols {
		if key[c] {
			continue
		}
		lhs = append(lhs, r.cols[c])
		rhs = append(rhs, ir.IteOf(locked, r.cols[c], nr.cols[c]))
	}
	lhs = append(lhs, r.exists)
	rhs = append(rhs, ir.IteOf(locked, r.exists, nr.exists))
	for _, x := range t.syms[1:] {
		lhs = append(lhs, x.live)
		rhs = append(rhs, ir.False)
	}
	em.assign(lhs, rhs)
	n := m.p.NewLoc()
	em.jump(n)
	out := *e
	out.From = n
	return &out
}
