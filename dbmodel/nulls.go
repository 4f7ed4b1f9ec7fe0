package dbmodel

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// NULL-ness of nullable columns. A column that may hold NULL and that the
// property, a fact or a statement tests with IS [NOT] NULL (directly, or
// through COALESCE, GREATEST, LEAST, which are rewritten into CASEs over
// IS NULL) gets a ghost column "$null_<col>" in every row symbol: true when
// the row's value is NULL. It is a tracked column like the others, so the
// statements that copy rows (SELECT aliasing, transactions, interference)
// keep it with the value; INSERT and UPDATE set it (nullness), and IS NULL
// on the column reads it. The column's own variable still holds an
// arbitrary value when the ghost says NULL: comparisons do not see NULLs.

// nullFlagPrefix starts the name of a NULL-ness ghost column; report
// treats columns starting with "$" as bookkeeping, not shown in traces.
const nullFlagPrefix = "$null_"

// nullFlag returns the name of the NULL-ness ghost column of col.
func nullFlag(col string) string { return nullFlagPrefix + strings.ToLower(col) }

// noteNullTest records that e (the operand of an IS NULL) is a column of t
// whose NULL-ness the program or the property tests.
func (t *tableModel) noteNullTest(e sqlir.Expr) {
	c, ok := e.(*sqlir.ColRef)
	if !ok || (c.Table != "" && !t.onTable(c.Table)) {
		return
	}
	if t.nullTested == nil {
		t.nullTested = map[string]bool{}
	}
	t.nullTested[strings.ToLower(c.Name)] = true
}

// addNullFlags adds the NULL-ness ghost column of every tracked column of
// t that is tested with IS NULL and that the schema does not declare NOT
// NULL.
func (m *lowerer) addNullFlags(t *tableModel) {
	for c := range t.nullTested {
		if _, tracked := t.sorts[c]; !tracked || m.notNullColumn(t.name, c) {
			continue
		}
		f := nullFlag(c)
		if _, ok := t.sorts[f]; ok {
			continue
		}
		t.sorts[f] = ir.Bool
		t.cols = append(t.cols, f)
	}
	sort.Strings(t.cols)
}

// isNull translates "e IS NULL" on row x (nil: no row): constant when e
// cannot be NULL or is the NULL literal, the ghost of a tracked column,
// else an approximation (marked, so that a counterexample relying on it
// is not reported as certain).
func (m *lowerer) isNull(e sqlir.Expr, x *symbol, args []ir.Expr) ir.Expr {
	switch {
	case m.neverNull(e, x, args):
		return ir.False
	case isNullLit(e):
		return ir.True
	}
	if f := m.nullGhost(e, x); f != nil {
		return f
	}
	if u, ok := e.(*sqlir.Unary); ok && u.Op == sqlir.OpNeg {
		return m.isNull(u.X, x, args)
	}
	if b, ok := e.(*sqlir.Binary); ok && b.Op.IsArith() {
		// balance - $1: NULL exactly when an operand is; x / 0 too in
		// MySQL and SQLite (divzero.go).
		null := ir.Or(m.isNull(b.X, x, args), m.isNull(b.Y, x, args))
		if (b.Op == sqlir.OpDiv || b.Op == sqlir.OpDivInt || b.Op == sqlir.OpMod) && (m.opt.Dialect == "mysql" || m.opt.Dialect == "sqlite") {
			null = ir.Or(null, m.zeroDivisor(b.Y, x, args))
		}
		return null
	}
	if c, ok := e.(*sqlir.Case); ok {
		// COALESCE(balance, 0) and the like: NULL as the arm taken is
		// (no ELSE: NULL).
		var out ir.Expr = ir.True
		if c.Else != nil {
			out = m.isNull(c.Else, x, args)
		}
		for i := len(c.Whens) - 1; i >= 0; i-- {
			w := c.Whens[i]
			out = ir.IteOf(asBool(m.expr(w.Cond, x, args)), m.isNull(w.Val, x, args), out)
		}
		return out
	}
	if sq := m.subquery(e, x, args); sq != nil {
		return sq.null
	}
	return m.approxVar("$isnull", ir.Bool, "whether an expression that may be NULL is NULL")
}

// nullGhost returns the NULL-ness ghost of column e of row x (nil: e is not
// such a column).
func (m *lowerer) nullGhost(e sqlir.Expr, x *symbol) *ir.Var {
	c, ok := e.(*sqlir.ColRef)
	if !ok || x == nil || m.column(c, x) == nil {
		return nil
	}
	return x.cols[nullFlag(c.Name)]
}

// assignNull returns the NULL-ness column col of t gets when a write sets
// it to e (evaluated on row x, nil for INSERT … VALUES), and the ghost to
// assign (nil: col has none).
func (m *lowerer) assignNull(t *tableModel, col string, e sqlir.Expr, x *symbol, args []ir.Expr) (*ir.Var, ir.Expr) {
	f := nullFlag(col)
	if _, ok := t.sorts[f]; !ok {
		return nil, nil
	}
	var g *ir.Var
	if x != nil {
		g = x.cols[f]
	}
	return g, m.isNull(e, x, args)
}

// omittedNull returns the NULL-ness of nullable column col of t when an
// INSERT omits it: its DEFAULT's, NULL when there is none, unknown (an
// approximation) for a DEFAULT expression the model does not evaluate or
// a column the schema does not describe.
func (m *lowerer) omittedNull(t *tableModel, col string, info ir.Info) ir.Expr {
	if t.schema != nil {
		for _, sc := range t.schema.Columns {
			if !strings.EqualFold(sc.Name, col) {
				continue
			}
			switch {
			case sc.AutoIncrement:
				return ir.False
			case sc.Default != nil:
				return m.isNull(sc.Default, nil, nil)
			case !sc.HasDefault:
				return ir.True
			}
		}
	}
	v := m.freshVar("$isnull", ir.Bool)
	v.Approx = fmt.Sprintf("whether column %s omitted by the INSERT at %s is NULL (its default), not modelled", col, info.Position())
	return v
}

// selectedNotNull returns the fact that the columns x's SELECT compares
// in its WHERE are not NULL.
func (m *lowerer) selectedNotNull(x *symbol) ir.Expr {
	var out []ir.Expr
	for _, c := range slices.Sorted(maps.Keys(x.nonNull)) {
		if f := x.cols[nullFlag(c)]; f != nil {
			out = append(out, ir.Not(f))
		}
	}
	return ir.And(out...)
}

// scannedNotNull returns the fact that the items of s read into
// destinations that cannot hold NULL (ir.Select.RejectsNull: a Go int64
// or string) are not NULL, assumed where the Scan succeeded: the Scan of
// a NULL into them fails. Only what the model tracks exactly is assumed
// (isNull without approximation, else notNullFacts); elsewhere the NULL
// is not modelled anyway.
func (m *lowerer) scannedNotNull(s *ir.Select, items []sqlir.SelectItem, x *symbol) ir.Expr {
	var out []ir.Expr
	for i, rejects := range s.RejectsNull {
		if !rejects || i >= len(items) || items[i].Star || items[i].Expr == nil {
			continue
		}
		it := items[i].Expr
		if notNull := m.exactly(func() ir.Expr { return ir.Not(m.isNull(it, x, s.Args)) }); notNull != ir.True {
			out = append(out, notNull)
			continue
		}
		out = append(out, m.notNullFacts(it, x)...)
	}
	return ir.And(out...)
}

// notNullFacts returns facts that hold when e, on row x, is not NULL:
// the ghosts of the columns whose NULL would make e NULL (a column, or
// an operand of arithmetic, which is NULL when an operand is) are false.
func (m *lowerer) notNullFacts(e sqlir.Expr, x *symbol) []ir.Expr {
	if g := m.nullGhost(e, x); g != nil {
		return []ir.Expr{ir.Not(g)}
	}
	switch e := e.(type) {
	case *sqlir.Unary:
		if e.Op == sqlir.OpNeg {
			return m.notNullFacts(e.X, x)
		}
	case *sqlir.Binary:
		if e.Op.IsArith() {
			return append(m.notNullFacts(e.X, x), m.notNullFacts(e.Y, x)...)
		}
	}
	return nil
}

// neverNullCall reports whether u is a call of a built-in that never
// returns NULL: the current date and time.
func neverNullCall(u *sqlir.Unknown) bool {
	text := strings.ToLower(strings.Join(strings.Fields(u.Text), ""))
	switch text {
	case "now()", "current_timestamp", "current_timestamp()", "current_date", "current_date()",
		"localtimestamp", "localtimestamp()", "current_time", "current_time()",
		"transaction_timestamp()", "statement_timestamp()", "clock_timestamp()",
		"utc_timestamp()", "sysdate()", "unix_timestamp()", "datetime('now')":
		return true
	}
	return false
}

// The model's own choices, written as Unknown conditions: which row an
// upsert conflicts with when several unique keys may (any row may; on
// MySQL the keys' order decides, see conflictkeys.go), and whether a row
// is in a partial unique index. They are arbitrary choices the real run
// also makes, not approximations.
const (
	conflictingRow = "the conflicting row"
	inPartialIndex = "the row is in the partial unique index"
)

// unknownValue returns the value of an expression the model does not
// evaluate: the current time is any value (the model is exact), anything
// else (a joined table's column or join condition, a subquery, another
// function) is an approximation, so that a counterexample relying on it is
// UNKNOWN rather than UNSAFE.
func (m *lowerer) unknownValue(e sqlir.Expr) *ir.Var {
	u, ok := e.(*sqlir.Unknown)
	if ok && (neverNullCall(u) || u.Text == conflictingRow || u.Text == inPartialIndex) {
		return m.freshVar("$unknown", ir.Int)
	}
	what := "a SQL expression the model does not evaluate"
	if ok && u.Text != "" {
		what = "the SQL expression " + compactText(u.Text)
	}
	return m.approxVar("$unknown", ir.Int, what)
}

// compactText shortens text for a message.
func compactText(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	if len(text) > 80 {
		text = text[:77] + "..."
	}
	return text
}

// notNullWritten is the fact "the value e written to column col of t on
// row x is not NULL", for a column the schema declares NOT NULL: a write
// of a NULL there fails (PostgreSQL 23502, MySQL strict mode 1048, SQLite
// NOT NULL constraint). True where col may hold NULL, e is never NULL, or
// its NULL-ness is an approximation (exactly: nothing is said).
func (m *lowerer) notNullWritten(t *tableModel, col string, e sqlir.Expr, x *symbol, args []ir.Expr) ir.Expr {
	if !m.notNullColumn(t.name, col) {
		return ir.True
	}
	return m.exactly(func() ir.Expr { return ir.Not(m.isNull(e, x, args)) })
}

// untrackedNull returns the value written by e to column col of t (val,
// its value; row x's, for an update): val, or where e is NULL and the
// model tracks no NULL-ness of col (no ghost column: no --schema, or a
// nullable column nothing tests with IS NULL) nor knows it NOT NULL, an
// arbitrary value marked as an approximation. The engine then stores
// NULL, or fails the statement on a NOT NULL column; either way no
// number, and the row's constraint, a CHECK, holds of a NULL. The model
// wrote some number, which made a false UNSAFE of a nil pointer argument
// written without --schema (UPDATE … SET lim = ? storing -1). The two
// cases are two branches of em, joined in a ghost variable, so that a
// counterexample found on the NULL branch, refused as an approximation,
// leaves the other branch to search (a bug with a non-nil argument stays
// UNSAFE). Only the NULLs of arguments and literals are followed; a
// column read is taken as not NULL, as elsewhere.
func (m *lowerer) untrackedNull(em *emitter, t *tableModel, col string, e sqlir.Expr, args []ir.Expr, val ir.Expr, info ir.Info) ir.Expr {
	c := strings.ToLower(col)
	if _, ghost := t.sorts[nullFlag(c)]; ghost || val == nil || m.notNullColumn(t.name, c) {
		return val
	}
	null := m.nullFromArgs(e, args)
	if null == ir.False {
		return val
	}
	why := "no --schema declares the column"
	if m.schemaTable(t.name) != nil {
		why = "a nullable column the constraint does not read and no IS NULL tests"
	}
	v := m.freshVar("$null_written", val.Sort())
	v.Approx = fmt.Sprintf("a NULL written to column %s at %s, whose NULL-ness the model does not track (%s), not modelled", col, info.Position(), why)
	w := m.p.NewVar("$written_"+c, val.Sort(), ir.Ghost)
	em.havoc(m.takeFresh()...)
	join := m.p.NewLoc()
	nb := em.fork(null)
	nb.assign([]*ir.Var{w}, []ir.Expr{v})
	nb.jump(join)
	em.assign([]*ir.Var{w}, []ir.Expr{val})
	em.jump(join)
	return w
}

// nullFromArgs is when e is NULL through its arguments and literals: e
// itself where it reads no column, else an operand of its arithmetic
// (a column is taken as not NULL).
func (m *lowerer) nullFromArgs(e sqlir.Expr, args []ir.Expr) ir.Expr {
	if !readsColumn(e) {
		return m.isNull(e, nil, args)
	}
	switch e := e.(type) {
	case *sqlir.Unary:
		if e.Op == sqlir.OpNeg {
			return m.nullFromArgs(e.X, args)
		}
	case *sqlir.Binary:
		if e.Op.IsArith() {
			return ir.Or(m.nullFromArgs(e.X, args), m.nullFromArgs(e.Y, args))
		}
	}
	return ir.False
}

// readsColumn reports whether e may read a column: it names one, or holds
// an expression the model does not read (sqlir.Unknown).
func readsColumn(e sqlir.Expr) bool {
	found := false
	sqlir.Rewrite(e, func(x sqlir.Expr) (sqlir.Expr, bool) {
		switch x.(type) {
		case *sqlir.ColRef, *sqlir.Unknown:
			found = true
		}
		return nil, false
	})
	return found
}
