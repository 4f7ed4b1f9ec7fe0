package dbmodel

import (
	"fmt"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// Row locks by key (concurrent products only, not the stability check).
//
// The watched row's lock is modelled exactly (locks.go). The rows of any
// table that a statement pins by a key (a conjunct col = e for every
// column of a PRIMARY KEY or UNIQUE key of the schema, or of a column
// named id without one) are locked too: a SELECT … FOR UPDATE that
// returned a row, or an UPDATE or DELETE that did not fail, in an open
// transaction, holds the lock of that key until the transaction ends,
// and a locking read, UPDATE or DELETE of another transaction that pins
// the same key waits for it. This is what makes a lock on a parent row
// ("SELECT … FROM users WHERE id = $1 FOR UPDATE", then the work on
// accounts) order two requests. Each statement remembers the last key
// it locked; a statement that pins no key locks (and waits for) nothing
// but r.

// keyLock is the lock a statement of transaction tx holds: held, on the
// row of table whose key columns hold vals.
type keyLock struct {
	table  string
	key    []string
	vals   []*ir.Var
	held   *ir.Var
	tx     ir.Tx
	shared bool // a FOR SHARE lock
}

// lockSpec says which key a statement pins, if any.
func (m *lowerer) lockSpec(s ir.Stmt) (table string, where sqlir.Expr, args []ir.Expr, h ir.Tx, ok bool) {
	switch s := s.(type) {
	case *ir.Select:
		if (s.SQL.ForUpdate || s.SQL.ForShare) && !s.SQL.Complex {
			return strings.ToLower(s.SQL.Table), s.SQL.Where, s.Args, s.Tx, true
		}
	case *ir.Exec:
		switch q := s.SQL.(type) {
		case *sqlir.Update:
			return strings.ToLower(q.Table), q.Where, s.Args, s.Tx, true
		case *sqlir.Delete:
			return strings.ToLower(q.Table), q.Where, s.Args, s.Tx, true
		}
	}
	return "", nil, nil, 0, false
}

// tableKeys returns the keys of table (TableKeys under the run's schema
// and NoInferKey).
func (m *lowerer) tableKeys(table string) [][]string {
	return TableKeys(m.opt.Schema, table, m.opt.NoInferKey)
}

// TableKeys returns the keys the row model takes for table, each a list of
// lower-case columns: the schema's, else id (unless noInferKey); an
// advisory lock space's (sqlir.AdvisoryKeys). Two row symbols of table
// are one row only where they agree on one of them.
func TableKeys(schema *sqlir.Schema, table string, noInferKey bool) [][]string {
	if k := sqlir.AdvisoryKeys(table); k != nil {
		return [][]string{k}
	}
	if schema != nil {
		if t := schema.Tables[strings.ToLower(table)]; t != nil {
			var out [][]string
			for _, k := range t.Keys {
				var cols []string
				for _, c := range k {
					cols = append(cols, strings.ToLower(c))
				}
				out = append(out, cols)
			}
			return out
		}
	}
	if noInferKey {
		return nil
	}
	return [][]string{{"id"}}
}

// pinned returns a key of table that where pins and the expressions it
// pins its columns to (nil if none).
func (m *lowerer) pinned(table string, where sqlir.Expr, args []ir.Expr) ([]string, []ir.Expr) {
	if where == nil {
		return nil, nil
	}
	found := map[string]sqlir.Expr{}
	for _, p := range columnPins(table, where) {
		found[p.col] = p.val
	}
	for _, k := range m.tableKeys(table) {
		var vals []ir.Expr
		for _, c := range k {
			e, ok := found[c]
			if !ok {
				vals = nil
				break
			}
			pk := m.pinKey(table, c, m.value(e, nil, args))
			if pk == nil {
				vals = nil
				break
			}
			vals = append(vals, pk)
		}
		if vals != nil {
			return k, vals
		}
	}
	return nil, nil
}

// keyLocking is the key locks of a program: by statement, and in
// program order.
type keyLocking struct {
	byStmt map[ir.Stmt]*keyLock
	list   []*keyLock
}

// keyLocks returns the lock of every statement that may take one,
// created on first use.
func (m *lowerer) keyLocks() *keyLocking {
	if m.keyLocking != nil {
		return m.keyLocking
	}
	m.keyLocking = &keyLocking{byStmt: map[ir.Stmt]*keyLock{}}
	for _, e := range m.src.Edges {
		table, where, args, h, ok := m.lockSpec(e.Stmt)
		if !ok || h == 0 || m.keyLocking.byStmt[e.Stmt] != nil {
			continue
		}
		saved := m.fresh
		key, vals := m.pinned(table, where, args)
		m.fresh = saved
		if key == nil {
			continue
		}
		n := len(m.keyLocking.list) + 1
		kl := &keyLock{table: table, key: key, tx: h, shared: sharedLock(e.Stmt),
			held: m.p.NewVar(fmt.Sprintf("$lock%d.held", n), ir.Bool, ir.Ghost)}
		for i, c := range key {
			kl.vals = append(kl.vals, m.p.NewVar(fmt.Sprintf("$lock%d.%s", n, c), vals[i].Sort(), ir.Ghost))
		}
		m.keyLocking.byStmt[e.Stmt] = kl
		m.keyLocking.list = append(m.keyLocking.list, kl)
	}
	return m.keyLocking
}

// lockByKey lowers the key locking of e's statement: it waits while
// another transaction holds the lock of the key it pins, and afterwards
// (where it did not fail) its open transaction holds that lock. It
// returns the edge to lower in e's place.
func (m *lowerer) lockByKey(e *ir.Edge) *ir.Edge {
	if !m.concurrent() || m.opt.Concurrency.Interference {
		return e
	}
	locks := m.keyLocks()
	table, where, args, h, ok := m.lockSpec(e.Stmt)
	if !ok {
		return e
	}
	info := e.Stmt.Source()
	info.Kind = ir.KindModel
	info.Text = "row locks of " + info.Text
	em := m.emitter(e.From, info)
	m.fresh = nil
	key, vals := m.pinned(table, where, args)
	if key == nil {
		return e
	}
	em.havoc(m.takeFresh()...)
	var waits []ir.Expr
	waitsOn := map[ir.Tx]ir.Expr{}
	shared := sharedLock(e.Stmt)
	for _, kl := range locks.list {
		if kl.tx == h || kl.table != table || strings.Join(kl.key, ",") != strings.Join(key, ",") || (shared && kl.shared) {
			continue
		}
		same := []ir.Expr{kl.held, m.txs[kl.tx].open}
		for i := range key {
			same = append(same, ir.Eq(kl.vals[i], vals[i]))
		}
		waits = append(waits, ir.And(same...))
		if w, ok := waitsOn[kl.tx]; ok {
			waitsOn[kl.tx] = ir.Or(w, ir.And(same...))
		} else {
			waitsOn[kl.tx] = ir.And(same...)
		}
	}
	if h != 0 && m.txs[h] != nil {
		m.closeCycles(em, h, waitsOn)
		m.victimPath(em, e, h, ir.Or(waits...), waitsOn)
	}
	em.assume(ir.Not(ir.Or(waits...)))
	mid, after := m.p.NewLoc(), m.p.NewLoc()
	em.jump(mid)
	if kl := locks.byStmt[e.Stmt]; kl != nil {
		post := m.emitter(after, info)
		ok := ir.Expr(m.txs[h].open)
		if err := stmtErr(e.Stmt); err != nil {
			ok = ir.And(ok, ir.Not(err))
		}
		if x, isExec := e.Stmt.(*ir.Exec); isExec && x.Affected != nil {
			ok = ir.And(ok, ir.Cmp(ir.OpGe, x.Affected, ir.IntLit(1)))
		}
		lhs := []*ir.Var{kl.held}
		rhs := []ir.Expr{ok}
		for i := range key {
			lhs = append(lhs, kl.vals[i])
			rhs = append(rhs, ir.IteOf(ok, vals[i], kl.vals[i]))
		}
		// The values are those of the arguments before the statement
		// (which may scan into them): taken at the wait.
		tmp := make([]*ir.Var, len(key))
		var tl []*ir.Var
		var tr []ir.Expr
		for i := range key {
			tmp[i] = m.p.NewVar(fmt.Sprintf("$lockkey.%s", key[i]), vals[i].Sort(), ir.Ghost)
			tl = append(tl, tmp[i])
			tr = append(tr, vals[i])
			rhs[i+1] = ir.IteOf(ok, tmp[i], kl.vals[i])
		}
		pre := m.emitter(mid, info)
		pre.assign(tl, tr)
		n := m.p.NewLoc()
		pre.jump(n)
		mid = n
		post.assign(lhs, rhs)
		post.jump(e.To)
	} else {
		m.p.AddEdge(after, e.To, &ir.Assume{Cond: ir.True, Info: info})
	}
	out := *e
	out.From, out.To = mid, after
	return &out
}

// sharedLock reports whether s takes a shared lock (FOR SHARE).
func sharedLock(s ir.Stmt) bool {
	sel, ok := s.(*ir.Select)
	return ok && !sel.SQL.ForUpdate && sel.SQL.ForShare
}

// stmtErr is the error flag of a database statement (nil if not kept).
func stmtErr(s ir.Stmt) *ir.Var {
	switch s := s.(type) {
	case *ir.Select:
		return s.Err
	case *ir.Exec:
		return s.Err
	}
	return nil
}

// beginKeyLocks releases the key locks of transaction t when it begins.
func (m *lowerer) beginKeyLocks(em *emitter, t ir.Tx) {
	if !m.concurrent() || m.opt.Concurrency.Interference {
		return
	}
	var lhs []*ir.Var
	var rhs []ir.Expr
	for _, kl := range m.keyLocks().list {
		if kl.tx == t {
			lhs = append(lhs, kl.held)
			rhs = append(rhs, ir.False)
		}
	}
	em.assign(lhs, rhs)
}
