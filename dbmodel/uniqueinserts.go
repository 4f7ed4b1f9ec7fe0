package dbmodel

import (
	"fmt"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// Unique keys between the INSERTs of a program, and between the requests
// of a concurrent product (not the stability check).
//
// Where a request has inserted a row with key k of a PRIMARY KEY or UNIQUE
// key the schema declares, and its transaction has not rolled it back, an
// INSERT of key k does not succeed: by the same request (a second INSERT
// of the key, in a loop or further down; a generated program inserting
// the same key twice made this a false UNSAFE), it fails; by request B
// of a product: if A has committed, B's
// INSERT fails with a unique violation (Postgres 23505, MySQL 1062); if
// A's transaction is still open, B's INSERT waits for it to end (then
// fails if it commits, succeeds if it rolls back), which the schedule in
// which A ends first covers, as for a row lock. Only the success of B's
// INSERT is removed: its failure stays possible, as for every statement.
//
// The restriction is kept only where it is exact:
//   - the key's columns are declared NOT NULL (NULLs never conflict) and
//     the INSERT … VALUES gives each of them (no default, no sequence);
//   - a plain INSERT of one row (not ON CONFLICT / ON DUPLICATE KEY /
//     IGNORE, not REPLACE, not INSERT … SELECT), on the pool or a
//     transaction object;
//   - a DELETE from the table, or an UPDATE of one of its key columns,
//     makes every site of the table forget its row (it may be gone); no
//     statement replaces or upserts rows of the table, nor writes a table
//     that a foreign key of the table cascades from (unstableTables);
//   - each INSERT site remembers the last row it inserted (an earlier one,
//     in a loop, is forgotten: fewer conflicts, never more).

// insertSite is an INSERT statement of one request whose rows carry a
// unique key: the key values of the row it inserted last, and whether
// that row is inserted and not rolled back.
type insertSite struct {
	request string
	table   string
	key     []string
	tx      ir.Tx
	vals    []*ir.Var
	done    *ir.Var
	// exprs are the key values as the statement gives them.
	exprs []sqlir.Expr
}

// uniqueInserts is the insert sites of a product: by statement, and in
// program order.
type uniqueInserts struct {
	byStmt map[ir.Stmt][]*insertSite
	list   []*insertSite
}

// uniqueSites returns the insert sites of every (statement, unique key)
// of the program, created on first use (nil: the stability check, whose
// havocs forget inserted rows).
func (m *lowerer) uniqueSites() *uniqueInserts {
	if m.concurrent() && m.opt.Concurrency.Interference {
		return nil
	}
	if m.inserts != nil {
		return m.inserts
	}
	m.inserts = &uniqueInserts{byStmt: map[ir.Stmt][]*insertSite{}}
	unstable := m.unstableTables()
	n := 0
	for _, e := range m.src.Edges {
		s, ok := e.Stmt.(*ir.Exec)
		if !ok {
			continue
		}
		q, ok := s.SQL.(*sqlir.Insert)
		if !ok || !plainInsert(q) || unstable[strings.ToLower(q.Table)] || (s.Tx != 0 && !m.txs[s.Tx].isTx) {
			continue
		}
		for _, k := range m.insertedKeys(q) {
			n++
			site := &insertSite{request: s.Info.Request, table: strings.ToLower(q.Table), key: k.cols, tx: s.Tx, exprs: k.vals,
				done: m.p.NewVar(fmt.Sprintf("$insert%d.done", n), ir.Bool, ir.Ghost)}
			saved := m.fresh
			for i, c := range k.cols {
				sort := m.expr(k.vals[i], nil, s.Args).Sort()
				site.vals = append(site.vals, m.p.NewVar(fmt.Sprintf("$insert%d.%s", n, c), sort, ir.Ghost))
			}
			m.fresh = saved
			m.inserts.byStmt[s] = append(m.inserts.byStmt[s], site)
			m.inserts.list = append(m.inserts.list, site)
		}
	}
	return m.inserts
}

// plainInsert reports an INSERT … VALUES of one row without a conflict
// clause.
func plainInsert(q *sqlir.Insert) bool {
	return !q.FromSelect && len(q.Rows) == 1 && !q.HasOnConflict && !q.OnConflictNothing && !q.Replace
}

// givenKey is a unique key of a table and the values an INSERT gives its
// columns.
type givenKey struct {
	cols []string
	vals []sqlir.Expr
}

// insertedKeys returns the schema's keys of q's table whose columns are
// all NOT NULL and given a placeholder or a literal by q.
func (m *lowerer) insertedKeys(q *sqlir.Insert) []givenKey {
	t := m.schemaTable(q.Table)
	if t == nil || len(q.Columns) == 0 {
		return nil
	}
	row := q.Rows[0]
	given := map[string]sqlir.Expr{}
	for i, c := range q.Columns {
		if i < len(row) {
			given[strings.ToLower(c)] = row[i]
		}
	}
	var out []givenKey
	for _, k := range t.Keys {
		gk := givenKey{}
		for _, c := range k {
			c = strings.ToLower(c)
			v, ok := given[c]
			if !ok || !keyValue(v) || !m.notNullColumn(q.Table, c) {
				gk.vals = nil
				break
			}
			gk.cols = append(gk.cols, c)
			gk.vals = append(gk.vals, v)
		}
		if gk.vals != nil {
			out = append(out, gk)
		}
	}
	return out
}

// keyValue reports a value the model gives exactly: a placeholder or a
// number or string literal.
func keyValue(e sqlir.Expr) bool {
	switch e := e.(type) {
	case *sqlir.Param:
		return true
	case *sqlir.Num:
		return e.IsInt
	case *sqlir.Str:
		return true
	}
	return false
}

// unstableTables returns the tables whose inserted rows another statement
// of the product may remove or re-key where forgetInserted does not see
// it: tables it replaces or upserts rows of, and tables with a foreign key
// that cascades (or sets NULL / a default) from a table the product
// deletes from or updates. (A DELETE, or an UPDATE of a key column, of
// the table itself makes its sites forget their rows.)
func (m *lowerer) unstableTables() map[string]bool {
	out := map[string]bool{}
	written := map[string]bool{}
	for _, e := range m.src.Edges {
		s, ok := e.Stmt.(*ir.Exec)
		if !ok {
			continue
		}
		switch q := s.SQL.(type) {
		case *sqlir.Delete:
			// forgetInserted: the sites of the table forget their rows.
			written[strings.ToLower(q.Table)] = true
		case *sqlir.Update:
			written[strings.ToLower(q.Table)] = true
		case *sqlir.Insert:
			if q.Replace || (q.HasOnConflict && m.setsKey(q.Table, q.OnConflict)) {
				out[strings.ToLower(q.Table)] = true
			}
			if q.Replace || q.HasOnConflict {
				written[strings.ToLower(q.Table)] = true
			}
		default:
			out[strings.ToLower(writtenTable(s.SQL))] = true
		}
	}
	if m.opt.Schema == nil {
		return out
	}
	for name, t := range m.opt.Schema.Tables {
		for _, fk := range t.ForeignKeys {
			if (fk.OnDelete != sqlir.FKNoAction && fk.OnDelete != sqlir.FKRestrict) ||
				(fk.OnUpdate != sqlir.FKNoAction && fk.OnUpdate != sqlir.FKRestrict) {
				if written[strings.ToLower(fk.RefTable)] {
					out[strings.ToLower(name)] = true
				}
			}
		}
	}
	return out
}

// setsKey reports whether assignments set a column of a key of table.
func (m *lowerer) setsKey(table string, set []sqlir.Assignment) bool {
	t := m.schemaTable(table)
	if t == nil {
		return true
	}
	for _, k := range t.Keys {
		for _, c := range k {
			for _, a := range set {
				if strings.EqualFold(a.Col, c) {
					return true
				}
			}
		}
	}
	return false
}

// initUniqueSites starts every insert site with no row inserted.
func (m *lowerer) initUniqueSites(em *emitter) {
	var lhs []*ir.Var
	var rhs []ir.Expr
	if u := m.uniqueSites(); u != nil {
		for _, site := range u.list {
			lhs = append(lhs, site.done)
			rhs = append(rhs, ir.False)
		}
	}
	em.assign(lhs, rhs)
}

// uniqueInsert lowers, on the success path em of INSERT s, that no other
// request has inserted (and not rolled back) a row with the same key, and
// records the key s inserts. It must run before the statement assigns its
// targets (the values are the arguments').
func (m *lowerer) uniqueInsert(em *emitter, s *ir.Exec) {
	u := m.uniqueSites()
	if u == nil || len(u.byStmt[s]) == 0 {
		return
	}
	sites := u.byStmt[s]
	var conflicts []ir.Expr
	var lhs []*ir.Var
	var rhs []ir.Expr
	for _, site := range sites {
		vals := make([]ir.Expr, len(site.exprs))
		for i, x := range site.exprs {
			vals[i] = m.expr(x, nil, s.Args)
		}
		for _, o := range u.list {
			if c := site.conflict(o, vals); c != nil {
				conflicts = append(conflicts, c)
			}
		}
		lhs = append(lhs, site.done)
		rhs = append(rhs, ir.True)
		for i, v := range site.vals {
			lhs = append(lhs, v)
			rhs = append(rhs, m.convert(vals[i], v.Type))
		}
	}
	em.havoc(m.takeFresh()...)
	if len(conflicts) > 0 {
		if m.concurrent() {
			m.assume("an INSERT of a key (PRIMARY KEY or UNIQUE of the schema) that another request inserted and did not roll back fails with a unique violation, or waits for that request's transaction to end")
		}
		em.assume(ir.Not(ir.Or(conflicts...)))
	}
	em.assign(lhs, rhs)
}

// conflict returns when o, a site on the same key (of any request, site
// itself included: its row of an earlier iteration), holds a row with key
// vals (nil: o cannot conflict with site).
func (site *insertSite) conflict(o *insertSite, vals []ir.Expr) ir.Expr {
	if o.table != site.table || strings.Join(o.key, ",") != strings.Join(site.key, ",") {
		return nil
	}
	same := []ir.Expr{o.done}
	for i := range vals {
		if o.vals[i].Type != vals[i].Sort() {
			return nil
		}
		same = append(same, ir.Eq(o.vals[i], vals[i]))
	}
	return ir.And(same...)
}

// rollbackUniqueSites forgets the rows transaction st inserted, if it is
// open (a rollback undoes them).
func (m *lowerer) rollbackUniqueSites(em *emitter, st *txState) {
	var lhs []*ir.Var
	var rhs []ir.Expr
	u := m.uniqueSites()
	if u == nil {
		return
	}
	for _, site := range u.list {
		if site.tx == st.id && site.tx != 0 {
			lhs = append(lhs, site.done)
			rhs = append(rhs, ir.And(site.done, ir.Not(st.open)))
		}
	}
	em.assign(lhs, rhs)
}

// forgetInserted lowers, where statement s deletes rows of a table or
// changes a key column of its rows, that the insert sites of that table
// no longer know whether their rows are there: their rows may be gone or
// re-keyed, so they conflict with no later INSERT (fewer conflicts, never
// more). A generated program deleted the row it had inserted, inserted the
// key again, and again in a loop; with the whole table given up on, all
// five INSERTs of one key succeeded.
func (m *lowerer) forgetInserted(em *emitter, s *ir.Exec) {
	u := m.uniqueSites()
	if u == nil {
		return
	}
	var table string
	switch q := s.SQL.(type) {
	case *sqlir.Delete:
		table = q.Table
	case *sqlir.Update:
		if !m.setsKey(q.Table, q.Set) {
			return
		}
		table = q.Table
	default:
		return
	}
	var lhs []*ir.Var
	var rhs []ir.Expr
	for _, site := range u.list {
		if site.table == strings.ToLower(table) {
			lhs = append(lhs, site.done)
			rhs = append(rhs, ir.False)
		}
	}
	em.assign(lhs, rhs)
}
