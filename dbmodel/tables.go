package dbmodel

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// The tables of the model: the columns the row model tracks for the
// constrained table, their sorts, and its keys.

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
