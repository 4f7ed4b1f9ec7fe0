package dbmodel

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// Repeated reads of a table the program does not write. Rows of another
// table than the constrained ones are not modelled: each SELECT of one
// returns arbitrary values (constrained by --assume facts). A handler that
// checks a transfer, then reads it again inside its transaction, got two
// different rows for one primary key, and a false UNSAFE (new-user trial
// D5: the check saw "Pending" and total 0, the write used total -1).
//
// Where nothing changes the table during the entry — no statement of the
// program writes it, no foreign key action of the schema changes it, and
// no other request runs in between (sequential models and the 2-request
// product, not the stability check) — two reads that pin the same key of
// the schema return the same row: each such SELECT site remembers the
// key and the columns it read last (ghosts), and a later read with equal
// key values gets the same values for the columns both read.
//
// Absence is remembered too: a read whose WHERE is exactly the key
// (`WHERE member_id = $1`) and that finds no row (the program tells
// sql.ErrNoRows apart) means no row of that key exists, so no later read
// of the key finds one, and a read that found a row of the key rules out
// a later "no rows". Without it two requests of the 2-request product read
// one optional row of an unwritten table differently — A found none (and
// used its default limit), B found a limit of 1 — and the schedule did not
// replay: the seeded row changed A's path (corpus
// concurrent/pg_redeem_points_autocommit_unsafe, 1 CI run in 4).

// readSite is a SELECT of a table the program does not write that pins a
// key of the schema: the row it returned last (done), as a row symbol
// o1, o2, … (its key columns and the columns read), which a trace shows
// and a replay seeds.
type readSite struct {
	table string
	key   []string // the pinned key's columns, lower case
	keyOf []sqlir.Expr
	done  *ir.Var
	cols  map[string]*ir.Var // column (lower case) → its value in the row read
	// exact: the WHERE is the key and nothing else, so "no rows" means
	// no row of the key exists; none is set once such a read found no
	// row, noneKey the key it looked for last (ghosts, not row columns:
	// a trace shows no row for them).
	exact   bool
	none    *ir.Var
	noneKey []*ir.Var
}

// memoSite returns the read site of s, created on first use (nil when s
// is not one).
func (m *lowerer) memoSite(s *ir.Select) *readSite {
	if m.memo == nil {
		m.memo = map[*ir.Select]*readSite{}
		m.memoStable = m.unwrittenTables()
	}
	if site, ok := m.memo[s]; ok {
		return site
	}
	m.memo[s] = m.newReadSite(s)
	if m.memo[s] != nil {
		m.memoOrder = append(m.memoOrder, s)
	}
	return m.memo[s]
}

// newReadSite builds the site of s (see readSite), or nil.
func (m *lowerer) newReadSite(s *ir.Select) *readSite {
	q := s.SQL
	if q.Complex || q.Table == "" || q.SkipsRows || len(q.Tables()) != 1 || !m.memoStable[strings.ToLower(q.Table)] {
		return nil
	}
	if m.concurrent() && m.opt.Concurrency.Interference {
		return nil
	}
	t := m.schemaTable(q.Table)
	if t == nil {
		return nil
	}
	pins := map[string]sqlir.Expr{}
	for _, p := range columnPins(q.Table, q.Where) {
		if keyValue(p.val) {
			pins[p.col] = p.val
		}
	}
	for _, k := range t.Keys {
		site := &readSite{table: strings.ToLower(q.Table), cols: map[string]*ir.Var{}}
		for _, c := range k {
			v, ok := pins[strings.ToLower(c)]
			if !ok {
				site = nil
				break
			}
			site.key = append(site.key, strings.ToLower(c))
			site.keyOf = append(site.keyOf, v)
		}
		if site == nil {
			continue
		}
		n := len(m.memoOrder) + 1
		row := fmt.Sprintf("o%d", n)
		col := func(c string, sort ir.Sort) {
			if _, ok := site.cols[c]; ok {
				return
			}
			v := m.p.NewVar(row+"."+c, sort, ir.Column)
			v.Row, v.Table, v.Col = row, q.Table, c
			v.Str = sort == ir.Int && textColumn(t, c) // (a trace prints sku = "4", not 4)
			site.cols[c] = v
		}
		site.done = m.p.NewVar(row+".$done", ir.Bool, ir.Ghost)
		site.none = m.p.NewVar(row+".$none", ir.Bool, ir.Ghost)
		site.exact = exactKeyWhere(q.Table, q.Where, site.key)
		for i, c := range site.key {
			sort, ok := keySort(site.keyOf[i], s.Args)
			if !ok {
				return nil
			}
			col(c, sort)
			site.noneKey = append(site.noneKey, m.p.NewVar(row+".$none."+c, sort, ir.Ghost))
		}
		for i, it := range q.Columns {
			c, ok := it.Expr.(*sqlir.ColRef)
			if it.Star || !ok || i >= len(s.Targets) || s.Targets[i] == nil {
				continue
			}
			col(strings.ToLower(c.Name), s.Targets[i].Type)
		}
		return site
	}
	return nil
}

// keySort is the sort of a key value (a placeholder bound to a known
// argument, an integer or a string literal); ok is false otherwise.
func keySort(e sqlir.Expr, args []ir.Expr) (ir.Sort, bool) {
	switch e := e.(type) {
	case *sqlir.Param:
		if e.Index < len(args) && args[e.Index] != nil {
			return args[e.Index].Sort(), true
		}
	case *sqlir.Num, *sqlir.Str:
		return ir.Int, true
	}
	return 0, false
}

// exactKeyWhere says whether where is a conjunction of one equality per
// column of key, each pinning a key column of table, and nothing else.
func exactKeyWhere(table string, where sqlir.Expr, key []string) bool {
	var conj []sqlir.Expr
	var flatten func(e sqlir.Expr)
	flatten = func(e sqlir.Expr) {
		if b, ok := e.(*sqlir.Binary); ok && b.Op == sqlir.OpAnd {
			flatten(b.X)
			flatten(b.Y)
			return
		}
		conj = append(conj, e)
	}
	flatten(where)
	pinned := map[string]bool{}
	for _, p := range columnPins(table, where) {
		if keyValue(p.val) && slices.Contains(key, p.col) {
			pinned[p.col] = true
		}
	}
	return len(conj) == len(key) && len(pinned) == len(key)
}

// unwrittenTables returns the tables (lower case) no statement of the
// program writes and no foreign key action of the schema changes.
func (m *lowerer) unwrittenTables() map[string]bool {
	written := map[string]bool{}
	for _, e := range m.src.Edges {
		if s, ok := e.Stmt.(*ir.Exec); ok {
			if t := writtenTable(s.SQL); t != "" {
				written[strings.ToLower(t)] = true
			} else if _, isOther := s.SQL.(*sqlir.Other); !isOther {
				return map[string]bool{} // a statement that may write anything
			}
		}
	}
	out := map[string]bool{}
	if m.opt.Schema == nil {
		return out
	}
	for name, t := range m.opt.Schema.Tables {
		stable := !written[strings.ToLower(name)]
		for _, fk := range t.ForeignKeys {
			if (fk.OnDelete != sqlir.FKNoAction && fk.OnDelete != sqlir.FKRestrict) ||
				(fk.OnUpdate != sqlir.FKNoAction && fk.OnUpdate != sqlir.FKRestrict) {
				stable = false
			}
		}
		if stable {
			out[strings.ToLower(name)] = true
		}
	}
	return out
}

// memoRead constrains, on the success path em of SELECT s (its targets
// bound), the values s read to those an earlier read of the same key
// got, and records s's key and values.
func (m *lowerer) memoRead(em *emitter, s *ir.Select) {
	site := m.memoSite(s)
	if site == nil {
		return
	}
	var key []ir.Expr
	for _, v := range site.keyOf {
		key = append(key, m.expr(v, nil, s.Args))
	}
	cur := map[string]*ir.Var{}
	for i, it := range s.SQL.Columns {
		if c, ok := it.Expr.(*sqlir.ColRef); ok && !it.Star && i < len(s.Targets) && s.Targets[i] != nil {
			cur[strings.ToLower(c.Name)] = s.Targets[i]
		}
	}
	var facts []ir.Expr
	for _, other := range m.sameKeySites(site) {
		same := []ir.Expr{other.done}
		for i, c := range site.key {
			same = append(same, ir.Eq(other.cols[c], key[i]))
		}
		var eqs []ir.Expr
		for _, c := range slices.Sorted(maps.Keys(cur)) {
			v := cur[c]
			if w, ok := other.cols[c]; ok && w.Type == v.Type {
				eqs = append(eqs, ir.Eq(v, w))
			}
		}
		if len(eqs) > 0 {
			facts = append(facts, ir.Implies(ir.And(same...), ir.And(eqs...)))
		}
		if other.exact {
			facts = append(facts, ir.Not(other.absent(key)))
		}
	}
	em.havoc(m.takeFresh()...)
	if len(facts) > 0 {
		em.assume(ir.And(facts...))
	}
	// The row read, as its symbol.
	var vars []*ir.Var
	var bind []ir.Expr
	cols := slices.Sorted(maps.Keys(site.cols))
	for _, c := range cols {
		vars = append(vars, site.cols[c])
	}
	for i, c := range site.key {
		if v := site.cols[c]; v.Type == key[i].Sort() {
			bind = append(bind, ir.Eq(v, key[i]))
		}
	}
	for _, c := range cols {
		v := site.cols[c]
		if w, ok := cur[c]; ok && w.Type == v.Type {
			bind = append(bind, ir.Eq(v, w))
		}
	}
	em.havoc(vars...)
	em.assume(ir.And(bind...))
	em.assign([]*ir.Var{site.done}, []ir.Expr{ir.True})
}

// sameKeySites returns the read sites, in program order, of site's table
// and key (site itself included).
func (m *lowerer) sameKeySites(site *readSite) []*readSite {
	var out []*readSite
	for _, s := range m.memoOrder {
		if other := m.memo[s]; other.table == site.table && slices.Equal(other.key, site.key) {
			out = append(out, other)
		}
	}
	return out
}

// absent says that site's last "no rows" was for key.
func (site *readSite) absent(key []ir.Expr) ir.Expr {
	out := []ir.Expr{site.none}
	for i, k := range site.noneKey {
		out = append(out, ir.Eq(k, key[i]))
	}
	return ir.And(out...)
}

// memoNoRow is the no-row condition of SELECT s (see failed): no earlier
// read found a row of s's key. When s is an exact key read, its "no rows"
// (the program's noRow variable set) is recorded for later reads.
func (m *lowerer) memoNoRow(s *ir.Select) func(*emitter) ir.Expr {
	site := m.memoSite(s)
	if site == nil || s.NoRow == nil {
		return noFacts
	}
	return func(em *emitter) ir.Expr {
		var key []ir.Expr
		for _, v := range site.keyOf {
			key = append(key, m.expr(v, nil, s.Args))
		}
		var none []ir.Expr
		for _, other := range m.sameKeySites(site) {
			found := []ir.Expr{other.done}
			for i, c := range site.key {
				found = append(found, ir.Eq(other.cols[c], key[i]))
			}
			none = append(none, ir.Not(ir.And(found...)))
		}
		if site.exact {
			lhs := []*ir.Var{site.none}
			rhs := []ir.Expr{ir.Or(site.none, s.NoRow)}
			for i, k := range site.noneKey {
				if k.Type != key[i].Sort() {
					return ir.And(none...)
				}
				lhs = append(lhs, k)
				rhs = append(rhs, ir.IteOf(s.NoRow, key[i], k))
			}
			em.assign(lhs, rhs)
		}
		return ir.And(none...)
	}
}

// initReadSites starts every read site with no row read; the sites are
// created here, in program order.
func (m *lowerer) initReadSites(em *emitter) {
	var lhs []*ir.Var
	var rhs []ir.Expr
	for _, e := range m.src.Edges {
		if s, ok := e.Stmt.(*ir.Select); ok && !s.LockOnly && m.selSym[s] == nil {
			if site := m.memoSite(s); site != nil {
				lhs = append(lhs, site.done, site.none)
				rhs = append(rhs, ir.False, ir.False)
			}
		}
	}
	if len(lhs) > 0 {
		em.assign(lhs, rhs)
	}
}

// textColumn reports whether the schema declares column c of t with a
// character type.
func textColumn(t *sqlir.Table, c string) bool {
	for _, col := range t.Columns {
		if strings.EqualFold(col.Name, c) {
			return isTextType(col.Type)
		}
	}
	return false
}
