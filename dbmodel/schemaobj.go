package dbmodel

import (
	"fmt"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// unmodelledSchema records as unsupported (the verdict is then UNKNOWN)
// what the schema does to a modelled table behind the program's back, at
// the first write it concerns:
//   - a generated column the model uses whose expression did not parse
//     (the others are their expression, see generated);
//   - a trigger (or rule) on a table the program writes, whose code may
//     change the constrained table (it names the table, or a column the
//     model uses when it is on the constrained table, or its code is not
//     in the schema);
//   - a write to a view that reads the constrained table.
func (m *lowerer) unmodelledSchema() {
	s := m.opt.Schema
	if s == nil {
		return
	}
	reported := map[string]bool{}
	report := func(what string, at ir.Info) {
		if !reported[what] {
			reported[what] = true
			m.p.Unsupport(what, at)
		}
	}
	for _, e := range m.src.Edges {
		x, ok := e.Stmt.(*ir.Exec)
		if !ok || !sqlir.IsWrite(x.SQL) {
			continue
		}
		for _, table := range x.SQL.Tables() {
			table = strings.ToLower(table)
			if t := m.model(table); t != nil && t.schema != nil {
				for _, c := range t.schema.Columns {
					if _, used := t.sorts[strings.ToLower(c.Name)]; used && c.Generated != "" && c.GeneratedExpr == nil {
						report(fmt.Sprintf("column %s.%s is generated (AS (%s), %s): generated columns are not modelled",
							t.schema.Name, c.Name, c.Generated, c.GeneratedPos), x.Info)
					}
				}
			}
			for _, t := range m.tableList() {
				for _, tr := range s.Triggers {
					if tr.Table == table && m.triggerMayChange(tr, t) {
						report(fmt.Sprintf("trigger %s on %s (%s) may change %s: triggers are not modelled",
							tr.Name, tr.Table, tr.Pos, t.spelled), x.Info)
					}
				}
				if fk, op, ok := referentialAction(x.SQL, table, t); ok {
					report(fmt.Sprintf("foreign key of %s (%s) REFERENCES %s %s: a %s of %s changes rows of %s, and referential actions are not modelled",
						t.spelled, strings.Join(fk.Columns, ", "), fk.RefTable, fk.ActionText(op), op, table, t.spelled), x.Info)
				}
				if v := s.Views[table]; v != nil && !t.onTable(table) && sqlir.Mentions(v.Def, t.name) {
					report(fmt.Sprintf("write to view %s (%s), which reads %s: writes through views are not modelled",
						v.Name, v.Pos, t.spelled), x.Info)
				}
			}
		}
	}
}

// referentialAction returns the foreign key of t whose action changes
// t's rows when stmt, a write of table, runs (ON DELETE SET NULL for a
// DELETE of the referenced table, ON UPDATE CASCADE for an UPDATE, …),
// and the write's kind.
func referentialAction(stmt sqlir.Statement, table string, t *tableModel) (sqlir.ForeignKey, string, bool) {
	if t.schema == nil {
		return sqlir.ForeignKey{}, "", false
	}
	var op string
	switch s := stmt.(type) {
	case *sqlir.Delete:
		op = "DELETE"
	case *sqlir.Update:
		op = "UPDATE"
	case *sqlir.Insert:
		// REPLACE deletes the row with the new row's key (SQLite's INSERT
		// OR REPLACE too); an upsert updates it.
		switch {
		case s.Replace:
			op = "DELETE"
		case len(s.OnConflict) > 0:
			op = "UPDATE"
		default:
			return sqlir.ForeignKey{}, "", false
		}
	default:
		return sqlir.ForeignKey{}, "", false
	}
	for _, fk := range t.schema.ForeignKeys {
		if strings.EqualFold(fk.RefTable, table) && fk.ChangesChild(op) {
			return fk, op, true
		}
	}
	return sqlir.ForeignKey{}, "", false
}

// triggerMayChange reports whether trigger tr may change table t.
func (m *lowerer) triggerMayChange(tr sqlir.Trigger, t *tableModel) bool {
	if !tr.Resolved {
		return true
	}
	for _, w := range m.opt.Schema.WritersOf(t.name) {
		if !t.onTable(tr.Table) && sqlir.Mentions(tr.Body, w) {
			return true
		}
	}
	if t.onTable(tr.Table) {
		for _, c := range t.cols {
			if sqlir.Mentions(tr.Body, c) {
				return true
			}
		}
	}
	return false
}

// selectItems returns the result columns of q with a star over the
// constrained table expanded into the schema's columns; known is false
// when a star could not be expanded (no schema for its table).
func (m *lowerer) selectItems(q *sqlir.Select) (items []sqlir.SelectItem, known bool) {
	known = true
	for _, it := range q.Columns {
		if !it.Star {
			items = append(items, it)
			continue
		}
		t := m.schemaTable(q.Table)
		if t == nil {
			known = false
			items = append(items, it)
			continue
		}
		for _, c := range t.Columns {
			items = append(items, sqlir.SelectItem{Expr: &sqlir.ColRef{Name: c.Name}})
		}
	}
	return items, known
}

// readModel returns the model of the first table SELECT q reads that is
// modelled (nil: none).
func (m *lowerer) readModel(q *sqlir.Select) *tableModel {
	for _, name := range q.Tables() {
		if t := m.model(name); t != nil {
			return t
		}
	}
	return nil
}

// approxSelect lowers a SELECT that reads table tm in a way the model does
// not follow (a join, grouping, an aggregate): its results are arbitrary,
// marked as approximations.
func (m *lowerer) approxSelect(e *ir.Edge, s *ir.Select, tm *tableModel) {
	reason := s.SQL.Reason
	if reason == "" {
		reason = "a join, grouping or aggregate"
	}
	m.approxResults(e, s, "$joined", nil, func(col int) string {
		return fmt.Sprintf("result column %d of the SELECT at %s (%s over %s, not modelled)", col, s.Info.Position(), reason, tm.spelled)
	})
}

// approxResults lowers SELECT s with arbitrary results marked as
// approximations, why(col) saying why for result column col (1-based);
// noRow is the no-row variable the failed call sets (nil: none).
func (m *lowerer) approxResults(e *ir.Edge, s *ir.Select, name string, noRow *ir.Var, why func(col int) string) {
	var fresh, lhs []*ir.Var
	var rhs []ir.Expr
	for i, t := range s.Targets {
		if t == nil {
			continue
		}
		v := m.p.NewVar(name, t.Type, ir.Ghost)
		v.Approx = why(i + 1)
		fresh = append(fresh, v)
		lhs = append(lhs, t)
		rhs = append(rhs, v)
	}
	em := m.errFork(e, s.Info, s.Err, noFacts, noRow, fresh...)
	em.assign(lhs, rhs)
	em.jump(e.To)
}

// generated returns the expression of column c of row x when the schema
// declares it a generated column (GENERATED ALWAYS AS (…)): reading it is
// evaluating that expression on x. nil otherwise.
func (m *lowerer) generated(c *sqlir.ColRef, x *symbol) sqlir.Expr {
	if x == nil || x.table == "" || (c.Table != "" && !strings.EqualFold(c.Table, x.table)) {
		return nil
	}
	t := m.schemaTable(x.table)
	if t == nil {
		return nil
	}
	for _, col := range t.Columns {
		if strings.EqualFold(col.Name, c.Name) {
			return col.GeneratedExpr
		}
	}
	return nil
}
