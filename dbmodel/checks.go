package dbmodel

import (
	"slices"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// CHECK constraints of the schema.
//
// (Except those verified, see isVerified.)
// A statement that would leave a row breaking one of its table's CHECKs
// fails (its error path runs and no row changes), so every row of the
// database satisfies them: the initial rows, the rows a SELECT reads and
// the rows a successful write leaves. A CHECK passes on NULL; the model
// uses one only where every column it reads is known not to be NULL
// (declared NOT NULL, or a value the program gives).

// checks returns the conjunction of the CHECKs of x's table that the model
// can evaluate on x and that hold of every row of the table (True when
// there are none). A NOT VALID CHECK (sqlir.Constraint.NotValid) is left
// out: rows older than it may break it.
func (m *lowerer) checks(x *symbol) ir.Expr {
	return m.checksOf(x, false)
}

// writtenChecks is checks, NOT VALID CHECKs included: what a row the
// statement has just written satisfies, since the engine checks them on
// every write.
func (m *lowerer) writtenChecks(x *symbol) ir.Expr {
	return m.checksOf(x, true)
}

func (m *lowerer) checksOf(x *symbol, notValid bool) ir.Expr {
	t := m.schemaTable(x.table)
	if t == nil || x.table == "" {
		return ir.True
	}
	var out []ir.Expr
	for _, c := range t.Checks {
		if (c.NotValid && !notValid) || m.isVerified(c, t) || !m.covered(c.Expr, x) || !m.usableCheck(c.Expr, x, t) {
			continue
		}
		out = append(out, asBool(m.expr(c.Expr, x, nil)))
	}
	return ir.And(out...)
}

// isVerified reports whether CHECK c of table t is verified rather than
// enforced: the question is then whether the program ever writes a row
// that breaks it (relying on the database to refuse the write is a
// violation). The property's instrumentation says which are.
func (m *lowerer) isVerified(c sqlir.Constraint, t *sqlir.Table) bool {
	return m.ins.Verifies(t.Name, c)
}

// usableCheck reports whether the model can rely on CHECK e of table t on
// x: every column e reads is numeric and known not to be NULL on x, and e
// compares no strings (the model codes strings as numbers, which keep
// equality but not order).
func (m *lowerer) usableCheck(e sqlir.Expr, x *symbol, t *sqlir.Table) bool {
	ok := true
	sqlir.Rewrite(e, func(y sqlir.Expr) (sqlir.Expr, bool) {
		switch y := y.(type) {
		case *sqlir.ColRef:
			if !m.neverNull(y, x, nil) || !numericColumn(t, y.Name) {
				ok = false
			}
		case *sqlir.Str:
			ok = false
		}
		return nil, false
	})
	return ok
}

// numericColumn reports whether t declares col with a numeric type.
func numericColumn(t *sqlir.Table, col string) bool {
	for _, c := range t.Columns {
		if strings.EqualFold(c.Name, col) {
			ty := strings.ToLower(c.Type)
			if isRealType(ty) {
				return true
			}
			for _, k := range []string{"int", "serial"} {
				if strings.Contains(ty, k) {
					return true
				}
			}
			return false
		}
	}
	return false
}

// updatedMarks returns, when t has a NOT VALID CHECK, one ghost per
// symbol of t set to whether the UPDATE matches it (matched, evaluated
// before the assignment): the engine checks a NOT VALID CHECK on the rows
// an UPDATE writes only, not on the others. Nil when t has none.
func (m *lowerer) updatedMarks(em *emitter, t *tableModel, matched []ir.Expr) []*ir.Var {
	st := m.schemaTable(t.name)
	if st == nil || !slices.ContainsFunc(st.Checks, func(c sqlir.Constraint) bool { return c.NotValid }) {
		return nil
	}
	var marks []*ir.Var
	for range matched {
		marks = append(marks, m.p.NewVar("$updated", ir.Bool, ir.Ghost))
	}
	em.assign(marks, matched)
	return marks
}

// insertChecks returns what a successful INSERT q of another table than
// the constrained one says of its values: they satisfy the table's CHECKs
// that read only columns the INSERT gives non-NULL values (the values are
// assigned to ghost variables at em).
func (m *lowerer) insertChecks(em *emitter, q *sqlir.Insert, args []ir.Expr) ir.Expr {
	t := m.schemaTable(q.Table)
	if t == nil || len(t.Checks) == 0 || q.FromSelect || len(q.Columns) == 0 {
		return ir.True
	}
	var out []ir.Expr
	for _, row := range q.Rows {
		x := &symbol{name: "new", table: strings.ToLower(q.Table), cols: map[string]*ir.Var{}, nonNull: map[string]bool{}}
		var lhs []*ir.Var
		var rhs []ir.Expr
		for i, c := range q.Columns {
			if i >= len(row) || isDefaultKeyword(row[i]) || !m.neverNull(row[i], nil, args) {
				continue
			}
			c = strings.ToLower(c)
			val := m.expr(row[i], nil, args)
			s := ir.Int
			if val.Sort() == ir.Real {
				s = ir.Real
			}
			v := m.p.NewVar("new_"+strings.ToLower(q.Table)+"."+c, s, ir.Ghost)
			x.cols[c] = v
			x.nonNull[c] = true
			lhs = append(lhs, v)
			rhs = append(rhs, m.convert(val, s))
		}
		em.havoc(m.takeFresh()...)
		em.assign(lhs, rhs)
		out = append(out, m.writtenChecks(x))
	}
	return ir.And(out...)
}
