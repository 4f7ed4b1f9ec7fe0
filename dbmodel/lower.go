package dbmodel

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// Options configure the row model.
type Options struct {
	// Schema, if not nil, gives keys and column types.
	Schema *sqlir.Schema
	// NoInferKey disables treating a column named "id" as the key when the
	// schema declares none.
	NoInferKey bool
	// Facts are --assume expressions: over a table, they hold for every
	// row of the initial database; with Table "", over the entry's
	// parameters.
	Facts []*sqlir.Constraint
}

// Result is a lowered program and what the model assumed to build it.
type Result struct {
	Program *ir.Program
	// Key lists the key columns of the constrained table used for row
	// aliasing (nil: none known, any two symbols may be different rows).
	Key []string
	// Assumptions says, in words, what the model assumed beyond the code
	// (e.g. an inferred key); reports show them.
	Assumptions []string
	// Writes is the number of write statements on the constrained table.
	Writes int
}

// symbol is a row symbol: its columns, existence flag and liveness.
type symbol struct {
	name   string
	cols   map[string]*ir.Var
	exists *ir.Var
	live   *ir.Var // nil for r: always live
}

func (x *symbol) isLive() ir.Expr {
	if x.live == nil {
		return ir.True
	}
	return x.live
}

type txState struct {
	open *ir.Var
	snap map[*ir.Var]*ir.Var // r's columns, r.$exists and dirty → snapshot
}

type lowerer struct {
	src, p  *ir.Program
	c       *sqlir.Constraint
	table   string
	colSort map[string]ir.Sort
	cols    []string
	key     []string
	r       *symbol
	syms    []*symbol // r first
	selSym  map[*ir.Select]*symbol
	dirty   *ir.Var
	written *ir.Var
	txs     map[ir.Tx]*txState
	res     *Result
	fresh   []*ir.Var // havoc before the statement being emitted
	opt     Options
}

// Lower returns p with every database operation replaced by its meaning in
// the row model of constraint c.
func Lower(p *ir.Program, c *sqlir.Constraint, opt Options) (*Result, error) {
	m := &lowerer{
		src: p, c: c, table: strings.ToLower(c.Table),
		colSort: map[string]ir.Sort{}, selSym: map[*ir.Select]*symbol{},
		txs: map[ir.Tx]*txState{}, res: &Result{}, opt: opt,
	}
	m.p = p.Shell()
	m.collectColumns(opt)
	m.chooseKey(opt)
	m.makeSymbols()
	for _, e := range p.Edges {
		if s, ok := e.Stmt.(*ir.TxOp); ok {
			m.tx(s.Tx)
		}
	}
	entry := m.p.NewLoc()
	m.prologue(entry, p.Entry)
	m.p.Entry = entry
	for _, e := range p.Edges {
		if err := m.lowerEdge(e); err != nil {
			return nil, err
		}
	}
	if err := ir.Sanity(m.p); err != nil {
		return nil, fmt.Errorf("row model of %s: %w", p.Name, err)
	}
	m.res.Program = m.p
	m.res.Key = m.key
	return m.res, nil
}

// onTable reports whether s is on the constrained table.
func (m *lowerer) onTable(table string) bool { return strings.EqualFold(table, m.table) }

func (m *lowerer) collectColumns(opt Options) {
	add := func(name string) {
		name = strings.ToLower(name)
		if _, ok := m.colSort[name]; !ok {
			m.colSort[name] = ir.Int
			m.cols = append(m.cols, name)
		}
	}
	var walk func(e sqlir.Expr)
	walk = func(e sqlir.Expr) {
		switch e := e.(type) {
		case *sqlir.ColRef:
			if e.Table == "" || m.onTable(e.Table) {
				add(e.Name)
			}
		case *sqlir.Binary:
			walk(e.X)
			walk(e.Y)
		case *sqlir.Unary:
			walk(e.X)
		case *sqlir.IsNull:
			walk(e.X)
		case *sqlir.Case:
			for _, w := range e.Whens {
				walk(w.Cond)
				walk(w.Val)
			}
			if e.Else != nil {
				walk(e.Else)
			}
		}
	}
	walkItems := func(items []sqlir.SelectItem) {
		for _, it := range items {
			if it.Expr != nil && !it.Star {
				walk(it.Expr)
			}
		}
	}
	walk(m.c.Expr)
	for _, f := range opt.Facts {
		if m.onTable(f.Table) {
			walk(f.Expr)
		}
	}
	for _, e := range m.src.Edges {
		switch s := e.Stmt.(type) {
		case *ir.Exec:
			switch q := s.SQL.(type) {
			case *sqlir.Update:
				if m.onTable(q.Table) {
					for _, a := range q.Set {
						add(a.Col)
						walk(a.Value)
					}
					if q.Where != nil {
						walk(q.Where)
					}
					walkItems(q.Returning)
				}
			case *sqlir.Insert:
				if m.onTable(q.Table) {
					for _, c := range q.Columns {
						add(c)
					}
					for _, a := range q.OnConflict {
						add(a.Col)
						walk(a.Value)
					}
					walkItems(q.Returning)
				}
			case *sqlir.Delete:
				if m.onTable(q.Table) && q.Where != nil {
					walk(q.Where)
				}
			}
		case *ir.Select:
			if m.onTable(s.SQL.Table) && !s.SQL.Complex {
				for _, it := range s.SQL.Columns {
					if it.Expr != nil {
						walk(it.Expr)
					}
				}
				if s.SQL.Where != nil {
					walk(s.SQL.Where)
				}
			}
		}
	}
	if opt.Schema != nil {
		if t := opt.Schema.Tables[m.table]; t != nil {
			for _, col := range t.Columns {
				if isRealType(col.Type) {
					if _, ok := m.colSort[strings.ToLower(col.Name)]; ok {
						m.colSort[strings.ToLower(col.Name)] = ir.Real
					}
				}
			}
		}
	}
	// A column assigned a real-valued argument is real.
	for _, e := range m.src.Edges {
		if s, ok := e.Stmt.(*ir.Exec); ok {
			if q, ok := s.SQL.(*sqlir.Update); ok && m.onTable(q.Table) {
				for _, a := range q.Set {
					if usesRealArg(a.Value, s.Args) {
						m.colSort[strings.ToLower(a.Col)] = ir.Real
					}
				}
			}
			if q, ok := s.SQL.(*sqlir.Insert); ok && m.onTable(q.Table) {
				for _, row := range q.Rows {
					for i, v := range row {
						if i < len(q.Columns) && usesRealArg(v, s.Args) {
							m.colSort[strings.ToLower(q.Columns[i])] = ir.Real
						}
					}
				}
			}
		}
	}
	sort.Strings(m.cols)
}

func isRealType(t string) bool {
	t = strings.ToLower(t)
	for _, k := range []string{"decimal", "numeric", "real", "float", "double", "money"} {
		if strings.Contains(t, k) {
			return true
		}
	}
	return false
}

func usesRealArg(e sqlir.Expr, args []ir.Expr) bool {
	switch e := e.(type) {
	case *sqlir.Param:
		return e.Index < len(args) && args[e.Index] != nil && args[e.Index].Sort() == ir.Real
	case *sqlir.Binary:
		return usesRealArg(e.X, args) || usesRealArg(e.Y, args)
	case *sqlir.Unary:
		return usesRealArg(e.X, args)
	case *sqlir.Num:
		return !e.IsInt
	}
	return false
}

func (m *lowerer) chooseKey(opt Options) {
	if opt.Schema != nil {
		if t := opt.Schema.Tables[m.table]; t != nil && len(t.Keys) > 0 {
			for _, k := range t.Keys[0] {
				m.key = append(m.key, strings.ToLower(k))
			}
		}
	}
	if m.key == nil && !opt.NoInferKey {
		if _, ok := m.colSort["id"]; ok {
			m.key = []string{"id"}
			m.res.Assumptions = append(m.res.Assumptions,
				fmt.Sprintf("%s.id is a unique key (no schema declares one; pass --schema, or --no-infer-key to drop this)", m.c.Table))
		}
	}
	for _, k := range m.key {
		if _, ok := m.colSort[k]; !ok {
			m.colSort[k] = ir.Int
			m.cols = append(m.cols, k)
			sort.Strings(m.cols)
		}
	}
}

func (m *lowerer) newSymbol(name string, withLive bool) *symbol {
	x := &symbol{name: name, cols: map[string]*ir.Var{}}
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
	n := 0
	for _, e := range m.src.Edges {
		if s, ok := e.Stmt.(*ir.Select); ok && m.onTable(s.SQL.Table) && !s.SQL.Complex {
			n++
			x := m.newSymbol(fmt.Sprintf("s%d", n), true)
			m.syms = append(m.syms, x)
			m.selSym[s] = x
		}
	}
	m.dirty = m.p.NewVar("$dirty", ir.Bool, ir.Ghost)
	m.written = m.p.NewVar("$written", ir.Bool, ir.Ghost)
}

// psi returns ψ over symbol x.
func (m *lowerer) psi(x *symbol) ir.Expr {
	return asBool(m.expr(m.c.Expr, x, nil))
}

func (m *lowerer) prologue(from, to ir.Loc) {
	info := ir.Info{File: m.src.Pos.File, Line: m.src.Pos.Line, Kind: ir.KindModel,
		Text: "database state on entry: every row satisfies " + m.c.Text}
	em := m.emitter(from, info)
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
		lhs = append(lhs, m.txs[t].open)
		rhs = append(rhs, ir.False)
	}
	em.assign(lhs, rhs)
	m.fresh = nil
	psi := m.initial(m.r)
	inputs := m.inputFacts()
	em.havoc(m.takeFresh()...)
	em.assume(psi)
	em.assume(inputs)
	em.jump(to)
}

// initial returns what holds of a row of the initial database: ψ and the
// facts about the constrained table.
func (m *lowerer) initial(x *symbol) ir.Expr {
	out := []ir.Expr{m.psi(x)}
	for _, f := range m.opt.Facts {
		if m.onTable(f.Table) {
			out = append(out, asBool(m.expr(f.Expr, x, nil)))
		}
	}
	return ir.And(out...)
}

// inputFacts returns the facts about the entry's parameters.
func (m *lowerer) inputFacts() ir.Expr {
	params := &symbol{cols: map[string]*ir.Var{}}
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

// otherTableFacts returns the facts about table (not the constrained one)
// that a row read into targets satisfies, when the entry never writes that
// table (so its rows are as they were initially).
func (m *lowerer) otherTableFacts(s *ir.Select) ir.Expr {
	if s.SQL.Complex || m.writesTable(s.SQL.Table) {
		return ir.True
	}
	row := &symbol{cols: map[string]*ir.Var{}}
	for i, it := range s.SQL.Columns {
		if c, ok := it.Expr.(*sqlir.ColRef); ok && !it.Star && i < len(s.Targets) && s.Targets[i] != nil {
			row.cols[strings.ToLower(c.Name)] = s.Targets[i]
		}
	}
	var out []ir.Expr
	for _, f := range m.opt.Facts {
		if !strings.EqualFold(f.Table, s.SQL.Table) || !m.covered(f.Expr, row) {
			continue
		}
		out = append(out, asBool(m.expr(f.Expr, row, nil)))
	}
	return ir.And(out...)
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

// writesTable reports whether the program writes table.
func (m *lowerer) writesTable(table string) bool {
	for _, e := range m.src.Edges {
		if s, ok := e.Stmt.(*ir.Exec); ok && sqlir.IsWrite(s.SQL) {
			for _, t := range s.SQL.Tables() {
				if strings.EqualFold(t, table) {
					return true
				}
			}
		}
	}
	return false
}

func (m *lowerer) takeFresh() []*ir.Var {
	f := m.fresh
	m.fresh = nil
	return f
}

// freshVar returns a new variable with an arbitrary value, havocked before
// the statement being lowered.
func (m *lowerer) freshVar(name string, s ir.Sort) *ir.Var {
	v := m.p.NewVar(name, s, ir.Ghost)
	m.fresh = append(m.fresh, v)
	return v
}

func (m *lowerer) lowerEdge(e *ir.Edge) error {
	switch s := e.Stmt.(type) {
	case *ir.Assign, *ir.Assume, *ir.Havoc:
		m.p.AddEdge(e.From, e.To, s)
		return nil
	case *ir.Exec:
		return m.lowerExec(e, s)
	case *ir.Select:
		m.lowerSelect(e, s)
		return nil
	case *ir.TxOp:
		m.lowerTx(e, s)
		return nil
	}
	return fmt.Errorf("row model: unexpected statement %T", e.Stmt)
}

// errFork havocs the call's error flag and returns an emitter on the
// success path; the failure path jumps to `to`.
func (m *lowerer) errFork(e *ir.Edge, info ir.Info, errVar *ir.Var, extra ...*ir.Var) *emitter {
	em := m.emitter(e.From, info)
	if errVar == nil {
		errVar = m.p.NewVar("$err", ir.Bool, ir.Ghost)
	}
	em.havoc(append([]*ir.Var{errVar}, extra...)...)
	fail := em.fork(errVar)
	fail.jump(e.To)
	return em
}

func (m *lowerer) lowerExec(e *ir.Edge, s *ir.Exec) error {
	info := s.Info
	var affected []*ir.Var
	if s.Affected != nil {
		affected = append(affected, s.Affected)
	}
	targets := nonNil(s.Targets)
	switch q := s.SQL.(type) {
	case *sqlir.Update:
		if !m.onTable(q.Table) {
			break
		}
		m.res.Writes++
		em := m.errFork(e, info, s.Err, append(affected, targets...)...)
		m.update(em, q.Set, q.Where, s.Args, s.Affected, q.Returning, s.Targets)
		if s.Tx == 0 {
			m.check(em)
		}
		em.jump(e.To)
		return nil
	case *sqlir.Insert:
		if !m.onTable(q.Table) {
			break
		}
		m.res.Writes++
		em := m.errFork(e, info, s.Err, append(affected, targets...)...)
		if s.Affected != nil {
			em.assume(ir.Cmp(ir.OpGe, s.Affected, ir.IntLit(0)))
		}
		m.insert(em, q, s.Args, s.Targets)
		if s.Tx == 0 {
			m.check(em)
		}
		em.jump(e.To)
		return nil
	case *sqlir.Delete:
		if !m.onTable(q.Table) {
			break
		}
		m.res.Writes++
		em := m.errFork(e, info, s.Err, append(affected, targets...)...)
		var lhs []*ir.Var
		var rhs []ir.Expr
		for _, x := range m.syms {
			where := m.where(q.Where, x, s.Args)
			lhs = append(lhs, x.exists)
			rhs = append(rhs, ir.And(x.exists, ir.Not(ir.And(x.isLive(), where))))
		}
		em.havoc(m.takeFresh()...)
		if s.Affected != nil {
			em.assume(ir.Cmp(ir.OpGe, s.Affected, ir.IntLit(0)))
		}
		em.assign(lhs, rhs)
		em.jump(e.To)
		return nil
	}
	// A statement that cannot touch the constrained table: only its
	// outcome (error, rows affected, returned values) is arbitrary.
	em := m.errFork(e, info, s.Err, append(affected, targets...)...)
	if s.Affected != nil {
		em.assume(ir.Cmp(ir.OpGe, s.Affected, ir.IntLit(0)))
	}
	em.jump(e.To)
	return nil
}

func nonNil(vs []*ir.Var) []*ir.Var {
	var out []*ir.Var
	for _, v := range vs {
		if v != nil {
			out = append(out, v)
		}
	}
	return out
}

// where translates a WHERE clause (nil: every row) for symbol x.
func (m *lowerer) where(w sqlir.Expr, x *symbol, args []ir.Expr) ir.Expr {
	if w == nil {
		return ir.True
	}
	return asBool(m.expr(w, x, args))
}

// keyValue returns the expression e such that where contains the conjunct
// key = e for the (single or composite) key, with e free of columns.
func (m *lowerer) keyValue(where sqlir.Expr, args []ir.Expr) []ir.Expr {
	if len(m.key) == 0 || where == nil {
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
	for _, k := range m.key {
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

// keyEq returns "x's key equals vals".
func (m *lowerer) keyEq(x *symbol, vals []ir.Expr) ir.Expr {
	var cs []ir.Expr
	for i, k := range m.key {
		cs = append(cs, ir.Eq(x.cols[k], vals[i]))
	}
	return ir.And(cs...)
}

func (m *lowerer) symKey(x *symbol) []ir.Expr {
	var out []ir.Expr
	for _, k := range m.key {
		out = append(out, x.cols[k])
	}
	return out
}

// update applies SET … WHERE … to every live symbol.
// update applies SET … WHERE … to every live symbol; RETURNING targets
// get the updated row's values when the WHERE pins the key.
func (m *lowerer) update(em *emitter, set []sqlir.Assignment, where sqlir.Expr, args []ir.Expr, affected *ir.Var, ret []sqlir.SelectItem, targets []*ir.Var) {
	var lhs []*ir.Var
	var rhs []ir.Expr
	var matched []ir.Expr
	for _, x := range m.syms {
		match := ir.And(x.isLive(), x.exists, m.where(where, x, args))
		matched = append(matched, match)
		for _, a := range set {
			col := strings.ToLower(a.Col)
			v := x.cols[col]
			val := m.expr(a.Value, x, args)
			lhs = append(lhs, v)
			rhs = append(rhs, ir.IteOf(match, m.convert(val, v.Type), v))
		}
	}
	// dirty: unless the WHERE pins the key to a live symbol, rows the
	// symbols do not track may have changed.
	touchedTracked := ir.Expr(ir.False)
	kv := m.keyValue(where, args)
	if kv != nil {
		var alts []ir.Expr
		for _, x := range m.syms {
			alts = append(alts, ir.And(x.isLive(), x.exists, m.keyEq(x, kv)))
		}
		touchedTracked = ir.Or(alts...)
		if affected != nil {
			em.havoc(m.takeFresh()...)
			em.assume(ir.Cmp(ir.OpLe, affected, ir.IntLit(1)))
		}
	}
	lhs = append(lhs, m.dirty, m.written)
	rhs = append(rhs, ir.Or(m.dirty, ir.Not(touchedTracked)), ir.True)
	em.havoc(m.takeFresh()...)
	if affected != nil {
		cs := []ir.Expr{ir.Cmp(ir.OpGe, affected, ir.IntLit(0))}
		for _, mt := range matched {
			cs = append(cs, ir.Implies(mt, ir.Cmp(ir.OpGe, affected, ir.IntLit(1))))
		}
		em.assume(ir.And(cs...))
	}
	var conds []ir.Expr
	if kv != nil && len(targets) > 0 {
		// At most one row matches; remember which, to bind RETURNING.
		var ml []*ir.Var
		var mr []ir.Expr
		for _, mt := range matched {
			v := m.p.NewVar("$matched", ir.Bool, ir.Ghost)
			ml = append(ml, v)
			mr = append(mr, mt)
			conds = append(conds, v)
		}
		em.assign(ml, mr)
	}
	em.assign(lhs, rhs)
	if conds != nil {
		m.bindReturning(em, ret, targets, m.syms, conds, args)
	}
}

func (m *lowerer) insert(em *emitter, q *sqlir.Insert, args []ir.Expr, targets []*ir.Var) {
	rows := q.Rows
	if q.FromSelect {
		rows = [][]sqlir.Expr{nil}
	}
	for ri, row := range rows {
		// The new row's values, in ghost variables (defaults arbitrary).
		vals := map[string]ir.Expr{}
		if !q.FromSelect {
			for i, c := range q.Columns {
				if i < len(row) {
					vals[strings.ToLower(c)] = m.expr(row[i], nil, args)
				}
			}
		}
		newRow := &symbol{name: "new", cols: map[string]*ir.Var{}}
		var lhs []*ir.Var
		var rhs []ir.Expr
		for _, c := range m.cols {
			v := m.p.NewVar("new."+c, m.colSort[c], ir.Ghost)
			newRow.cols[c] = v
			val, ok := vals[c]
			if !ok {
				val = m.freshVar("$default_"+c, v.Type)
			}
			lhs = append(lhs, v)
			rhs = append(rhs, m.convert(val, v.Type))
		}
		em.havoc(m.takeFresh()...)
		em.assign(lhs, rhs)
		if ri == len(rows)-1 && !q.HasOnConflict && !q.OnConflictNothing {
			// RETURNING sees the inserted row.
			m.bindReturning(em, q.Returning, targets, []*symbol{newRow}, []ir.Expr{ir.True}, args)
		}
		// Either r is the new row, or the new row is untracked.
		choice := m.p.NewVar("$r_is_new", ir.Bool, ir.Ghost)
		em.havoc(choice)
		other := em.fork(ir.Not(choice))
		lhs, rhs = nil, nil
		for _, c := range m.cols {
			lhs = append(lhs, m.r.cols[c])
			rhs = append(rhs, newRow.cols[c])
		}
		lhs = append(lhs, m.r.exists, m.dirty, m.written)
		rhs = append(rhs, ir.True, ir.Or(m.dirty, m.written), ir.True)
		em.assign(lhs, rhs)
		join := m.p.NewLoc()
		em.jump(join)
		if q.HasOnConflict || q.OnConflictNothing {
			// Or the key existed: nothing happens, or the conflict
			// assignments update the existing row.
			conflicted := m.p.NewVar("$conflict", ir.Bool, ir.Ghost)
			other.havoc(conflicted)
			conflict := other.fork(conflicted)
			if q.HasOnConflict && !q.OnConflictNothing {
				m.update(conflict, q.OnConflict, m.conflictWhere(q, row), args, nil, nil, nil)
			}
			conflict.jump(join)
		}
		// The new row is not r: later reads cannot rely on ψ.
		other.assign([]*ir.Var{m.dirty, m.written}, []ir.Expr{ir.True, ir.True})
		other.jump(join)
		em.cur = join
	}
}

// conflictWhere returns the condition that selects the row an INSERT
// conflicts with: the key (or the conflict columns) equal to the inserted
// values, when known; otherwise an arbitrary row.
func (m *lowerer) conflictWhere(q *sqlir.Insert, row []sqlir.Expr) sqlir.Expr {
	cols := q.ConflictColumns
	if len(cols) == 0 {
		cols = m.key
	}
	var where sqlir.Expr
	for _, k := range cols {
		found := false
		for i, c := range q.Columns {
			if strings.EqualFold(c, k) && i < len(row) && !q.FromSelect {
				eq := &sqlir.Binary{Op: "=", X: &sqlir.ColRef{Name: c}, Y: row[i]}
				if where == nil {
					where = eq
				} else {
					where = &sqlir.Binary{Op: "AND", X: where, Y: eq}
				}
				found = true
			}
		}
		if !found {
			return &sqlir.Unknown{Text: "the conflicting row"}
		}
	}
	if where == nil {
		return &sqlir.Unknown{Text: "the conflicting row"}
	}
	return where
}

// bindReturning constrains the RETURNING targets: when conds[i] holds, the
// returned row is rows[i] (in its current state).
func (m *lowerer) bindReturning(em *emitter, items []sqlir.SelectItem, targets []*ir.Var, rows []*symbol, conds []ir.Expr, args []ir.Expr) {
	if len(targets) == 0 {
		return
	}
	var facts []ir.Expr
	for i, x := range rows {
		var eqs []ir.Expr
		for j, it := range items {
			if j >= len(targets) || targets[j] == nil || it.Star || it.Expr == nil {
				continue
			}
			val := m.expr(it.Expr, x, args)
			eqs = append(eqs, ir.Eq(targets[j], m.convert(val, targets[j].Type)))
		}
		facts = append(facts, ir.Implies(conds[i], ir.And(eqs...)))
	}
	em.havoc(m.takeFresh()...)
	em.assume(ir.And(facts...))
}

func (m *lowerer) lowerSelect(e *ir.Edge, s *ir.Select) {
	targets := nonNil(s.Targets)
	x := m.selSym[s]
	if x == nil {
		// Another table, or a join/aggregate: arbitrary results, except for
		// what --assume says of that table's rows.
		em := m.errFork(e, s.Info, s.Err, targets...)
		em.assume(m.otherTableFacts(s))
		em.jump(e.To)
		return
	}
	em := m.errFork(e, s.Info, s.Err, targets...)
	// Re-binding a live symbol forgets its row, which may have been written.
	var vars []*ir.Var
	for _, c := range m.cols {
		vars = append(vars, x.cols[c])
	}
	em.assign([]*ir.Var{m.dirty}, []ir.Expr{ir.Or(m.dirty, ir.And(x.live, m.written))})
	em.havoc(vars...)
	em.assign([]*ir.Var{x.live, x.exists}, []ir.Expr{ir.True, ir.True})
	var facts []ir.Expr
	facts = append(facts, m.where(s.SQL.Where, x, s.Args))
	aliased := []ir.Expr{}
	if len(m.key) > 0 {
		for _, y := range m.syms {
			if y == x {
				continue
			}
			same := ir.And(y.isLive(), m.keyEq(y, m.symKey(x)))
			var eqs []ir.Expr
			eqs = append(eqs, y.exists)
			for _, c := range m.cols {
				eqs = append(eqs, ir.Eq(x.cols[c], y.cols[c]))
			}
			facts = append(facts, ir.Implies(same, ir.And(eqs...)))
			aliased = append(aliased, same)
		}
	}
	facts = append(facts, ir.Or(append([]ir.Expr{m.dirty, m.initial(x)}, aliased...)...))
	em.havoc(m.takeFresh()...)
	for _, f := range facts {
		em.assume(f)
	}
	// Bind the scan targets.
	var lhs []*ir.Var
	var rhs []ir.Expr
	for i, t := range s.Targets {
		if t == nil {
			continue
		}
		var val ir.Expr
		if i < len(s.SQL.Columns) && !s.SQL.Columns[i].Star {
			val = m.expr(s.SQL.Columns[i].Expr, x, s.Args)
		} else {
			val = m.freshVar("$col", t.Type)
		}
		lhs = append(lhs, t)
		rhs = append(rhs, m.convert(val, t.Type))
	}
	if len(lhs) > 0 {
		em.havoc(m.takeFresh()...)
		em.assign(lhs, rhs)
	}
	em.jump(e.To)
}

func (m *lowerer) tx(t ir.Tx) *txState {
	st := m.txs[t]
	if st == nil {
		st = &txState{open: m.p.NewVar(fmt.Sprintf("$tx%d.open", t), ir.Bool, ir.Ghost), snap: map[*ir.Var]*ir.Var{}}
		for _, v := range m.snapVars() {
			st.snap[v] = m.p.NewVar(fmt.Sprintf("%s$tx%d", v.Name, t), v.Type, ir.Ghost)
		}
		m.txs[t] = st
	}
	return st
}

func (m *lowerer) txIDs() []ir.Tx {
	var ids []ir.Tx
	for t := range m.txs {
		ids = append(ids, t)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}

func (m *lowerer) snapVars() []*ir.Var {
	var out []*ir.Var
	for _, c := range m.cols {
		out = append(out, m.r.cols[c])
	}
	return append(out, m.r.exists, m.dirty)
}

func (m *lowerer) lowerTx(e *ir.Edge, s *ir.TxOp) {
	st := m.tx(s.Tx)
	em := m.emitter(e.From, s.Info)
	errVar := s.Err
	if errVar == nil {
		errVar = m.p.NewVar("$err", ir.Bool, ir.Ghost)
	}
	switch s.Op {
	case ir.Begin:
		em.havoc(errVar)
		fail := em.fork(errVar)
		fail.jump(e.To)
		lhs := []*ir.Var{st.open}
		rhs := []ir.Expr{ir.True}
		for _, sp := range orderedSnap(st) {
			lhs = append(lhs, sp.snap)
			rhs = append(rhs, sp.cur)
		}
		em.assign(lhs, rhs)
		em.jump(e.To)
	case ir.Commit:
		em.havoc(errVar)
		// Committing a finished transaction fails (sql.ErrTxDone).
		em.assume(ir.Implies(ir.Not(st.open), errVar))
		fail := em.fork(errVar)
		m.restore(fail, st)
		fail.jump(e.To)
		m.check(em)
		em.assign([]*ir.Var{st.open}, []ir.Expr{ir.False})
		em.jump(e.To)
	case ir.Rollback:
		em.havoc(errVar)
		em.assume(ir.Implies(ir.Not(st.open), errVar))
		m.restore(em, st)
		em.jump(e.To)
	}
}

type snapPair struct{ cur, snap *ir.Var }

func orderedSnap(st *txState) []snapPair {
	var out []snapPair
	for cur, snap := range st.snap {
		out = append(out, snapPair{cur, snap})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].cur.Name < out[j].cur.Name })
	return out
}

// restore undoes the transaction's writes if it is open, and closes it.
func (m *lowerer) restore(em *emitter, st *txState) {
	closed := em.fork(ir.Not(st.open))
	join := m.p.NewLoc()
	closed.jump(join)
	var lhs []*ir.Var
	var rhs []ir.Expr
	for _, sp := range orderedSnap(st) {
		lhs = append(lhs, sp.cur)
		rhs = append(rhs, sp.snap)
	}
	for _, x := range m.syms[1:] {
		lhs = append(lhs, x.live)
		rhs = append(rhs, ir.False)
	}
	lhs = append(lhs, st.open)
	rhs = append(rhs, ir.False)
	em.assign(lhs, rhs)
	em.jump(join)
	em.cur = join
}

// check branches to the error location if r exists and breaks ψ.
func (m *lowerer) check(em *emitter) {
	m.fresh = nil
	bad := ir.And(m.r.exists, ir.Not(m.psi(m.r)))
	em.havoc(m.takeFresh()...)
	info := em.info
	info.Kind = ir.KindModel
	info.Text = "check " + m.c.Text
	m.p.AddEdge(em.cur, m.p.Error, &ir.Assume{Cond: bad, Info: info})
	n := m.p.NewLoc()
	m.p.AddEdge(em.cur, n, &ir.Assume{Cond: ir.Not(bad), Info: info})
	em.cur = n
}
