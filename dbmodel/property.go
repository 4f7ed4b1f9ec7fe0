package dbmodel

import (
	"strings"

	"github.com/dbverify/dbverify/ir"
)

// The property: ψ over a row symbol, what holds on entry, and the facts
// (--assume) about rows and parameters.

// psi returns ψ over symbol x.
func (m *lowerer) psi(x *symbol) ir.Expr {
	return asBool(m.expr(m.c.Expr, x, nil))
}

func (m *lowerer) prologue(from, to ir.Loc) {
	info := ir.Info{File: m.src.Pos.File, Line: m.src.Pos.Line, Kind: ir.KindModel,
		Text: "database state on entry: every row satisfies " + m.c.Text}
	em := m.emitter(from, info)
	// The entry's parameters are arbitrary (then constrained by the
	// --assume facts below): an explicit havoc makes the abstraction start
	// from consistent values of predicates over them.
	em.havoc(m.src.Inputs...)
	var rvars []*ir.Var
	for _, c := range m.cols {
		rvars = append(rvars, m.r.cols[c])
	}
	em.havoc(rvars...)
	lhs := []*ir.Var{m.r.exists, m.dirty, m.written}
	rhs := []ir.Expr{ir.True, ir.False, ir.False}
	for _, x := range m.syms[1:] {
		lhs = append(lhs, x.live, x.exists)
		rhs = append(rhs, ir.False, ir.False)
	}
	for _, t := range m.txIDs() {
		st := m.txs[t]
		lhs = append(lhs, st.open, st.wrote, st.pending, st.aborted)
		rhs = append(rhs, ir.False, ir.False, ir.False, ir.False)
	}
	em.assign(lhs, rhs)
	m.fresh = nil
	psi := m.initial(m.r)
	inputs := m.inputFacts()
	em.havoc(m.takeFresh()...)
	em.assume(psi)
	em.assume(inputs)
	m.res.OnEntry = ir.And(psi, inputs)
	em.jump(to)
}

// initial returns what holds of a row of the initial database: ψ and the
// facts about the constrained table.
func (m *lowerer) initial(x *symbol) ir.Expr {
	out := []ir.Expr{m.psi(x), m.checks(x)}
	for _, f := range m.opt.Facts {
		if m.onTable(f.Table) {
			out = append(out, asBool(m.expr(f.Expr, x, nil)))
		}
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
	for _, f := range m.opt.Facts {
		if f.Table == "" {
			out = append(out, asBool(m.expr(f.Expr, params, nil)))
		}
	}
	return ir.And(out...)
}
