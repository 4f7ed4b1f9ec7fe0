package report

import "github.com/dbverify/dbverify/ir"

// The rows a write step shows. A write assigns every row symbol of its
// table (UPDATE … WHERE id = $1 sets r.booked to ite(r.id = $1, r.booked
// - 1, r.booked)): a trace that listed the assignments printed a row the
// statement did not change as if it had (adv17 sqlconn MoveBooking:
// UPDATE shows SET booked = booked - 1 WHERE id = (-1) ⇒ r.booked = 0,
// where row r has id 0 and the row changed was s1), and left out the row
// it did change, a row read before. A step shows the rows its statement
// changed, each under its symbol (the trace's rows list its key), and
// nothing of the others.

// stmtSpan returns the first and last steps of the path that belong to
// the same statement as step i: the consecutive edges with its position
// and text (the edges the row model lowers one statement to).
func (b *traceBuilder) stmtSpan(i int) (first, last int) {
	same := func(j int) bool {
		x, y := b.pf.Steps[i].Edge.Stmt.Source(), b.pf.Steps[j].Edge.Stmt.Source()
		return x.File == y.File && x.Line == y.Line && x.Text == y.Text && x.Request == y.Request
	}
	first, last = i, i
	for first > 0 && same(first-1) {
		first--
	}
	for last+1 < len(b.pf.Steps) && same(last+1) {
		last++
	}
	return first, last
}

// rowChanged reports whether the statement of step i changed row symbol
// sym: a column, its NULL-ness or its existence holds another value after
// the statement than before it (a column with no value before, a row
// the path meets here, changed).
func (b *traceBuilder) rowChanged(i int, sym string) bool {
	first, last := b.stmtSpan(i)
	before, after := b.pf.Before(first), b.pf.Before(last+1)
	for _, v := range b.cols[sym] {
		a, ok := after[v]
		if !ok {
			continue
		}
		p, ok := before[v]
		if !ok {
			return true
		}
		x, errX := b.value(p)
		y, errY := b.value(a)
		if errX != nil || errY != nil || x != y {
			return true
		}
	}
	return false
}

// copiesWatched reports whether row symbol sym, another row of the
// watched row's table, holds the watched row's values after the
// statement of step i, which changed both: the same row read before
// (SELECT … FOR UPDATE, then UPDATE), already shown as the watched row.
func (b *traceBuilder) copiesWatched(i int, sym string) bool {
	w := b.naming.watched
	if sym == w || !b.rowChanged(i, w) {
		return false
	}
	_, last := b.stmtSpan(i)
	after := b.pf.Before(last + 1)
	watched := map[string]*ir.Var{}
	for _, v := range b.cols[w] {
		watched[v.Col] = v
	}
	for _, v := range b.cols[sym] {
		if b.naming.isGhostColumn(v) {
			continue
		}
		wv, ok := watched[v.Col]
		if !ok || wv.Table != v.Table {
			return false
		}
		x, okX := after[v]
		y, okY := after[wv]
		if !okX || !okY {
			return false
		}
		sx, errX := b.value(x)
		sy, errY := b.value(y)
		if errX != nil || errY != nil || sx != sy {
			return false
		}
	}
	return true
}

// showsWrittenRow reports whether step i, which assigns column o of a
// row symbol outside a havoc, shows it: the statement changed the row,
// and the row is the watched one or another row the statement changed
// that is not a copy of it.
func (b *traceBuilder) showsWrittenRow(i int, o *ir.Var) bool {
	if !b.rowChanged(i, o.Row) {
		return false
	}
	return b.naming.isWatched(o.Row) || b.pf.Steps[i].Edge.Stmt.Source().Kind == ir.KindSQL && !b.copiesWatched(i, o.Row)
}
