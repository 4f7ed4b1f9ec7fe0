package dbmodel

import (
	"sort"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// A LockOrder is two row locks one transaction takes in turn: First, a
// statement that locks the row of Table whose key Key has the value
// FirstKey, then Second, a later statement on the same transaction (on
// some path, the transaction open in between) that locks the row of the
// same key with the value SecondKey, written differently. Two requests
// of the program whose values are swapped (A locks x then y, B y then
// x) wait for each other: a deadlock-prone lock order.
type LockOrder struct {
	First, Second ir.Info
	// SecondStmt is the second statement (the one that may wait, and
	// fail as a deadlock victim); Tx its transaction.
	SecondStmt          ir.Stmt
	Tx                  ir.Tx
	Table               string
	Key                 []string
	FirstKey, SecondKey string
}

// LockOrders returns the deadlock-prone lock orders of p: the pairs of
// statements of one transaction that lock rows by key (SELECT … FOR
// UPDATE / FOR SHARE that is not a plain shared pair, UPDATE, DELETE
// whose WHERE pins every column of a key: the row locks by key of
// keylocks.go) where the second's key value is not written as the
// first's. A statement that pins no key (`WHERE id IN ($1, $2) ORDER BY
// id FOR UPDATE`, the usual fix) takes part in none. Keys are compared
// as written: key values that the code orders before locking (min and
// max of the two) still give a pair.
func LockOrders(p *ir.Program, opt Options) []LockOrder {
	m := &lowerer{src: p, opt: opt}
	locks := map[*ir.Edge]*rowLock{}
	pinnedLocks := 0
	cp := newCopies(p)
	for _, e := range p.Edges {
		table, h, ok := lockTable(e.Stmt)
		if !ok || h == 0 {
			continue
		}
		// A lock not pinned by key (key nil) may lock any row of the
		// table, in the engine's order: a later lock of the table in
		// the transaction may wait for nothing new.
		lk := &rowLock{info: e.Stmt.Source(), table: table, tx: h, excl: !sharedLock(e.Stmt)}
		if t, where, args, _, ok := m.lockSpec(e.Stmt); ok {
			lk.key, lk.val = m.pinnedText(t, where, args)
			var rooted []ir.Expr
			rooted, lk.roots = cp.rooted(args)
			_, lk.rootVal = m.pinnedText(t, where, rooted)
		}
		if lk.key != nil {
			pinnedLocks++
		}
		locks[e] = lk
	}
	if pinnedLocks < 2 {
		return nil
	}
	// held[l]: the lock statements (edges) run since their
	// transaction's BEGIN on some path to l, by handle.
	held := make([]map[ir.Tx]map[*ir.Edge]bool, p.NumLocs)
	held[p.Entry] = map[ir.Tx]map[*ir.Edge]bool{}
	work := []ir.Loc{p.Entry}
	seen := map[[2]*ir.Edge]bool{}
	var out []LockOrder
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		for _, e := range p.Out[l] {
			next := map[ir.Tx]map[*ir.Edge]bool{}
			for h, s := range held[l] {
				next[h] = s
			}
			if s, ok := e.Stmt.(*ir.TxOp); ok {
				delete(next, s.Tx)
			}
			if lk := locks[e]; lk != nil {
				out = append(out, lockPairs(locks, held[l][lk.tx], e, seen, cp)...)
				s := map[*ir.Edge]bool{e: true}
				for f := range held[l][lk.tx] {
					s[f] = true
				}
				next[lk.tx] = s
			}
			if merge(&held[e.To], next) {
				work = append(work, e.To)
			}
		}
	}
	// One pair per second statement: with the earliest first lock.
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Second.Position() != b.Second.Position() {
			return a.Second.Position() < b.Second.Position()
		}
		return a.First.Line < b.First.Line
	})
	var kept []LockOrder
	for i, o := range out {
		if i == 0 || o.Second.Position() != out[i-1].Second.Position() {
			kept = append(kept, o)
		}
	}
	return kept
}

// copies are p's copies of variables: the frontend loads a Go variable
// kept in memory (a parameter a closure captures) into a fresh variable
// at each read, so two reads of one variable are two names for one key
// value where nothing writes the variable in between
// (pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error { … id … id … }): one
// row, locked twice, adv13 m4).
type copies struct {
	p *ir.Program
	// of maps a variable p assigns once, from another variable, to that
	// variable.
	of     map[*ir.Var]*ir.Var
	writes map[*ir.Var][]*ir.Edge
	in     [][]*ir.Edge
}

func newCopies(p *ir.Program) *copies {
	c := &copies{p: p, of: map[*ir.Var]*ir.Var{}, writes: map[*ir.Var][]*ir.Edge{}}
	for _, e := range p.Edges {
		switch s := e.Stmt.(type) {
		case *ir.Assign:
			for i, v := range s.Lhs {
				c.writes[v] = append(c.writes[v], e)
				if w, ok := s.Rhs[i].(*ir.Var); ok {
					c.of[v] = w
				}
			}
		case *ir.Havoc:
			for _, v := range s.Vars {
				c.writes[v] = append(c.writes[v], e)
			}
		}
	}
	for v := range c.of {
		if len(c.writes[v]) != 1 {
			delete(c.of, v)
		}
	}
	return c
}

// rooted is args with each copy replaced by the variable it copies, and
// those variables.
func (c *copies) rooted(args []ir.Expr) ([]ir.Expr, []*ir.Var) {
	out := make([]ir.Expr, len(args))
	var roots []*ir.Var
	for i, a := range args {
		out[i] = a
		if v, ok := a.(*ir.Var); ok && c.of[v] != nil {
			out[i] = c.of[v]
			roots = append(roots, c.of[v])
		}
	}
	return out, roots
}

// writtenBetween reports whether one of vars may be written on a path
// from edge f to edge e (after f, before e).
func (c *copies) writtenBetween(f, e *ir.Edge, vars []*ir.Var) bool {
	if c.in == nil {
		c.in = c.p.In()
	}
	after := reachLocs(f.To, func(l ir.Loc) []ir.Loc { return targets(c.p.Out[l], true) })
	before := reachLocs(e.From, func(l ir.Loc) []ir.Loc { return targets(c.in[l], false) })
	for _, v := range vars {
		for _, w := range c.writes[v] {
			if after[w.From] && before[w.To] {
				return true
			}
		}
	}
	return false
}

// targets are the locations edges lead to (out) or come from.
func targets(edges []*ir.Edge, out bool) []ir.Loc {
	ls := make([]ir.Loc, len(edges))
	for i, e := range edges {
		ls[i] = e.From
		if out {
			ls[i] = e.To
		}
	}
	return ls
}

// reachLocs is the set of locations next leads to from l, l included.
func reachLocs(l ir.Loc, next func(ir.Loc) []ir.Loc) map[ir.Loc]bool {
	seen := map[ir.Loc]bool{l: true}
	work := []ir.Loc{l}
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		for _, y := range next(x) {
			if !seen[y] {
				seen[y] = true
				work = append(work, y)
			}
		}
	}
	return seen
}

// lockTable returns the table (lower case) and handle of a statement that
// takes row locks: a locking SELECT (simple or not), an UPDATE, a DELETE.
func lockTable(s ir.Stmt) (string, ir.Tx, bool) {
	switch s := s.(type) {
	case *ir.Select:
		if s.SQL.ForUpdate || s.SQL.ForShare {
			return strings.ToLower(s.SQL.Table), s.Tx, true
		}
	case *ir.Exec:
		switch q := s.SQL.(type) {
		case *sqlir.Update:
			return strings.ToLower(q.Table), s.Tx, true
		case *sqlir.Delete:
			return strings.ToLower(q.Table), s.Tx, true
		}
	}
	return "", 0, false
}

// rowLock is a statement that takes row locks of table in transaction
// tx: by key (key, and its value as written, val) or, key nil, rows the
// WHERE does not pin by key.
type rowLock struct {
	info  ir.Info
	table string
	tx    ir.Tx
	key   []string
	val   string
	excl  bool
	// rootVal is val with each variable that copies another (see
	// copies) written as the variable it copies, roots those variables.
	rootVal string
	roots   []*ir.Var
}

// lockPairs returns the lock orders that end at lock statement e, given
// the lock statements held before it in its transaction.
func lockPairs(locks map[*ir.Edge]*rowLock, held map[*ir.Edge]bool, e *ir.Edge, seen map[[2]*ir.Edge]bool, cp *copies) []LockOrder {
	lk := locks[e]
	if lk.key == nil {
		return nil
	}
	sameKey := func(f *ir.Edge) bool {
		g := locks[f]
		return g.val == lk.val || g.rootVal == lk.rootVal && !cp.writtenBetween(f, e, append(g.roots, lk.roots...))
	}
	for f := range held {
		if g := locks[f]; g.table == lk.table && (g.key == nil || sameKey(f)) && (g.excl || !lk.excl) {
			return nil // the row is locked already (on some path): no wait here
		}
	}
	var out []LockOrder
	for f := range held {
		first := locks[f]
		same := first.key != nil && sameKey(f)
		swapped := !same && (first.excl || lk.excl)
		upgrade := same && !first.excl && lk.excl
		if first.key == nil || first.table != lk.table || strings.Join(first.key, ",") != strings.Join(lk.key, ",") ||
			!(swapped || upgrade) || seen[[2]*ir.Edge{f, e}] {
			continue
		}
		seen[[2]*ir.Edge{f, e}] = true
		out = append(out, LockOrder{First: first.info, Second: lk.info, SecondStmt: e.Stmt, Tx: lk.tx, Table: lk.table, Key: lk.key,
			FirstKey: first.val, SecondKey: lk.val})
	}
	return out
}

// merge adds in to *dst (created if nil) and reports whether it grew.
func merge(dst *map[ir.Tx]map[*ir.Edge]bool, in map[ir.Tx]map[*ir.Edge]bool) bool {
	if *dst == nil {
		*dst = map[ir.Tx]map[*ir.Edge]bool{}
		for h, s := range in {
			(*dst)[h] = s
		}
		return true
	}
	grew := false
	for h, s := range in {
		d := (*dst)[h]
		for f := range s {
			if !d[f] {
				nd := map[*ir.Edge]bool{f: true}
				for g := range d {
					nd[g] = true
				}
				d = nd
				grew = true
			}
		}
		(*dst)[h] = d
	}
	return grew
}

// pinnedText returns a key of table that where pins and its value as
// written (the placeholders' Go expressions), or nil.
func (m *lowerer) pinnedText(table string, where sqlir.Expr, args []ir.Expr) ([]string, string) {
	if where == nil {
		return nil, ""
	}
	found := map[string]sqlir.Expr{}
	for _, p := range columnPins(table, where) {
		found[p.col] = p.val
	}
	for _, k := range m.tableKeys(table) {
		var vals []string
		for _, c := range k {
			e, ok := found[c]
			if !ok {
				vals = nil
				break
			}
			vals = append(vals, pinText(e, args))
		}
		if vals != nil {
			return k, strings.Join(vals, ", ")
		}
	}
	return nil, ""
}

// pinText writes the value a key column is pinned to.
func pinText(e sqlir.Expr, args []ir.Expr) string {
	switch e := e.(type) {
	case *sqlir.Param:
		if e.Index >= 0 && e.Index < len(args) && args[e.Index] != nil {
			return args[e.Index].String()
		}
		return "?"
	case *sqlir.Num:
		return e.Val.RatString()
	case *sqlir.Str:
		return "'" + e.Val + "'"
	}
	return "?"
}
