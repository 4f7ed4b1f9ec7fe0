package dbmodel

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/spec"
	"github.com/dbverify/dbverify/sqlir"
)

// INSERT … SELECT: the rows it inserts are its select list evaluated on
// the rows of the source table that satisfy its WHERE.
//
// For a row check one inserted row is enough: the statement inserts one
// row per source row that satisfies the WHERE, all of them or (failing)
// none, so if any inserted row breaks ψ, some choice of the model's one
// arbitrary source row — a symbol of the source table, like the symbol
// an UPDATE writes — is the source of that row, and r may be that row.
// The rows inserted besides it are untracked (the table becomes dirty).
// That one row satisfies the WHERE, the source table's CHECKs and, when
// no write of the program to that table reaches the statement, the facts
// (--assume) about it;
// with no such row the statement inserts nothing (insert forks).
//
// The source is followed only when it is a plain SELECT of one table: a
// join, grouping, aggregate, DISTINCT, set operation or WITH leaves the
// listed values arbitrary and marked, so a counterexample reading them
// is UNKNOWN. A table whose rows the model tracks in its own symbols (a
// watched table) is read as a SELECT of it reads
// (insertselecttracked.go). LIMIT and ORDER BY
// only choose among the rows that satisfy the WHERE: the arbitrary row
// covers them.
//
// The rows-affected count is the number of source rows, which the model
// does not count (an approximation, returned.go: insertCount), except
// when the WHERE pins a key of the source table (sourcePinned): then 0
// or 1, by whether the one source row exists — for a watched target as
// the fork above decides, for another table by a source symbol of its
// own (pinnedSourceCount).

// selectedValues sets vals to the values INSERT … SELECT q gives cols
// (the columns it lists, or the schema's first ones), and returns what
// its source row satisfies (nil: the source is not followed, and the
// values are arbitrary approximations).
func (m *lowerer) selectedValues(em *emitter, t *tableModel, q *sqlir.Insert, s *ir.Exec, cols []string, vals map[string]ir.Expr) ir.Expr {
	args := s.Args
	src, facts, why := m.sourceOf(em, q, s, len(cols))
	if src == nil {
		m.unmodelledValues(t, cols, s.Info, vals, why)
		return nil
	}
	items, _ := m.selectItems(q.Source)
	for i, c := range cols {
		c = strings.ToLower(c)
		if _, ok := t.sorts[c]; !ok {
			continue
		}
		vals[c] = m.assigned(t, c, items[i].Expr, src, args)
		if _, null := m.assignNull(t, c, items[i].Expr, src, args); null != nil {
			vals[nullFlag(c)] = null
		}
	}
	return ir.And(facts, m.notSourceKey(t, src, vals))
}

// notSourceKey is "the row inserted (vals) does not have the key of its
// source row src", for INSERT … SELECT of t from t itself: that key is
// taken, and the statement fails (a duplicate), which keyClash does not
// see where src is none of t's symbols (a row of the initial database).
// A key with a column that may be NULL, or that the INSERT does not set,
// is left out.
func (m *lowerer) notSourceKey(t *tableModel, src *symbol, vals map[string]ir.Expr) ir.Expr {
	if src.table != t.name {
		return ir.True
	}
	var out []ir.Expr
	for _, k := range t.keys {
		var eqs []ir.Expr
		for _, c := range k {
			v, set := vals[c]
			if !set || t.nullableKey[c] || src.cols[c] == nil {
				eqs = nil
				break
			}
			eqs = append(eqs, ir.Eq(m.convert(v, src.cols[c].Type), src.cols[c]))
		}
		if len(eqs) > 0 {
			out = append(out, ir.Not(ir.And(eqs...)))
		}
	}
	return ir.And(out...)
}

// sourceOf returns the source row of INSERT … SELECT q (s) and what it
// satisfies: a row of a table the model tracks read as a SELECT reads it
// (insertselecttracked.go), or of another table (sourceRow); nil and why
// when the source is not followed.
func (m *lowerer) sourceOf(em *emitter, q *sqlir.Insert, s *ir.Exec, ncols int) (*symbol, ir.Expr, string) {
	if src := q.Source; src != nil && !src.Complex && src.Table != "" && len(src.AllTables) == 0 {
		if st := m.model(src.Table); st != nil {
			return m.trackedSource(em, st, q, s, ncols)
		}
	}
	x, why := m.sourceRow(q, ncols, s.Args)
	if x == nil {
		return nil, nil, why
	}
	return x, m.sourceFacts(q, x, s.Args), ""
}

// sourceFacts is what source row src of INSERT … SELECT q satisfies: the
// WHERE, its table's CHECKs and, when no write of the entry to that
// table reaches the statement (its rows are then rows of the initial
// database), the facts (--assume, the run's other constraints) about it.
// (A write after the statement does not change the row it read: adv19
// mysqlshop.PlaceOrder, INSERT … SELECT price FROM products followed by
// UPDATE products, started from price = -1 against --assume
// "products.price >= 0", a false UNSAFE.)
func (m *lowerer) sourceFacts(q *sqlir.Insert, src *symbol, args []ir.Expr) ir.Expr {
	facts := []ir.Expr{m.where(q.Source.Where, src, args), m.checks(src)}
	if m.ownWrite(m.curFrom, []string{q.Source.Table}) == "" {
		for _, f := range spec.TableFacts(m.opt.Facts, q.Source.Table) {
			if m.covered(f.Expr, src) {
				facts = append(facts, asBool(m.expr(f.Expr, src, nil)))
			}
		}
	}
	return ir.And(facts...)
}

// pinnedSourceCount sets the rows-affected count of INSERT … SELECT q
// (s) into a table the model does not watch, when its WHERE pins a key
// of its source (sourcePinned): 0 when no source row satisfies the
// WHERE, else 1, that row a symbol of the source table (a trace lists
// it, a replay seeds it) satisfying what sourceFacts says. It reports
// whether it did (false: the count is insertCount's approximation).
func (m *lowerer) pinnedSourceCount(em *emitter, q *sqlir.Insert, s *ir.Exec) bool {
	if !m.sourcePinned(q, s.Args) {
		return false
	}
	items, known := m.selectItems(q.Source)
	if !known {
		return false
	}
	saved := m.fresh
	src, _ := m.sourceRow(q, len(items), s.Args)
	if src == nil {
		m.fresh = saved
		return false
	}
	facts := m.sourceFacts(q, src, s.Args)
	em.havoc(m.takeFresh()...)
	none := m.noSourceRow(em, s.Affected, true)
	em.assume(facts)
	join := m.p.NewLoc()
	none.jump(join)
	em.jump(join)
	em.cur = join
	return true
}

// sourcePinned reports whether the WHERE of INSERT … SELECT q pins a key
// of its source table (a conjunct col = e for each column of the key, e
// free of columns): the SELECT then selects at most one row, and the
// INSERT, without ON CONFLICT, ON DUPLICATE KEY, IGNORE or REPLACE (which
// may insert nothing, or count an updated row twice), inserts exactly
// one row when it selects one and succeeds. Its rows-affected count is
// then 0 or 1, decided by whether the row exists, not an approximation
// (a trace printed rowsAffected = 2 for INSERT … SELECT … WHERE sku = $2).
func (m *lowerer) sourcePinned(q *sqlir.Insert, args []ir.Expr) bool {
	if q.Source == nil || q.HasOnConflict || q.OnConflictNothing || q.Replace {
		return false
	}
	saved := m.fresh
	key, _ := m.pinned(q.Source.Table, q.Source.Where, args)
	m.fresh = saved
	return key != nil
}

// unmodelledValues sets vals to arbitrary values, marked as
// approximations, for the columns cols of an INSERT … SELECT; reason says
// why its source is not followed ("" when unknown).
func (m *lowerer) unmodelledValues(t *tableModel, cols []string, info ir.Info, vals map[string]ir.Expr, reason string) {
	why := "the selected values are not modelled"
	if reason != "" {
		why += " (" + reason + ")"
	}
	for _, c := range cols {
		c = strings.ToLower(c)
		if _, ok := t.sorts[c]; !ok {
			continue
		}
		fv := m.freshVar("$inserted_"+c, t.sorts[c])
		fv.Approx = fmt.Sprintf("column %s of the INSERT … SELECT at %s: %s", c, info.Position(), why)
		vals[c] = fv
		if f := nullFlag(c); t.sorts[f] == ir.Bool {
			nv := m.freshVar("$isnull", ir.Bool)
			nv.Approx = fmt.Sprintf("whether column %s of the INSERT … SELECT at %s is NULL: %s", c, info.Position(), why)
			vals[f] = nv
		}
	}
}

// sourceRow returns a fresh symbol of the source table of INSERT … SELECT
// q (its columns havocked before the statement), or nil and why when the
// model does not follow the source (see above) or the select list does
// not give ncols values.
func (m *lowerer) sourceRow(q *sqlir.Insert, ncols int, args []ir.Expr) (*symbol, string) {
	s := q.Source
	switch {
	case s == nil:
		return nil, ""
	case s.Complex:
		return nil, s.Reason
	case s.Table == "" || len(s.AllTables) > 0:
		return nil, "a subquery or a SELECT without a single table"
	case m.model(s.Table) != nil:
		return nil, "a SELECT of " + m.model(s.Table).spelled + ", whose rows the model tracks"
	}
	items, known := m.selectItems(s)
	if !known {
		return nil, "the columns of * are not known without --schema"
	}
	if len(items) != ncols {
		return nil, fmt.Sprintf("%d selected values for %d columns", len(items), ncols)
	}
	st := m.schemaTable(s.Table)
	if st == nil && m.opt.Dialect == "mysql" && m.comparesStrings(s.Where, s.Table, args) {
		return nil, "MySQL compares strings under the collation of " + s.Table + ", not known without --schema"
	}
	cols := map[string]bool{}
	note := func(e sqlir.Expr) {
		sqlir.Rewrite(e, func(x sqlir.Expr) (sqlir.Expr, bool) {
			if c, ok := x.(*sqlir.ColRef); ok && (c.Table == "" || strings.EqualFold(c.Table, s.Table)) {
				cols[strings.ToLower(c.Name)] = true
			}
			return nil, false
		})
	}
	for _, it := range items {
		note(it.Expr)
	}
	if s.Where != nil {
		note(s.Where)
	}
	if st != nil {
		for _, c := range st.Checks {
			note(c.Expr)
		}
	}
	for _, f := range spec.TableFacts(m.opt.Facts, s.Table) {
		note(f.Expr)
	}
	m.srcSyms++
	name := fmt.Sprintf("s%d", len(m.selSym)+m.srcSyms)
	x := &symbol{name: name, table: strings.ToLower(s.Table), cols: map[string]*ir.Var{}}
	// A row the WHERE selects holds a value in each column it compares.
	x.nonNull = (&tableModel{name: x.table}).comparedColumns(s.Where)
	names := make([]string, 0, len(cols))
	for c := range cols {
		names = append(names, c)
	}
	sort.Strings(names)
	for _, c := range names {
		srt, text := ir.Int, false
		if sc := schemaColumn(st, c); sc != nil {
			text = isTextType(sc.Type)
			if isRealType(sc.Type) {
				srt = ir.Real
			}
		}
		x.cols[c] = m.sourceVar(x, s.Table, c, srt)
		x.cols[c].Str = text && srt == ir.Int
		if !notNull(st, c) && !x.nonNull[c] {
			x.cols[nullFlag(c)] = m.sourceVar(x, s.Table, nullFlag(c), ir.Bool)
		}
	}
	return x, ""
}

// sourceVar is column col of source row x: a row column, so that a trace
// lists the row (and a replay seeds it), havocked before the statement.
func (m *lowerer) sourceVar(x *symbol, table, col string, s ir.Sort) *ir.Var {
	v := m.p.NewVar(x.name+"."+col, s, ir.Column)
	v.Row, v.Table, v.Col = x.name, table, col
	m.fresh = append(m.fresh, v)
	return v
}

// schemaColumn returns column col of t (nil: t is nil or has none).
func schemaColumn(t *sqlir.Table, col string) *sqlir.Column {
	if t == nil {
		return nil
	}
	for i := range t.Columns {
		if strings.EqualFold(t.Columns[i].Name, col) {
			return &t.Columns[i]
		}
	}
	return nil
}

// selectColumns returns the columns INSERT … SELECT q sets: those it
// lists; without a list, the schema's first columns, one per selected
// value (ok false: not known, no schema or a * it cannot expand).
func (m *lowerer) selectColumns(q *sqlir.Insert) ([]string, bool) {
	if len(q.Columns) > 0 {
		return q.Columns, true
	}
	if q.Source == nil {
		return nil, false
	}
	items, known := m.selectItems(q.Source)
	if !known || len(items) == 0 {
		return nil, false
	}
	return m.insertColumns(q, make([]sqlir.Expr, len(items)))
}

// comparesStrings reports whether WHERE w compares a column of table with
// a string (a literal, a Go string, another column): MySQL compares them
// under the column's collation, by default ignoring case and trailing
// spaces, so the rows it selects are not those an exact comparison
// selects (a Go check that the string is not "X" does not keep out a row
// whose value is 'X').
func (m *lowerer) comparesStrings(w sqlir.Expr, table string, args []ir.Expr) bool {
	found := false
	ofTable := func(e sqlir.Expr) bool {
		c, ok := e.(*sqlir.ColRef)
		return ok && (c.Table == "" || strings.EqualFold(c.Table, table))
	}
	stringy := func(e sqlir.Expr) bool {
		switch e := e.(type) {
		case *sqlir.Str, *sqlir.ColRef:
			return true
		case *sqlir.Param:
			if e.Index >= len(args) || args[e.Index] == nil {
				return true
			}
			switch a := args[e.Index].(type) {
			case *ir.Var:
				return a.Str
			case *ir.IntConst:
				_, text := m.src.Strings[a.V.String()]
				return text
			}
		}
		return false
	}
	sqlir.Rewrite(w, func(e sqlir.Expr) (sqlir.Expr, bool) {
		if b, ok := e.(*sqlir.Binary); ok && b.Op.IsComparison() &&
			(ofTable(b.X) && stringy(b.Y) || ofTable(b.Y) && stringy(b.X)) {
			found = true
		}
		return nil, false
	})
	return found
}
