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
}

func (x *symbol) isLive() ir.Expr {
	if x.live == nil {
		return ir.True
	}
	return x.live
}

func (m *lowerer) newSymbol(name string, withLive bool) *symbol {
	x := &symbol{name: name, table: m.table, cols: map[string]*ir.Var{}, nonNull: map[string]bool{}}
	for _, c := range m.cols {
		v := m.p.NewVar(name+"."+c, m.colSort[c], ir.Column)
		v.Row, v.Table, v.Col = name, m.c.Table, c
		x.cols[c] = v
	}
	x.exists = m.p.NewVar(name+".$exists", ir.Bool, ir.Ghost)
	x.exists.Row, x.exists.Table, x.exists.Col = name, m.c.Table, "$exists"
	if withLive {
		x.live = m.p.NewVar(name+".$live", ir.Bool, ir.Ghost)
	}
	return x
}

func (m *lowerer) makeSymbols() {
	m.r = m.newSymbol("r", false)
	m.syms = []*symbol{m.r}
	assigned := m.assignedColumns()
	n := 0
	for _, e := range m.src.Edges {
		// (A statement shared by several edges, as in a product of
		// requests, is one site.)
		if s, ok := e.Stmt.(*ir.Select); ok && m.onTable(s.SQL.Table) && !s.SQL.Complex && !s.LockOnly && m.selSym[s] == nil {
			n++
			x := m.newSymbol(fmt.Sprintf("s%d", n), true)
			for c := range m.comparedColumns(s.SQL.Where) {
				if !assigned[c] {
					x.nonNull[c] = true
				}
			}
			m.syms = append(m.syms, x)
			m.selSym[s] = x
		}
	}
	m.dirty = m.p.NewVar("$dirty", ir.Bool, ir.Ghost)
	m.written = m.p.NewVar("$written", ir.Bool, ir.Ghost)
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

// pinnedKey returns a key of the constrained table whose every column the
// WHERE pins (a conjunct col = e with e free of columns), and the values
// it pins them to: then at most one row matches. nil if there is none.
func (m *lowerer) pinnedKey(where sqlir.Expr, args []ir.Expr) ([]string, []ir.Expr) {
	for _, k := range m.keys {
		if vals := m.keyValue(k, where, args); vals != nil {
			return k, vals
		}
	}
	return nil, nil
}

// keyValue returns the expressions e such that where contains the conjunct
// c = e for each column c of key, with e free of columns (nil if some
// column is not pinned).
func (m *lowerer) keyValue(key []string, where sqlir.Expr, args []ir.Expr) []ir.Expr {
	if len(key) == 0 || where == nil {
		return nil
	}
	found := map[string]ir.Expr{}
	var conj func(e sqlir.Expr)
	conj = func(e sqlir.Expr) {
		b, ok := e.(*sqlir.Binary)
		if !ok {
			return
		}
		if strings.EqualFold(b.Op, "AND") {
			conj(b.X)
			conj(b.Y)
			return
		}
		if b.Op != "=" {
			return
		}
		for _, pair := range [][2]sqlir.Expr{{b.X, b.Y}, {b.Y, b.X}} {
			c, ok := pair[0].(*sqlir.ColRef)
			if !ok || (c.Table != "" && !m.onTable(c.Table)) || mentionsColumn(pair[1]) {
				continue
			}
			saved := m.fresh
			v := m.expr(pair[1], nil, args)
			if len(m.fresh) != len(saved) {
				m.fresh = saved
				continue
			}
			found[strings.ToLower(c.Name)] = v
		}
	}
	conj(where)
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

// keyEq returns "x's columns of key equal vals".
func keyEq(x *symbol, key []string, vals []ir.Expr) ir.Expr {
	var cs []ir.Expr
	for i, k := range key {
		cs = append(cs, ir.Eq(x.cols[k], vals[i]))
	}
	return ir.And(cs...)
}

// symKey returns x's columns of key.
func symKey(x *symbol, key []string) []ir.Expr {
	var out []ir.Expr
	for _, k := range key {
		out = append(out, x.cols[k])
	}
	return out
}

// sameRow returns the condition under which symbols x and y, both bound,
// are the same row: they agree on every column of some key. A key with a
// column that may be NULL counts only when both symbols are known to hold
// a value there (NULLs do not collide in a UNIQUE key).
func (m *lowerer) sameRow(x, y *symbol) ir.Expr {
	var alts []ir.Expr
	for _, k := range m.keys {
		usable := true
		for _, c := range k {
			if m.nullableKey[c] && !(x.nonNull[c] && y.nonNull[c]) {
				usable = false
			}
		}
		if usable {
			alts = append(alts, keyEq(x, k, symKey(y, k)))
		}
	}
	return ir.Or(alts...)
}
