package dbmodel

import (
	"fmt"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// Row symbols: the watched row r, one symbol per SELECT execution, and
// the conditions under which two of them are the same row.

// symbol is a row symbol: its columns, existence flag and liveness.
type symbol struct {
	name string
	// table is the (lower-case) table the row belongs to; "" for the
	// pseudo-row of the entry's parameters (facts over bare names).
	table  string
	cols   map[string]*ir.Var
	exists *ir.Var
	live   *ir.Var // nil for r: always live
	// nonNull lists columns known not to be NULL whenever the symbol is
	// bound (beyond the schema's NOT NULL): a SELECT symbol's WHERE
	// compares them, and the program never assigns them.
	nonNull map[string]bool
	// kinds and colls, when set for a column, say what the model knows
	// of its type and how it compares strings, instead of the schema
	// (a row of a table no model watches, otherwhere.go).
	kinds map[string]valueKind
	colls map[string]collClass
	// held (concurrent models; nil unless the symbol's SELECT locks its
	// row): the row is locked by handle heldBy's open transaction, so it
	// exists with the symbol's key even when the symbol is not live
	// (heldrows.go).
	held   *ir.Var
	heldBy ir.Tx
	// hasRow (a key slot whose property tracks it; reference.go): the
	// slot's table has a row at all.
	hasRow *ir.Var
}

func (x *symbol) isLive() ir.Expr {
	if x.live == nil {
		return ir.True
	}
	return x.live
}

// newSymbol returns a row symbol of t named name, with a variable for each
// of t's columns and, if withLive, a liveness flag (a SELECT symbol is
// live while bound to the row it read).
func (m *lowerer) newSymbol(t *tableModel, name string, withLive bool) *symbol {
	x := &symbol{name: name, table: t.name, cols: map[string]*ir.Var{}, nonNull: map[string]bool{}}
	for _, c := range t.cols {
		v := m.p.NewVar(name+"."+c, t.sorts[c], ir.Column)
		v.Row, v.Table, v.Col = name, t.spelled, c
		v.Str = (t.text[c] || t.pinnedByStr(c)) && t.sorts[c] == ir.Int
		v.Time = t.times[c] && !v.Str && t.sorts[c] == ir.Int
		x.cols[c] = v
	}
	x.exists = m.p.NewVar(name+".$exists", ir.Bool, ir.Ghost)
	x.exists.Row, x.exists.Table, x.exists.Col = name, t.spelled, "$exists"
	if withLive {
		x.live = m.p.NewVar(name+".$live", ir.Bool, ir.Ghost)
	}
	return x
}

// makeSymbols creates the row symbols of every table model: its watched
// row (named by the property), then one per SELECT site of the table
// (s1, s2, … across tables), and its dirty and written flags.
func (m *lowerer) makeSymbols() {
	n := 0
	for _, t := range m.tableList() {
		t.watched = m.newSymbol(t, t.watchName, false)
		if t.tracksAny {
			t.watched.hasRow = m.p.NewVar(t.watchName+".$any", ir.Bool, ir.Ghost)
		}
		t.syms = []*symbol{t.watched}
		assigned := t.assignedColumns(m.src)
		for _, e := range m.src.Edges {
			// (A statement shared by several edges, as in a product of
			// requests, is one site.)
			if s, ok := e.Stmt.(*ir.Select); ok && t.onTable(s.SQL.Table) && !s.SQL.Complex && !s.LockOnly && m.selSym[s] == nil {
				n++
				x := m.newSymbol(t, fmt.Sprintf("s%d", n), true)
				for c := range t.comparedColumns(s.SQL.Where) {
					if !assigned[c] {
						x.nonNull[c] = true
					}
				}
				m.heldSymbol(x, s, t)
				t.syms = append(t.syms, x)
				m.selSym[s] = x
			}
		}
		t.dirty = m.p.NewVar("$dirty", ir.Bool, ir.Ghost)
		t.written = m.p.NewVar("$written", ir.Bool, ir.Ghost)
	}
}

// watchedRows returns the watched rows of the lowered program and the
// bookkeeping variables of every row symbol (Result.Watched, Ghosts).
func (m *lowerer) watchedRows() ([]WatchedRow, []*ir.Var) {
	var watched []WatchedRow
	var ghosts []*ir.Var
	for _, t := range m.tableList() {
		for _, x := range t.syms {
			ghosts = append(ghosts, x.exists)
			if x.hasRow != nil {
				ghosts = append(ghosts, x.hasRow)
			}
			if x.live != nil {
				ghosts = append(ghosts, x.live)
			}
			if x.held != nil {
				ghosts = append(ghosts, x.held)
			}
		}
		if t.watched == nil {
			continue
		}
		w := WatchedRow{Symbol: t.watched.name, Table: t.spelled, Exists: t.watched.exists}
		for _, c := range t.cols {
			w.Cols = append(w.Cols, t.watched.cols[c])
		}
		watched = append(watched, w)
	}
	return watched, ghosts
}

// where translates a WHERE clause (nil: every row) for symbol x.
func (m *lowerer) where(w sqlir.Expr, x *symbol, args []ir.Expr) ir.Expr {
	if w == nil {
		return ir.True
	}
	return asBool(m.expr(w, x, args))
}

// covered reports whether every column e uses is a column of row.
func (m *lowerer) covered(e sqlir.Expr, row *symbol) bool {
	ok := true
	sqlir.Rewrite(e, func(x sqlir.Expr) (sqlir.Expr, bool) {
		if c, isCol := x.(*sqlir.ColRef); isCol {
			if _, has := row.cols[strings.ToLower(c.Name)]; !has {
				ok = false
			}
		}
		return nil, false
	})
	return ok
}

// pinnedKey returns a key of t whose every column the
// WHERE pins (a conjunct col = e with e free of columns), and the values
// it pins them to: then at most one row matches. nil if there is none.
func (m *lowerer) pinnedKey(t *tableModel, where sqlir.Expr, args []ir.Expr) ([]string, []ir.Expr) {
	for _, k := range t.keys {
		if vals := m.keyValue(t, k, where, args); vals != nil {
			return k, vals
		}
	}
	return nil, nil
}

// keyValue returns the expressions e such that where contains the conjunct
// c = e for each column c of key of t, with e free of columns (nil if some
// column is not pinned).
func (m *lowerer) keyValue(t *tableModel, key []string, where sqlir.Expr, args []ir.Expr) []ir.Expr {
	if len(key) == 0 || where == nil {
		return nil
	}
	found := map[string]ir.Expr{}
	for _, p := range columnPins(t.name, where) {
		saved := m.fresh
		v := m.value(p.val, nil, args)
		if len(m.fresh) != len(saved) {
			m.fresh = saved
			continue
		}
		if k := m.pinKey(t.name, p.col, v); k != nil {
			found[p.col] = k
		}
	}
	var out []ir.Expr
	for _, k := range key {
		v, ok := found[k]
		if !ok {
			return nil
		}
		out = append(out, v)
	}
	return out
}

func mentionsColumn(e sqlir.Expr) bool {
	switch e := e.(type) {
	case *sqlir.ColRef:
		return true
	case *sqlir.Binary:
		return mentionsColumn(e.X) || mentionsColumn(e.Y)
	case *sqlir.Unary:
		return mentionsColumn(e.X)
	case *sqlir.IsNull:
		return mentionsColumn(e.X)
	case *sqlir.Case, *sqlir.Unknown:
		return true
	}
	return false
}

// keyEq returns "x's columns of key equal vals" (keys as the columns'
// collations compare them: colKey, pinKey).
func (t *tableModel) keyEq(x *symbol, key []string, vals []ir.Expr) ir.Expr {
	var cs []ir.Expr
	for i, k := range key {
		cs = append(cs, ir.Eq(t.colKey(k, x.cols[k]), vals[i]))
	}
	return ir.And(cs...)
}

// symKey returns x's columns of key, as their collations compare them.
func (t *tableModel) symKey(x *symbol, key []string) []ir.Expr {
	var out []ir.Expr
	for _, k := range key {
		out = append(out, t.colKey(k, x.cols[k]))
	}
	return out
}

// sameRow returns the condition under which symbols x and y of t, both
// bound, are the same row: they agree on every column of some key. A key with a
// column that may be NULL counts only when both symbols are known to hold
// a value there (NULLs do not collide in a UNIQUE key).
func (t *tableModel) sameRow(x, y *symbol) ir.Expr {
	var alts []ir.Expr
	for _, k := range t.keys {
		usable := true
		for _, c := range k {
			if t.nullableKey[c] && !(x.nonNull[c] && y.nonNull[c]) {
				usable = false
			}
		}
		if usable {
			alts = append(alts, t.keyEq(x, k, t.symKey(y, k)))
		}
	}
	return ir.Or(alts...)
}

// A columnPin is a conjunct col = val of a WHERE clause, val free of
// columns.
type columnPin struct {
	col string // lower case
	val sqlir.Expr
}

// columnPins returns the conjuncts c = e (either way round) of where, in
// order, with c a column of table (or unqualified) and e free of columns.
func columnPins(table string, where sqlir.Expr) []columnPin {
	var out []columnPin
	var conj func(e sqlir.Expr)
	conj = func(e sqlir.Expr) {
		b, ok := e.(*sqlir.Binary)
		if !ok {
			return
		}
		if b.Op == sqlir.OpAnd {
			conj(b.X)
			conj(b.Y)
			return
		}
		if b.Op != sqlir.OpEq {
			return
		}
		for _, pair := range [][2]sqlir.Expr{{b.X, b.Y}, {b.Y, b.X}} {
			c, ok := pair[0].(*sqlir.ColRef)
			if ok && (c.Table == "" || strings.EqualFold(c.Table, table)) && !mentionsColumn(pair[1]) {
				out = append(out, columnPin{strings.ToLower(c.Name), pair[1]})
			}
		}
	}
	conj(where)
	return out
}

// pinnedByStr reports whether column c of a table no schema declares is
// pinned by a WHERE to a Go string and not used as a number by the
// property: it holds that string, printed as one (a trace printed code
// = 2 beside the request's "2" and the SQL's '2').
func (t *tableModel) pinnedByStr(c string) bool {
	return t.schema == nil && t.pinnedStr[c] && !t.numCols[c]
}
