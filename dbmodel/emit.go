package dbmodel

import "github.com/dbverify/dbverify/ir"

// emitter appends a chain of edges at location cur; every edge it adds
// carries info (the source of the database call being lowered).
type emitter struct {
	m    *lowerer
	cur  ir.Loc
	info ir.Info
}

func (m *lowerer) emitter(at ir.Loc, info ir.Info) *emitter {
	return &emitter{m: m, cur: at, info: info}
}

func (em *emitter) add(s ir.Stmt) {
	n := em.m.p.NewLoc()
	em.m.p.AddEdge(em.cur, n, s)
	em.cur = n
}

func (em *emitter) assign(lhs []*ir.Var, rhs []ir.Expr) {
	if len(lhs) == 0 {
		return
	}
	em.add(&ir.Assign{Lhs: lhs, Rhs: rhs, Info: em.info})
}

func (em *emitter) havoc(vs ...*ir.Var) {
	if len(vs) == 0 {
		return
	}
	em.add(&ir.Havoc{Vars: vs, Info: em.info})
}

func (em *emitter) assume(c ir.Expr) {
	if c == ir.True {
		return
	}
	em.add(&ir.Assume{Cond: c, Info: em.info})
}

// fact assumes c, a fact of the engine's semantics (ir.KindFact).
func (em *emitter) fact(c ir.Expr) {
	if c == ir.True {
		return
	}
	info := em.info
	info.Kind = ir.KindFact
	em.add(&ir.Assume{Cond: c, Info: info})
}

// fork splits on c: the returned emitter continues where c holds, em where
// it does not.
func (em *emitter) fork(c ir.Expr) *emitter {
	yes, no := em.m.p.NewLoc(), em.m.p.NewLoc()
	em.m.p.AddEdge(em.cur, yes, &ir.Assume{Cond: c, Info: em.info})
	em.m.p.AddEdge(em.cur, no, &ir.Assume{Cond: ir.Not(c), Info: em.info})
	em.cur = no
	return &emitter{m: em.m, cur: yes, info: em.info}
}

// jump ends the chain at location to.
func (em *emitter) jump(to ir.Loc) {
	em.m.p.AddEdge(em.cur, to, &ir.Assume{Cond: ir.True, Info: em.info})
	em.cur = to
}
