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
				out = append(out, lockPairs(locks, held[l][lk.tx], e, seen)...)
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
}

// lockPairs returns the lock orders that end at lock statement e, given
// the lock statements held before it in its transaction.
func lockPairs(locks map[*ir.Edge]*rowLock, held map[*ir.Edge]bool, e *ir.Edge, seen map[[2]*ir.Edge]bool) []LockOrder {
	lk := locks[e]
	if lk.key == nil {
		return nil
	}
	for f := range held {
		if g := locks[f]; g.table == lk.table && (g.key == nil || g.val == lk.val) && (g.excl || !lk.excl) {
			return nil // the row is locked already (on some path): no wait here
		}
	}
	var out []LockOrder
	for f := range held {
		first := locks[f]
		swapped := first.val != lk.val && (first.excl || lk.excl)
		upgrade := first.val == lk.val && !first.excl && lk.excl
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
