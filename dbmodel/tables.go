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

// tableModel is the row model of one table: the columns the model tracks,
// their sorts, the table's keys, and its row symbols. The lowerer keeps
// one per table the property watches (Lower); a statement on another
// table only has an arbitrary outcome (see lowerExec, lowerSelect).
type tableModel struct {
	// name is the table's lower-case name; spelled is the name as the
	// property spells it (ir.Var.Table, messages).
	name, spelled string
	// schema is the schema's declaration (nil: none).
	schema *sqlir.Table
	// cols are the tracked columns (lower case, sorted) and sorts their
	// sorts.
	cols  []string
	sorts map[string]ir.Sort
	// keys are the keys used for aliasing and for "the WHERE pins one
	// row"; allKeys are every unique key of the table (also those over
	// columns the program never mentions), for ON DUPLICATE KEY.
	keys    [][]string
	allKeys [][]string
	// nullableKey lists key columns that may hold NULL (a UNIQUE column
	// not declared NOT NULL): they identify a row only where known set.
	nullableKey map[string]bool
	// text lists the columns that hold strings: declared with a text
	// type, or written a Go string (traces print their codes as strings).
	text map[string]bool
	// pinnedStr lists the columns a WHERE pins to a Go string.
	pinnedStr map[string]bool
	// times lists the columns without a schema that hold Go times
	// (timecols.go).
	times map[string]bool
	// coll is the collation of each tracked column (collation.go).
	coll map[string]collClass
	// numCols are the columns the property uses as numbers.
	numCols map[string]bool
	// watched is the property's watched row of the table (nil: none);
	// syms are the row symbols, watched first, then one per SELECT site.
	watched   *symbol
	watchName string
	// slot: the watched row is a key slot (reference.go); propCols are
	// the columns the property's conditions name.
	slot     bool
	propCols []string
	// tracksAny: the slot's "the table has a row" is tracked
	// (symbol.hasRow; instrument.Watch.Any).
	tracksAny bool
	// nullTested lists the columns tested with IS NULL (nulls.go).
	nullTested map[string]bool
	syms       []*symbol
	// dirty: the program may have changed rows of the table the symbols
	// do not track; written: it has written the table.
	dirty, written *ir.Var
}

// newTableModel returns the model of table (spelled as the property
// spells it) with the columns that exprs (the property's and the facts'
// expressions over the table) and the statements of src use.
func (m *lowerer) newTableModel(spelled string, exprs []sqlir.Expr) *tableModel {
	t := &tableModel{
		name: strings.ToLower(spelled), spelled: spelled,
		sorts: map[string]ir.Sort{}, nullableKey: map[string]bool{}, numCols: map[string]bool{},
	}
	t.schema = m.schemaTable(t.name)
	for _, e := range exprs {
		m.exprColumns(t, e)
	}
	for _, e := range m.src.Edges {
		m.stmtColumns(t, e.Stmt)
	}
	t.realSorts(m.src)
	t.textColumns(m.src)
	t.timeColumns(m.src)
	m.addNullFlags(t)
	return t
}

// onTable reports whether table is t's.
func (t *tableModel) onTable(table string) bool { return strings.EqualFold(table, t.name) }

// model returns the model of table (nil: the table is not modelled).
func (m *lowerer) model(table string) *tableModel { return m.tables[strings.ToLower(table)] }

// tableList returns the table models in name order.
func (m *lowerer) tableList() []*tableModel {
	var out []*tableModel
	for _, n := range slices.Sorted(maps.Keys(m.tables)) {
		out = append(out, m.tables[n])
	}
	return out
}

// addColumn tracks column name of t (as an integer until realSorts).
func (t *tableModel) addColumn(name string) {
	name = strings.ToLower(name)
	if _, ok := t.sorts[name]; !ok {
		t.sorts[name] = ir.Int
		t.cols = append(t.cols, name)
	}
}

// exprColumns tracks the columns of t that e reads (through the
// expressions of generated columns).
func (m *lowerer) exprColumns(t *tableModel, e sqlir.Expr) {
	switch e := e.(type) {
	case *sqlir.ColRef:
		if g := m.generated(e, &symbol{table: t.name}); g != nil {
			m.exprColumns(t, g)
		} else if e.Table == "" || t.onTable(e.Table) {
			t.addColumn(e.Name)
		}
	case *sqlir.Binary:
		m.exprColumns(t, e.X)
		m.exprColumns(t, e.Y)
	case *sqlir.Unary:
		m.exprColumns(t, e.X)
	case *sqlir.IsNull:
		t.noteNullTest(e.X)
		m.exprColumns(t, e.X)
	case *sqlir.Case:
		for _, w := range e.Whens {
			m.exprColumns(t, w.Cond)
			m.exprColumns(t, w.Val)
		}
		if e.Else != nil {
			m.exprColumns(t, e.Else)
		}
	}
}

// itemColumns tracks the columns of t that result items read.
func (m *lowerer) itemColumns(t *tableModel, items []sqlir.SelectItem) {
	for _, it := range items {
		if it.Expr != nil && !it.Star {
			m.exprColumns(t, it.Expr)
		}
	}
}

// stmtColumns tracks the columns of t that statement s of the source
// program reads or writes.
func (m *lowerer) stmtColumns(t *tableModel, s ir.Stmt) {
	switch s := s.(type) {
	case *ir.Exec:
		switch q := s.SQL.(type) {
		case *sqlir.Update:
			if !t.onTable(q.Table) {
				return
			}
			for _, a := range q.Set {
				t.addColumn(a.Col)
				m.exprColumns(t, a.Value)
			}
			if q.Where != nil {
				m.exprColumns(t, q.Where)
			}
			m.itemColumns(t, q.Returning)
		case *sqlir.Insert:
			if !t.onTable(q.Table) {
				return
			}
			for _, c := range q.Columns {
				t.addColumn(c)
			}
			for _, a := range q.OnConflict {
				t.addColumn(a.Col)
				m.exprColumns(t, a.Value)
			}
			m.itemColumns(t, q.Returning)
		case *sqlir.Delete:
			if t.onTable(q.Table) && q.Where != nil {
				m.exprColumns(t, q.Where)
			}
		}
	case *ir.Select:
		if t.onTable(s.SQL.Table) && !s.SQL.Complex {
			items, _ := m.selectItems(s.SQL)
			m.itemColumns(t, items)
			if s.SQL.Where != nil {
				m.exprColumns(t, s.SQL.Where)
			}
			if firstOfOrder(s) {
				for _, o := range s.SQL.OrderBy {
					m.exprColumns(t, o.Expr)
				}
			}
		}
	}
}

// realSorts makes real the tracked columns the schema declares with a
// real type, and those a write of src assigns a real-valued argument.
func (t *tableModel) realSorts(src *ir.Program) {
	if t.schema != nil {
		for _, col := range t.schema.Columns {
			if isRealType(col.Type) {
				if _, ok := t.sorts[strings.ToLower(col.Name)]; ok {
					t.sorts[strings.ToLower(col.Name)] = ir.Real
				}
			}
		}
	}
	for _, e := range src.Edges {
		s, ok := e.Stmt.(*ir.Exec)
		if !ok {
			continue
		}
		switch q := s.SQL.(type) {
		case *sqlir.Update:
			if t.onTable(q.Table) {
				for _, a := range q.Set {
					if usesRealArg(a.Value, s.Args) {
						t.sorts[strings.ToLower(a.Col)] = ir.Real
					}
				}
			}
		case *sqlir.Insert:
			if t.onTable(q.Table) {
				for _, row := range q.Rows {
					for i, v := range row {
						if i < len(q.Columns) && usesRealArg(v, s.Args) {
							t.sorts[strings.ToLower(q.Columns[i])] = ir.Real
						}
					}
				}
			}
		}
	}
}

// textColumns records in t.text the columns that hold strings: the
// schema declares a character type, a write of src assigns a Go string,
// or a read scans the column into one (traces then print its values as
// strings: owner = "12", not owner = 12); in t.pinnedStr those a WHERE
// pins to one.
func (t *tableModel) textColumns(src *ir.Program) {
	t.text = map[string]bool{}
	if t.schema != nil {
		for _, col := range t.schema.Columns {
			if isTextType(col.Type) {
				t.text[strings.ToLower(col.Name)] = true
			}
		}
	}
	for _, e := range src.Edges {
		if s, ok := e.Stmt.(*ir.Select); ok && t.onTable(s.SQL.Table) && !s.SQL.Complex {
			t.scannedText(s.SQL.Columns, s.Targets)
		}
		s, ok := e.Stmt.(*ir.Exec)
		if !ok {
			continue
		}
		if q, ok := s.SQL.(*sqlir.Update); ok && t.onTable(q.Table) {
			t.scannedText(q.Returning, s.Targets)
		}
		if q, ok := s.SQL.(*sqlir.Insert); ok && t.onTable(q.Table) {
			t.scannedText(q.Returning, s.Targets)
			for _, row := range q.Rows {
				for i, v := range row {
					if i < len(q.Columns) && usesStrArg(v, s.Args) {
						t.text[strings.ToLower(q.Columns[i])] = true
					}
				}
			}
		}
		if q, ok := s.SQL.(*sqlir.Update); ok && t.onTable(q.Table) {
			for _, a := range q.Set {
				if usesStrArg(a.Value, s.Args) {
					t.text[strings.ToLower(a.Col)] = true
				}
			}
		}
	}
	// A column a WHERE pins to a Go string holds strings too (for its
	// collation; traces print it as before).
	t.pinnedStr = map[string]bool{}
	for _, e := range src.Edges {
		table, where, args := stmtWhere(e.Stmt)
		if !t.onTable(table) {
			continue
		}
		for _, p := range columnPins(t.name, where) {
			if usesStrArg(p.val, args) {
				t.pinnedStr[p.col] = true
			}
		}
	}
}

// stmtWhere returns the table, WHERE clause and arguments of a SELECT,
// UPDATE or DELETE ("" otherwise).
func stmtWhere(s ir.Stmt) (string, sqlir.Expr, []ir.Expr) {
	switch s := s.(type) {
	case *ir.Select:
		return s.SQL.Table, s.SQL.Where, s.Args
	case *ir.Exec:
		switch q := s.SQL.(type) {
		case *sqlir.Update:
			return q.Table, q.Where, s.Args
		case *sqlir.Delete:
			return q.Table, q.Where, s.Args
		}
	}
	return "", nil, nil
}

// scannedText records the columns of items (a SELECT's or a RETURNING
// list) whose value lands in a Go string of targets.
func (t *tableModel) scannedText(items []sqlir.SelectItem, targets []*ir.Var) {
	for i, it := range items {
		c, ok := it.Expr.(*sqlir.ColRef)
		if !ok || it.Star || i >= len(targets) || targets[i] == nil || !targets[i].Str {
			continue
		}
		t.text[strings.ToLower(c.Name)] = true
	}
}

func isTextType(t string) bool {
	t = strings.ToLower(t)
	for _, k := range []string{"char", "text", "string", "uuid", "enum", "citext"} {
		if strings.Contains(t, k) {
			return true
		}
	}
	return false
}

// usesStrArg reports whether e is a parameter bound to a Go string.
func usesStrArg(e sqlir.Expr, args []ir.Expr) bool {
	p, ok := e.(*sqlir.Param)
	if !ok || p.Index >= len(args) {
		return false
	}
	v, ok := args[p.Index].(*ir.Var)
	return ok && v.Str
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

// chooseKey picks the keys of t. Every key the schema declares (PRIMARY
// KEY and each UNIQUE) identifies a row. The first one (the primary key
// when there is one) is always modelled, so that counterexamples show it;
// another is modelled when the program mentions all its columns (a key
// over columns nothing constrains adds no precision). When no schema
// describes the table, a column named "id" the program mentions is taken
// as the key (never NULL, as a primary key), unless noInfer; a table the
// schema declares without a key has none. It returns the assumption the
// inferred key makes ("" if none).
func (t *tableModel) chooseKey(noInfer bool) string {
	if t.schema != nil {
		for i, k := range t.schema.Keys {
			var cols []string
			mentioned := true
			for _, c := range k {
				c = strings.ToLower(c)
				cols = append(cols, c)
				if _, ok := t.sorts[c]; !ok {
					mentioned = false
				}
			}
			if len(cols) == 0 {
				continue
			}
			t.allKeys = append(t.allKeys, cols)
			if i == 0 || mentioned {
				t.keys = append(t.keys, cols)
				for _, c := range cols {
					if !notNull(t.schema, c) {
						t.nullableKey[c] = true
					}
				}
			}
		}
	}
	assumption := ""
	if t.allKeys == nil && !noInfer && t.schema == nil {
		if _, ok := t.sorts["id"]; ok {
			t.keys = [][]string{{"id"}}
			t.allKeys = t.keys
			assumption = fmt.Sprintf("%s.id is a unique key (no schema declares one; pass --schema, or --no-infer-key to drop this)", t.spelled)
		}
	}
	for _, k := range t.keys {
		for _, c := range k {
			if _, ok := t.sorts[c]; !ok {
				t.sorts[c] = ir.Int
				t.cols = append(t.cols, c)
				sort.Strings(t.cols)
			}
		}
	}
	return assumption
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
	return notNull(m.schemaTable(table), col)
}

// notNull reports whether t (nil: no schema) declares col NOT NULL.
func notNull(t *sqlir.Table, col string) bool {
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

// comparedColumns returns the columns of t that a top-level conjunct of
// where compares (c op e, c IS NOT NULL): a row the WHERE selects has them
// non-NULL.
func (t *tableModel) comparedColumns(where sqlir.Expr) map[string]bool {
	out := map[string]bool{}
	col := func(e sqlir.Expr) {
		if c, ok := e.(*sqlir.ColRef); ok && (c.Table == "" || t.onTable(c.Table)) {
			out[strings.ToLower(c.Name)] = true
		}
	}
	var conj func(e sqlir.Expr)
	conj = func(e sqlir.Expr) {
		switch e := e.(type) {
		case *sqlir.Binary:
			switch {
			case e.Op == sqlir.OpAnd:
				conj(e.X)
				conj(e.Y)
			case e.Op.IsComparison():
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

// assignedColumns returns the columns of t that some UPDATE or ON
// CONFLICT / ON DUPLICATE KEY assignment of src sets.
func (t *tableModel) assignedColumns(src *ir.Program) map[string]bool {
	out := map[string]bool{}
	for _, e := range src.Edges {
		s, ok := e.Stmt.(*ir.Exec)
		if !ok {
			continue
		}
		var set []sqlir.Assignment
		switch q := s.SQL.(type) {
		case *sqlir.Update:
			if t.onTable(q.Table) {
				set = q.Set
			}
		case *sqlir.Insert:
			if t.onTable(q.Table) {
				set = q.OnConflict
			}
		}
		for _, a := range set {
			out[strings.ToLower(a.Col)] = true
		}
	}
	return out
}
