package dbmodel

import (
	"fmt"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// ORDER BY: a SELECT that reads only the first row of its order — a
// single-row read (QueryRow) or LIMIT 1 — returns a row that comes no
// later in that order than any other row satisfying its WHERE. The row
// model states this against every row it knows the handle sees: the
// watched row (as the handle sees it) and the live symbols of earlier
// reads. An independent tester's m5 read "ORDER BY points ASC LIMIT 1"
// and got the larger of two rows in the counterexample (a false UNSAFE).
//
// Ties are allowed (the engine may return any of the tied rows, and the
// model lets the row read be any of them). The order is stated for terms
// that are numeric columns the model tracks (lexicographically, ASC or
// DESC); a column that may be NULL (a tracked NULL-ness ghost) only
// where neither row holds NULL there. Any other term (an expression, a
// string column, whose order depends on the collation), or SKIP LOCKED
// (rows locked by another transaction are left out) where another
// transaction may hold locks (skiplocked.go), leaves the order
// unstated: the values read are then marked as approximations
// (orderApprox), so a counterexample resting on them is UNKNOWN. So does
// a locking read (FOR UPDATE, FOR SHARE) where other requests run: one
// that waits for a row lock returns the row as the other transaction
// committed it, without sorting again (PostgreSQL's READ COMMITTED
// documents it), so the row returned need not be first any more.

// firstOfOrder reports whether s returns the first row of its ORDER BY.
func firstOfOrder(s *ir.Select) bool {
	q := s.SQL
	return len(q.OrderBy) > 0 && !q.Complex && !q.SkipsRows && (s.NoRow != nil || q.Limit == 1)
}

// orderColumns returns the tracked columns of t that the ORDER BY terms
// of q name, and whether every term is such a numeric column.
func (m *lowerer) orderColumns(t *tableModel, s *ir.Select) ([]string, bool) {
	q := s.SQL
	if (q.SkipLocked || q.ForUpdate || q.ForShare) && m.concurrent() {
		return nil, false
	}
	if q.SkipLocked && !m.skipsNoRow(s) {
		return nil, false
	}
	var cols []string
	for _, o := range q.OrderBy {
		c, ok := o.Expr.(*sqlir.ColRef)
		if !ok || (c.Table != "" && !t.onTable(c.Table)) || m.generated(c, &symbol{table: t.name}) != nil {
			return nil, false
		}
		name := strings.ToLower(c.Name)
		sort, tracked := t.sorts[name]
		if !tracked || t.text[name] || (sort != ir.Int && sort != ir.Real) {
			return nil, false
		}
		cols = append(cols, name)
	}
	return cols, true
}

// orderNotAfter returns that x comes no later than y in the order of
// q's terms (on cols, as orderColumns gives them).
func orderNotAfter(q *sqlir.Select, cols []string, x, y *symbol) ir.Expr {
	out := ir.Expr(ir.True)
	for i := len(cols) - 1; i >= 0; i-- {
		a, b := ir.Expr(x.cols[cols[i]]), ir.Expr(y.cols[cols[i]])
		if q.OrderBy[i].Desc {
			a, b = b, a
		}
		if i == len(cols)-1 {
			out = ir.Cmp(ir.OpLe, a, b)
			continue
		}
		out = ir.Or(ir.Cmp(ir.OpLt, a, b), ir.And(ir.Eq(a, b), out))
	}
	return out
}

// firstRowFacts returns the order facts of SELECT s of t read into x
// (see orderFacts), against the watched row as the handle sees it (rv,
// nil: the watched row itself) and the other symbols where live, existing
// and seen by the handle (not foreign, not stale), as the read's aliasing
// does; ok is false when s reads the first row of an order that cannot
// be stated.
func (m *lowerer) firstRowFacts(s *ir.Select, t *tableModel, x, rv *symbol, foreign, stale ir.Expr) (ir.Expr, bool) {
	if !firstOfOrder(s) {
		return ir.True, true
	}
	var known []orderedRow
	for _, y := range t.syms {
		if y == x {
			continue
		}
		sees := ir.And(y.isLive(), y.exists, ir.Not(foreign), ir.Not(stale))
		if y == t.watched {
			if rv != nil {
				y = rv
			}
			sees = y.exists
		}
		known = append(known, orderedRow{sym: y, sees: sees})
	}
	return m.orderFacts(s, t, x, known)
}

// orderFacts returns the facts of a SELECT s of t that returns the first
// row x of its order: x comes no later than each known row that the
// handle sees and that satisfies the WHERE. visible gives, for each
// known symbol, the symbol to compare (r as the handle sees it) and
// when it is a row the handle sees. ok is false when the order cannot
// be stated (see above).
func (m *lowerer) orderFacts(s *ir.Select, t *tableModel, x *symbol, known []orderedRow) (ir.Expr, bool) {
	cols, ok := m.orderColumns(t, s)
	if !ok {
		return ir.True, false
	}
	var nulls []string
	for _, c := range cols {
		if _, ok := t.sorts[nullFlag(c)]; ok {
			nulls = append(nulls, nullFlag(c))
		}
	}
	var out []ir.Expr
	for _, k := range known {
		y := k.sym
		conds := []ir.Expr{k.sees, m.where(s.SQL.Where, y, s.Args)}
		for _, f := range nulls {
			conds = append(conds, ir.Not(x.cols[f]), ir.Not(y.cols[f]))
		}
		out = append(out, ir.Implies(ir.And(conds...), orderNotAfter(s.SQL, cols, x, y)))
	}
	return ir.And(out...), true
}

// orderedRow is a known row a SELECT's order is compared with: sym, and
// when the handle sees it as a row of the table.
type orderedRow struct {
	sym  *symbol
	sees ir.Expr
}

// orderApprox returns the note that marks the values a first-row SELECT
// reads when its order is not stated ("" when it is, or s is no such
// read).
func (m *lowerer) orderApprox(s *ir.Select, stated bool) string {
	if stated || !firstOfOrder(s) {
		return ""
	}
	why := "an ORDER BY term the model does not order by (an expression, or a string column whose order depends on the collation)"
	switch {
	case s.SQL.SkipLocked && m.concurrent():
		why = "SKIP LOCKED, which leaves out rows other requests lock"
	case s.SQL.SkipLocked && !m.concurrent() && !m.skipsNoRow(s):
		why = "SKIP LOCKED, which leaves out rows another transaction of the entry may lock"
	case (s.SQL.ForUpdate || s.SQL.ForShare) && m.concurrent():
		why = "a locking read, which returns a row another request changed while it waited without sorting again"
	}
	return fmt.Sprintf("the first row of the ORDER BY of the SELECT at %s (%s)", s.Info.Position(), why)
}

// firstRows models MySQL's UPDATE … ORDER BY … LIMIT 1 (u.first): the
// statement changes the first row of the order that its WHERE matches. It
// returns, for each symbol of t, a fresh "this is the row changed"
// (true when u.first is nil): a symbol changed comes no later in
// the order than each other symbol that matches — the facts a first-row
// SELECT states (orderFacts). The real row changed satisfies them, so no
// execution is lost; several symbols may be marked (at most one row
// changes, which is not stated: more executions, never fewer). An order
// the model cannot state leaves the marks approximations.
func (m *lowerer) firstRows(em *emitter, t *tableModel, u updateSpec) map[*symbol]ir.Expr {
	out := map[*symbol]ir.Expr{}
	if u.first == nil {
		for _, x := range t.syms {
			out[x] = ir.True
		}
		return out
	}
	vars := make([]*ir.Var, 0, len(t.syms))
	for _, x := range t.syms {
		v := m.p.NewVar("$firstRow", ir.Bool, ir.Local)
		out[x] = v
		vars = append(vars, v)
	}
	em.havoc(vars...)
	// The UPDATE as the SELECT of its first row, locking (so that where
	// other requests run the order is not stated: orderColumns).
	q := &sqlir.Select{Table: t.name, Where: u.where, OrderBy: u.first, Limit: 1, ForUpdate: true}
	s := &ir.Select{SQL: q, Args: u.args, Info: u.info}
	var facts []ir.Expr
	for _, x := range t.syms {
		var known []orderedRow
		for _, y := range t.syms {
			if y != x {
				known = append(known, orderedRow{sym: y, sees: ir.And(y.isLive(), y.exists)})
			}
		}
		f, ok := m.orderFacts(s, t, x, known)
		if !ok {
			why := fmt.Sprintf("the row the UPDATE … ORDER BY … LIMIT 1 at %s changes (an ORDER BY term the model does not order by: an expression, or a string column whose order depends on the collation; or other requests run)", u.info.Position())
			for _, v := range vars {
				v.Approx = why
			}
			return out
		}
		facts = append(facts, ir.Implies(out[x], f))
	}
	em.assume(ir.And(facts...))
	return out
}
