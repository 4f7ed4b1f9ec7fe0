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
	// Dialect is the SQL dialect of the program's statements ("mysql",
	// "postgres" or "sqlite"; "" is MySQL): it decides division and the
	// conversion of strings to numbers.
	Dialect string
	// Concurrency, if not nil, models concurrent requests (locking reads,
	// interference; see Concurrency).
	Concurrency *Concurrency
}

// Result is a lowered program and what the model assumed to build it.
type Result struct {
	Program *ir.Program
	// Keys lists the keys of the constrained table used for row aliasing,
	// each a list of columns (nil: none known, any two symbols may be
	// different rows). Two symbols that agree on every column of one key
	// are the same row (for a key with a column that may be NULL, only
	// when both are known not to be NULL there).
	Keys [][]string
	// Assumptions says, in words, what the model assumed beyond the code
	// (e.g. an inferred key); reports show them.
	Assumptions []string
	// Writes is the number of write statements on the constrained table.
	Writes int
	// OnEntry is what the model assumes of the initial state: ψ and the
	// facts about the watched row, and the facts about the parameters. If
	// it is unsatisfiable, every verdict is vacuous.
	OnEntry ir.Expr
}

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

type lowerer struct {
	src, p  *ir.Program
	c       *sqlir.Constraint
	table   string
	colSort map[string]ir.Sort
	cols    []string
	// keys are the keys used for aliasing and for "the WHERE pins one
	// row"; allKeys are every unique key of the table (also those over
	// columns the program never mentions), for ON DUPLICATE KEY.
	keys    [][]string
	allKeys [][]string
	// nullableKey lists key columns that may hold NULL (a UNIQUE column
	// not declared NOT NULL): they identify a row only where known set.
	nullableKey map[string]bool
	r           *symbol
	syms        []*symbol // r first
	selSym      map[*ir.Select]*symbol
	dirty       *ir.Var
	written     *ir.Var
	txs         map[ir.Tx]*txState
	// mayOpen[l]: the transactions that may be open at location l of the
	// source program; curOpen: those where the edge being lowered starts.
	mayOpen []map[ir.Tx]bool
	curOpen map[ir.Tx]bool
	// curHandle is the handle of the statement being lowered (0: none or
	// the pool).
	curHandle ir.Tx
	res       *Result
	fresh     []*ir.Var // havoc before the statement being emitted
	opt       Options
	// numCols are the constrained table's columns the constraint uses as
	// numbers; fracs holds the exact form of MySQL quotients (arith.go);
	// at is the statement being lowered, for notes.
	numCols map[string]bool
	fracs   map[ir.Expr]fraction
	at      ir.Info
}

// Lower returns p with every database operation replaced by its meaning in
// the row model of constraint c.
func Lower(p *ir.Program, c *sqlir.Constraint, opt Options) (*Result, error) {
	m := &lowerer{
		src: p, c: c, table: strings.ToLower(c.Table),
		colSort: map[string]ir.Sort{}, selSym: map[*ir.Select]*symbol{}, nullableKey: map[string]bool{},
		txs: map[ir.Tx]*txState{}, res: &Result{}, opt: opt,
		numCols: numericColumns(c.Expr), fracs: map[ir.Expr]fraction{},
	}
	if m.opt.Dialect == "" {
		m.opt.Dialect = "mysql"
	}
	m.p = p.Shell()
	m.collectColumns(opt)
	m.chooseKey(opt)
	m.unmodelledSchema()
	m.makeSymbols()
	m.makeTxs()
	m.computeMayOpen()
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
	m.res.Keys = m.keys
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
			if g := m.generated(e, &symbol{table: m.table}); g != nil {
				walk(g)
			} else if e.Table == "" || m.onTable(e.Table) {
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
				items, _ := m.selectItems(s.SQL)
				for _, it := range items {
					if it.Expr != nil && !it.Star {
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

// chooseKey picks the keys of the constrained table. Every key the schema
// declares (PRIMARY KEY and each UNIQUE) identifies a row. The first one
// (the primary key when there is one) is always modelled, so that
// counterexamples show it; another is modelled when the program mentions
// all its columns (a key over columns nothing constrains adds no
// precision). When no schema describes the table, a column named "id" the
// program mentions is taken as the key (never NULL, as a primary key),
// unless opt.NoInferKey; a table the schema declares without a key has
// none.
func (m *lowerer) chooseKey(opt Options) {
	if t := m.schemaTable(m.table); t != nil {
		for i, k := range t.Keys {
			var cols []string
			mentioned := true
			for _, c := range k {
				c = strings.ToLower(c)
				cols = append(cols, c)
				if _, ok := m.colSort[c]; !ok {
					mentioned = false
				}
			}
			if len(cols) == 0 {
				continue
			}
			m.allKeys = append(m.allKeys, cols)
			if i == 0 || mentioned {
				m.keys = append(m.keys, cols)
				for _, c := range cols {
					if !m.notNullColumn(m.table, c) {
						m.nullableKey[c] = true
					}
				}
			}
		}
	}
	if m.allKeys == nil && !opt.NoInferKey && m.schemaTable(m.table) == nil {
		if _, ok := m.colSort["id"]; ok {
			m.keys = [][]string{{"id"}}
			m.allKeys = m.keys
			m.res.Assumptions = append(m.res.Assumptions,
				fmt.Sprintf("%s.id is a unique key (no schema declares one; pass --schema, or --no-infer-key to drop this)", m.c.Table))
		}
	}
	for _, k := range m.keys {
		for _, c := range k {
			if _, ok := m.colSort[c]; !ok {
				m.colSort[c] = ir.Int
				m.cols = append(m.cols, c)
				sort.Strings(m.cols)
			}
		}
	}
}

// schemaTable returns the schema's table (nil: no schema or not in it).
func (m *lowerer) schemaTable(table string) *sqlir.Table {
	if m.opt.Schema == nil {
		return nil
	}
	return m.opt.Schema.Tables[strings.ToLower(table)]
}

// notNullColumn reports whether the schema declares column col of table
// NOT NULL (a PRIMARY KEY column is). Table "" is the pseudo-table of the
// entry's parameters: Go values, never NULL.
func (m *lowerer) notNullColumn(table, col string) bool {
	if table == "" {
		return true
	}
	t := m.schemaTable(table)
	if t == nil {
		return false
	}
	for _, c := range t.Columns {
		if strings.EqualFold(c.Name, col) {
			return c.NotNull
		}
	}
	return false
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
		if s, ok := e.Stmt.(*ir.Select); ok && m.onTable(s.SQL.Table) && !s.SQL.Complex && m.selSym[s] == nil {
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

// psi returns ψ over symbol x.
func (m *lowerer) psi(x *symbol) ir.Expr {
	return asBool(m.expr(m.c.Expr, x, nil))
}

func (m *lowerer) prologue(from, to ir.Loc) {
	info := ir.Info{File: m.src.Pos.File, Line: m.src.Pos.Line, Kind: ir.KindModel,
		Text: "database state on entry: every row satisfies " + m.c.Text}
	em := m.emitter(from, info)
	// The entry's parameters are arbitrary (then constrained by the
	// --assume facts below): an explicit havoc makes the abstraction start
	// from consistent values of predicates over them.
	em.havoc(m.src.Inputs...)
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
		st := m.txs[t]
		lhs = append(lhs, st.open, st.wrote, st.pending, st.aborted)
		rhs = append(rhs, ir.False, ir.False, ir.False, ir.False)
	}
	em.assign(lhs, rhs)
	m.fresh = nil
	psi := m.initial(m.r)
	inputs := m.inputFacts()
	em.havoc(m.takeFresh()...)
	em.assume(psi)
	em.assume(inputs)
	m.res.OnEntry = ir.And(psi, inputs)
	em.jump(to)
}

// initial returns what holds of a row of the initial database: ψ and the
// facts about the constrained table.
func (m *lowerer) initial(x *symbol) ir.Expr {
	out := []ir.Expr{m.psi(x), m.checks(x)}
	for _, f := range m.opt.Facts {
		if m.onTable(f.Table) {
			out = append(out, asBool(m.expr(f.Expr, x, nil)))
		}
	}
	return ir.And(out...)
}

// inputFacts returns the facts about the entry's parameters.
func (m *lowerer) inputFacts() ir.Expr {
	params := &symbol{table: "", cols: map[string]*ir.Var{}}
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
	row := &symbol{table: strings.ToLower(s.SQL.Table), cols: map[string]*ir.Var{}}
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
	m.curOpen = m.mayOpen[e.From]
	m.curHandle = 0
	switch s := e.Stmt.(type) {
	case *ir.Exec:
		m.curHandle = s.Tx
	case *ir.Select:
		m.curHandle = s.Tx
	}
	switch e.Stmt.(type) {
	case *ir.Exec, *ir.Select, *ir.TxOp:
		e = m.interfere(e)
	}
	switch s := e.Stmt.(type) {
	case *ir.Assign, *ir.Assume, *ir.Havoc:
		m.p.AddEdge(e.From, e.To, s)
		return nil
	case *ir.Exec:
		m.at = s.Info
		return m.lowerExec(e, s)
	case *ir.Select:
		m.at = s.Info
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
	em.havoc(errVar)
	fail := em.fork(errVar)
	m.failed(fail, m.curHandle)
	fail.jump(e.To)
	// A statement on a finished or aborted transaction fails.
	em.assume(m.usable(m.curHandle))
	// A failed call leaves its destinations (Scan targets, rows
	// affected) unchanged.
	em.havoc(extra...)
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
		m.update(em, updateSpec{set: q.Set, where: q.Where, args: s.Args, affected: s.Affected,
			returning: q.Returning, targets: s.Targets, h: s.Tx})
		em.jump(e.To)
		return nil
	case *sqlir.Insert:
		if !m.onTable(q.Table) {
			break
		}
		m.res.Writes++
		em := m.errFork(e, info, s.Err, append(affected, targets...)...)
		if s.Affected != nil {
			em.assume(insertAffected(q, s.Affected))
		}
		m.insert(em, q, s.Args, s.Targets, info, s.Tx)
		em.jump(e.To)
		return nil
	case *sqlir.Delete:
		if !m.onTable(q.Table) {
			break
		}
		m.res.Writes++
		em := m.errFork(e, info, s.Err, append(affected, targets...)...)
		flag := m.beginWrite(em, s.Tx)
		conflict, locked := m.lockConflict(em, s.Tx, q.Where, s.Args)
		var lhs []*ir.Var
		var rhs []ir.Expr
		var changesR ir.Expr
		for _, x := range m.syms {
			where := m.where(q.Where, x, s.Args)
			deleted := ir.And(x.exists, x.isLive(), where)
			if x == m.r {
				deleted = ir.And(deleted, ir.Not(locked))
				changesR = deleted
			}
			lhs = append(lhs, x.exists)
			rhs = append(rhs, ir.And(x.exists, ir.Not(deleted)))
		}
		em.havoc(m.takeFresh()...)
		m.touchR(em, s.Tx, flag, changesR, conflict)
		if s.Affected != nil {
			em.assume(ir.Cmp(ir.OpGe, s.Affected, ir.IntLit(0)))
		}
		em.assign(lhs, rhs)
		m.endWrite(em, s.Tx, flag)
		em.jump(e.To)
		return nil
	}
	// A statement that cannot touch the constrained table: only its
	// outcome (error, rows affected, returned values) is arbitrary, except
	// that an INSERT breaking a CHECK fails.
	em := m.errFork(e, info, s.Err, append(affected, targets...)...)
	if s.Affected != nil {
		em.assume(ir.Cmp(ir.OpGe, s.Affected, ir.IntLit(0)))
	}
	if q, ok := s.SQL.(*sqlir.Insert); ok {
		em.assume(m.insertChecks(em, q, s.Args))
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

// comparedColumns returns the columns of the constrained table that a
// top-level conjunct of where compares (c op e, c IS NOT NULL): a row the
// WHERE selects has them non-NULL.
func (m *lowerer) comparedColumns(where sqlir.Expr) map[string]bool {
	out := map[string]bool{}
	col := func(e sqlir.Expr) {
		if c, ok := e.(*sqlir.ColRef); ok && (c.Table == "" || m.onTable(c.Table)) {
			out[strings.ToLower(c.Name)] = true
		}
	}
	var conj func(e sqlir.Expr)
	conj = func(e sqlir.Expr) {
		switch e := e.(type) {
		case *sqlir.Binary:
			switch strings.ToUpper(e.Op) {
			case "AND":
				conj(e.X)
				conj(e.Y)
			case "=", "<>", "!=", "<", "<=", ">", ">=":
				col(e.X)
				col(e.Y)
			}
		case *sqlir.IsNull:
			if e.Not {
				col(e.X)
			}
		}
	}
	if where != nil {
		conj(where)
	}
	return out
}

// assignedColumns returns the columns of the constrained table that some
// UPDATE or ON CONFLICT / ON DUPLICATE KEY assignment of the program sets.
func (m *lowerer) assignedColumns() map[string]bool {
	out := map[string]bool{}
	for _, e := range m.src.Edges {
		s, ok := e.Stmt.(*ir.Exec)
		if !ok {
			continue
		}
		var set []sqlir.Assignment
		switch q := s.SQL.(type) {
		case *sqlir.Update:
			if m.onTable(q.Table) {
				set = q.Set
			}
		case *sqlir.Insert:
			if m.onTable(q.Table) {
				set = q.OnConflict
			}
		}
		for _, a := range set {
			out[strings.ToLower(a.Col)] = true
		}
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

// updateSpec is one UPDATE (or an upsert's conflict assignments) on the
// constrained table.
type updateSpec struct {
	set      []sqlir.Assignment
	where    sqlir.Expr // nil: every row
	args     []ir.Expr
	affected *ir.Var // rows affected, or nil
	// returning and targets: RETURNING items and the variables they are
	// read into.
	returning []sqlir.SelectItem
	targets   []*ir.Var
	// single is set when at most one row matches whatever the WHERE says
	// (the row an INSERT conflicts with, on one unique key).
	single bool
	// h is the handle the statement runs on.
	h ir.Tx
	// flag, for the conflict assignments of an upsert, is the INSERT's
	// "the write changes r" (the INSERT begins and ends the write).
	flag *ir.Var
}

// update applies SET … WHERE … to every live symbol; RETURNING targets
// get the updated row's values when at most one row matches (the WHERE
// pins a key, or u.single).
func (m *lowerer) update(em *emitter, u updateSpec) {
	flag := u.flag
	if flag == nil {
		flag = m.beginWrite(em, u.h)
	}
	conflict, locked := m.lockConflict(em, u.h, u.where, u.args)
	var lhs []*ir.Var
	var rhs []ir.Expr
	var matched, keyed []ir.Expr
	key, kv := m.pinnedKey(u.where, u.args)
	for _, x := range m.syms {
		where := m.where(u.where, x, u.args)
		match := ir.And(x.isLive(), x.exists, where)
		if x == m.r {
			// r locked by another transaction: the write waits if r's
			// committed state matches (conflict), else leaves r alone.
			match = ir.And(match, ir.Not(locked))
		}
		matched = append(matched, match)
		if kv != nil {
			// x is the one row with the pinned key: the statement
			// changes it exactly when it satisfies the rest of the WHERE.
			keyed = append(keyed, ir.And(x.isLive(), x.exists, keyEq(x, key, kv)))
		}
		for _, a := range u.set {
			col := strings.ToLower(a.Col)
			v := x.cols[col]
			val := m.assigned(a.Col, a.Value, x, u.args)
			lhs = append(lhs, v)
			rhs = append(rhs, ir.IteOf(match, m.convert(val, v.Type), v))
		}
	}
	// dirty: unless the one row the statement can change is a live
	// symbol, rows the symbols do not track may have changed.
	touchedTracked := ir.Expr(ir.False)
	switch {
	case kv != nil:
		touchedTracked = ir.Or(keyed...)
	case u.single:
		// The only row changed is a symbol that matched, if one did.
		touchedTracked = ir.Or(matched...)
	}
	lhs = append(lhs, m.dirty, m.written)
	rhs = append(rhs, ir.Or(m.dirty, ir.Not(touchedTracked)), ir.True)
	em.havoc(m.takeFresh()...)
	m.touchR(em, u.h, flag, matched[0], conflict)
	if u.affected != nil {
		cs := []ir.Expr{ir.Cmp(ir.OpGe, u.affected, ir.IntLit(0))}
		for i, mt := range matched {
			cs = append(cs, ir.Implies(mt, ir.Cmp(ir.OpGe, u.affected, ir.IntLit(1))))
			if kv != nil {
				// RowsAffected of a key-pinned UPDATE is 1 if the row
				// with the key matched, else 0.
				cs = append(cs, ir.Implies(ir.And(keyed[i], ir.Not(mt)), ir.Eq(u.affected, ir.IntLit(0))))
			}
		}
		if kv != nil {
			cs = append(cs, ir.Cmp(ir.OpLe, u.affected, ir.IntLit(1)))
		}
		em.assume(ir.And(cs...))
	}
	var conds []ir.Expr
	if (kv != nil || u.single) && len(u.targets) > 0 {
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
	// The statement fails if it would break a CHECK of the table: the
	// rows it wrote satisfy them.
	var checks []ir.Expr
	for _, x := range m.syms {
		if c := m.checks(x); c != ir.True {
			checks = append(checks, ir.Implies(ir.And(x.isLive(), x.exists), c))
		}
	}
	em.havoc(m.takeFresh()...)
	em.assume(ir.And(checks...))
	if conds != nil {
		m.bindReturning(em, u.returning, u.targets, m.syms, conds, u.args)
	}
	if u.flag == nil {
		m.endWrite(em, u.h, flag)
	}
}

// insert adds the rows of INSERT q. Each new row is either r or a row the
// symbols do not track; with ON CONFLICT / ON DUPLICATE KEY it may instead
// conflict with an existing row, which DO UPDATE assignments change (DO
// NOTHING: no change). RETURNING targets get the last row written: the
// inserted values, or the conflicting row as updated.
//
// A column the INSERT omits, or sets to DEFAULT, gets its default (see
// omitted); for INSERT … SELECT, or VALUES without a column list whose
// columns the schema does not give, every value is arbitrary.
func (m *lowerer) insert(em *emitter, q *sqlir.Insert, args []ir.Expr, targets []*ir.Var, info ir.Info, h ir.Tx) {
	flag := m.beginWrite(em, h)
	rows := q.Rows
	if q.FromSelect {
		rows = [][]sqlir.Expr{nil}
	}
	for ri, row := range rows {
		last := ri == len(rows)-1
		// The new row's values, in ghost variables.
		vals := map[string]ir.Expr{}
		layoutKnown := false
		if !q.FromSelect {
			var cols []string
			cols, layoutKnown = m.insertColumns(q, row)
			for i, c := range cols {
				if i < len(row) && !isDefaultKeyword(row[i]) {
					vals[strings.ToLower(c)] = m.assigned(c, row[i], nil, args)
				}
			}
		} else if len(q.Columns) > 0 {
			// INSERT … SELECT with a column list: the columns it omits
			// get their defaults; the selected values are not modelled.
			layoutKnown = true
			for _, c := range q.Columns {
				c = strings.ToLower(c)
				if _, ok := m.colSort[c]; ok {
					fv := m.freshVar("$inserted_"+c, m.colSort[c])
					fv.Approx = fmt.Sprintf("column %s of the INSERT … SELECT at %s: the selected values are not modelled", c, info.Position())
					vals[c] = fv
				}
			}
		}
		newRow := &symbol{name: "new", table: m.table, cols: map[string]*ir.Var{}}
		var lhs []*ir.Var
		var rhs, facts []ir.Expr
		for _, c := range m.cols {
			v := m.p.NewVar("new."+c, m.colSort[c], ir.Ghost)
			newRow.cols[c] = v
			val, ok := vals[c]
			if !ok {
				if layoutKnown {
					var fact ir.Expr
					val, fact = m.omitted(c, v.Type, info)
					if fact != nil {
						facts = append(facts, fact)
					}
				} else {
					// INSERT … SELECT, or VALUES without a column list
					// the schema does not give.
					fv := m.freshVar("$inserted_"+c, v.Type)
					if q.FromSelect {
						fv.Approx = fmt.Sprintf("column %s of the INSERT … SELECT at %s: the selected values are not modelled", c, info.Position())
					} else {
						fv.Approx = fmt.Sprintf("column %s of the INSERT without a column list at %s: the column order is not known without --schema", c, info.Position())
					}
					val = fv
				}
			}
			lhs = append(lhs, v)
			rhs = append(rhs, m.convert(val, v.Type))
		}
		em.havoc(m.takeFresh()...)
		if len(facts) > 0 {
			em.assume(ir.And(facts...))
		}
		em.assign(lhs, rhs)
		// The INSERT fails if the new row breaks a CHECK.
		check := m.checks(newRow)
		em.havoc(m.takeFresh()...)
		em.assume(check)
		join := m.p.NewLoc()
		if q.HasOnConflict || q.OnConflictNothing {
			// The key existed: nothing happens, or the conflict
			// assignments update the existing row (one row: the
			// conflict is on one unique key).
			conflicted := m.p.NewVar("$conflict", ir.Bool, ir.Ghost)
			em.havoc(conflicted)
			conflict := em.fork(conflicted)
			if q.HasOnConflict && !q.OnConflictNothing {
				u := updateSpec{set: q.OnConflict, where: m.conflictWhere(q, row), args: args, single: true, h: h, flag: flag}
				if last {
					u.returning, u.targets = q.Returning, targets
				}
				m.update(conflict, u)
			}
			conflict.jump(join)
		}
		if last {
			// RETURNING sees the inserted row.
			m.bindReturning(em, q.Returning, targets, []*symbol{newRow}, []ir.Expr{ir.True}, args)
		}
		// Either r is the new row, or the new row is untracked.
		choice := m.p.NewVar("$r_is_new", ir.Bool, ir.Ghost)
		em.havoc(choice)
		other := em.fork(ir.Not(choice))
		m.touchR(em, h, flag, ir.True, m.lockedByOther(h))
		lhs, rhs = nil, nil
		for _, c := range m.cols {
			lhs = append(lhs, m.r.cols[c])
			rhs = append(rhs, newRow.cols[c])
		}
		lhs = append(lhs, m.r.exists, m.dirty, m.written)
		rhs = append(rhs, ir.True, ir.Or(m.dirty, m.written), ir.True)
		em.assign(lhs, rhs)
		em.jump(join)
		// The new row is not r: later reads cannot rely on ψ.
		other.assign([]*ir.Var{m.dirty, m.written}, []ir.Expr{ir.True, ir.True})
		other.jump(join)
		em.cur = join
	}
	m.endWrite(em, h, flag)
}

// insertAffected returns what is known of the rows-affected count n of a
// successful INSERT q: a plain INSERT … VALUES inserts exactly its rows;
// with ON CONFLICT / ON DUPLICATE KEY / IGNORE, REPLACE or a SELECT, the
// count is only known not to be negative (MySQL counts an ON DUPLICATE KEY
// update as 2, an unchanged row as 0; REPLACE counts deleted rows too).
func insertAffected(q *sqlir.Insert, n *ir.Var) ir.Expr {
	if q.FromSelect || q.HasOnConflict || q.OnConflictNothing || q.Replace || len(q.Rows) == 0 {
		return ir.Cmp(ir.OpGe, n, ir.IntLit(0))
	}
	return ir.Eq(n, ir.IntLit(int64(len(q.Rows))))
}

// insertColumns returns the columns the values of row (of INSERT … VALUES
// q) go to, in order: q.Columns; without a column list, the schema's
// columns (Postgres fills the first ones, the rest get their defaults);
// none for an empty row (DEFAULT VALUES). ok is false when the columns
// are not known (no schema, or more values than columns).
func (m *lowerer) insertColumns(q *sqlir.Insert, row []sqlir.Expr) (cols []string, ok bool) {
	if len(q.Columns) > 0 {
		return q.Columns, true
	}
	if len(row) == 0 {
		return nil, true
	}
	t := m.schemaTable(q.Table)
	if t == nil || len(row) > len(t.Columns) {
		return nil, false
	}
	for _, c := range t.Columns[:len(row)] {
		cols = append(cols, c.Name)
	}
	return cols, true
}

// isDefaultKeyword reports whether e is the DEFAULT keyword of INSERT …
// VALUES.
func isDefaultKeyword(e sqlir.Expr) bool {
	u, ok := e.(*sqlir.Unknown)
	return ok && u.Default
}

// omitted returns the value column col of the constrained table gets when
// the INSERT at info omits it (or writes DEFAULT), as a value of sort s,
// and a fact about it to assume (or nil):
//   - a constant DEFAULT of the schema: that constant;
//   - a sequence (serial, identity, AUTO_INCREMENT): an arbitrary value
//     of at least 1 (sequences start at 1 unless told otherwise);
//   - another DEFAULT expression (now(), …), or a column the schema does
//     not describe: an arbitrary value;
//   - no DEFAULT: NULL, or (NOT NULL) the INSERT fails, except in MySQL's
//     non-strict mode where an implicit default is written. The model has
//     no NULL: the value is arbitrary, and marked (ir.Var.Approx) so that
//     a counterexample reading it is not reported as certain.
func (m *lowerer) omitted(col string, s ir.Sort, info ir.Info) (ir.Expr, ir.Expr) {
	var sc *sqlir.Column
	if t := m.schemaTable(m.table); t != nil {
		for i := range t.Columns {
			if strings.EqualFold(t.Columns[i].Name, col) {
				sc = &t.Columns[i]
				break
			}
		}
	}
	switch {
	case sc == nil:
		return m.freshVar("$default_"+col, s), nil
	case sc.AutoIncrement:
		v := m.freshVar("$serial_"+col, s)
		if s == ir.Int {
			return v, ir.Cmp(ir.OpGe, v, ir.IntLit(1))
		}
		return v, nil
	case sc.Default != nil:
		return m.convert(m.expr(sc.Default, nil, nil), s), nil
	case sc.HasDefault:
		return m.freshVar("$default_"+col, s), nil
	}
	v := m.freshVar("$default_"+col, s)
	at := ""
	if pos := info.Position(); pos != "" {
		at = " at " + pos
	}
	if sc.NotNull {
		v.Approx = fmt.Sprintf("column %s omitted by the INSERT%s: NOT NULL without DEFAULT, so the INSERT fails (MySQL non-strict mode: an implicit default), not modelled", sc.Name, at)
	} else {
		v.Approx = fmt.Sprintf("column %s omitted by the INSERT%s: NULL, not modelled", sc.Name, at)
	}
	return v, nil
}

// conflictWhere returns the condition that selects the row an INSERT
// conflicts with: the conflict target's columns (Postgres ON CONFLICT
// (cols), a unique index) equal to the inserted values; else,
// when the table has exactly one unique key, that key's columns. Otherwise
// (no key known, a value not given, or several keys: MySQL's ON DUPLICATE
// KEY conflicts on any of them) an arbitrary row.
func (m *lowerer) conflictWhere(q *sqlir.Insert, row []sqlir.Expr) sqlir.Expr {
	unknown := &sqlir.Unknown{Text: "the conflicting row"}
	cols := q.ConflictColumns
	if len(cols) == 0 {
		if len(m.allKeys) != 1 {
			return unknown
		}
		cols = m.allKeys[0]
	}
	if q.FromSelect {
		return unknown
	}
	var where sqlir.Expr
	and := func(e sqlir.Expr) {
		if where == nil {
			where = e
		} else {
			where = &sqlir.Binary{Op: "AND", X: where, Y: e}
		}
	}
	for _, k := range cols {
		found := false
		for i, c := range q.Columns {
			if strings.EqualFold(c, k) && i < len(row) {
				and(&sqlir.Binary{Op: "=", X: &sqlir.ColRef{Name: c}, Y: row[i]})
				found = true
			}
		}
		if !found {
			return unknown
		}
	}
	if where == nil {
		return unknown
	}
	if len(q.ConflictColumns) > 0 && q.ConflictWhere != nil {
		// The arbiter is a partial unique index: the conflicting row
		// satisfies the index's own predicate, which the conflict
		// target's WHERE only implies. Among rows with these values, which
		// one is in the index (and conflicts) is arbitrary.
		and(&sqlir.Unknown{Text: "the row is in the partial unique index"})
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
		if m.readsTable(s.SQL) {
			m.approxSelect(e, s)
			return
		}
		em := m.errFork(e, s.Info, s.Err, targets...)
		facts := m.otherTableFacts(s)
		em.havoc(m.takeFresh()...)
		em.assume(facts)
		em.jump(e.To)
		return
	}
	em := m.errFork(e, s.Info, s.Err, targets...)
	m.lockingRead(em, s)
	// The handle sees r's committed state where another transaction holds
	// it; while another transaction has pending writes, the other symbols
	// may hold values this handle does not see, and the row read is not
	// kept (not live) for later statements.
	rv := m.view(em, s.Tx)
	foreign := m.pendingOther(s.Tx)
	// Re-binding a live symbol forgets its row, which may have been written.
	var vars []*ir.Var
	for _, c := range m.cols {
		vars = append(vars, x.cols[c])
	}
	em.assign([]*ir.Var{m.dirty}, []ir.Expr{ir.Or(m.dirty, ir.And(x.live, m.written))})
	em.havoc(vars...)
	em.assign([]*ir.Var{x.live, x.exists}, []ir.Expr{ir.Not(foreign), ir.True})
	var facts []ir.Expr
	facts = append(facts, m.where(s.SQL.Where, x, s.Args), m.checks(x))
	aliased := []ir.Expr{}
	if len(m.keys) > 0 {
		for _, y := range m.syms {
			if y == x {
				continue
			}
			// Only a row that exists is the row read: one deleted (and
			// maybe inserted again, untracked) is not.
			same := ir.And(y.isLive(), y.exists, ir.Not(foreign))
			if y == m.r {
				y = rv
				same = y.exists
			}
			same = ir.And(same, m.sameRow(x, y))
			if same == ir.False {
				continue
			}
			var eqs []ir.Expr
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
	items, starKnown := m.selectItems(s.SQL)
	for i, t := range s.Targets {
		if t == nil {
			continue
		}
		var val ir.Expr
		switch {
		case i < len(items) && !items[i].Star && !hasUnknown(items[i].Expr):
			val = m.expr(items[i].Expr, x, s.Args)
		case i < len(items) && !items[i].Star:
			v := m.freshVar("$subquery", t.Type)
			v.Approx = fmt.Sprintf("result column %d of the SELECT at %s (a subquery or an expression the model does not evaluate)", i+1, s.Info.Position())
			val = v
		default:
			v := m.freshVar("$col", t.Type)
			if !starKnown {
				v.Approx = fmt.Sprintf("result column %d of the SELECT * at %s (the columns of * are not known without --schema)", i+1, s.Info.Position())
			} else {
				v.Approx = fmt.Sprintf("result column %d of the SELECT at %s (more targets than columns)", i+1, s.Info.Position())
			}
			val = v
		}
		lhs = append(lhs, t)
		rhs = append(rhs, m.convert(val, t.Type))
	}
	if len(lhs) > 0 {
		em.havoc(m.takeFresh()...)
		em.assign(lhs, rhs)
	}
	m.lockSelected(em, s, x)
	em.jump(e.To)
}
