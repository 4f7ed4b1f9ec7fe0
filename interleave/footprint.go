package interleave

import (
	"regexp"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// allColumns stands for every column of a table in a column set.
const allColumns = "*"

// access is what an operation does to the columns of each table it
// touches: the columns (allColumns: every one, the row's existence
// included) by lower-case table name.
type access map[string]map[string]bool

func (a access) add(table string, cols ...string) {
	table = strings.ToLower(table)
	m := a[table]
	if m == nil {
		m = map[string]bool{}
		a[table] = m
	}
	for _, c := range cols {
		m[strings.ToLower(c)] = true
	}
}

func (a access) merge(b access) {
	for t, cols := range b {
		for c := range cols {
			a.add(t, c)
		}
	}
}

// overlaps reports whether a and b share a cell: a table where both
// touch a common column, or one touches every column.
func (a access) overlaps(b access) bool {
	for t, ca := range a {
		cb, ok := b[t]
		if !ok {
			continue
		}
		if ca[allColumns] || cb[allColumns] {
			return true
		}
		for c := range ca {
			if cb[c] {
				return true
			}
		}
	}
	return false
}

// footprint is what a database operation may read, write and lock, for
// deciding whether two operations of different requests commute (DPF's
// relation and column dependence). all: the operation may touch anything
// (SQL the footprint cannot bound, BEGIN's snapshot).
type footprint struct {
	reads, writes  access
	xlocks, slocks access
	all            bool
	// allReads: the operation may read anything (a snapshot), but writes
	// only writes.
	allReads bool
}

func newFootprint() *footprint {
	return &footprint{reads: access{}, writes: access{}, xlocks: access{}, slocks: access{}}
}

// dependent reports whether f and g (operations of different requests)
// may not commute: one writes or locks a cell the other reads, writes or
// locks (shared locks commute), or either's footprint is unbounded.
func dependent(f, g *footprint) bool {
	if f.all || g.all {
		return true
	}
	if (f.allReads && g.writesAny()) || (g.allReads && f.writesAny()) {
		return true
	}
	touchF := []access{f.reads, f.writes, f.xlocks, f.slocks}
	touchG := []access{g.reads, g.writes, g.xlocks, g.slocks}
	for _, t := range touchG {
		if f.writes.overlaps(t) {
			return true
		}
	}
	for _, t := range touchF {
		if g.writes.overlaps(t) {
			return true
		}
	}
	return f.xlocks.overlaps(g.xlocks) || f.xlocks.overlaps(g.slocks) || f.slocks.overlaps(g.xlocks)
}

func (f *footprint) writesAny() bool {
	return f.all || len(f.writes) > 0 || len(f.xlocks) > 0 || len(f.slocks) > 0
}

// footprints computes the footprints of one program's database
// operations. related maps a table to the tables a write to it may also
// touch (foreign keys, cascades); nil: none.
type footprints struct {
	related func(string) []string
	// snapshots: a statement on a transaction may take its snapshot.
	snapshots bool
	// published: every cell the program writes or locks, which its
	// COMMIT or ROLLBACK makes visible or releases.
	published *footprint
	byStmt    map[ir.Stmt]*footprint
}

func newFootprints(p *ir.Program, related func(string) []string, snapshots bool) *footprints {
	fs := &footprints{related: related, snapshots: snapshots, byStmt: map[ir.Stmt]*footprint{}}
	pub := newFootprint()
	for _, e := range p.Edges {
		if _, ok := e.Stmt.(*ir.TxOp); ok || !IsDBOp(e.Stmt) {
			continue
		}
		f := fs.of(e.Stmt)
		if f.all {
			pub.all = true
		}
		pub.writes.merge(f.writes)
		pub.writes.merge(f.xlocks)
		pub.writes.merge(f.slocks)
	}
	fs.published = pub
	return fs
}

// of returns the footprint of database operation s of the program.
func (fs *footprints) of(s ir.Stmt) *footprint {
	if f, ok := fs.byStmt[s]; ok {
		return f
	}
	f := newFootprint()
	switch s := s.(type) {
	case *ir.TxOp:
		switch {
		case s.Op == ir.Begin:
			// A snapshot may be taken: it reads every committed cell.
			f.allReads = true
		case fs.published != nil:
			f = fs.published
		default:
			f.all = true
		}
	case *ir.Select:
		fs.selectFootprint(f, s.SQL, s.LockOnly)
		f.allReads = fs.snapshots && s.Tx != 0
	case *ir.Exec:
		fs.execFootprint(f, s.SQL)
		f.allReads = fs.snapshots && s.Tx != 0
	default:
		f.all = true
	}
	fs.byStmt[s] = f
	return f
}

func (fs *footprints) selectFootprint(f *footprint, q *sqlir.Select, lockOnly bool) {
	if q == nil || (q.Complex && len(q.AllTables) == 0) || q.Table == "" || opaque(q.Where) || opaqueItems(q.Columns) {
		f.all = true
		return
	}
	if q.Complex {
		for _, t := range q.AllTables {
			f.reads.add(t, allColumns)
		}
	} else {
		f.reads.add(q.Table, readColumns(q.Columns, q.Where)...)
	}
	switch {
	case q.ForShare:
		for t := range f.reads {
			f.slocks.add(t, allColumns)
		}
	case q.ForUpdate || lockOnly:
		for t := range f.reads {
			f.xlocks.add(t, allColumns)
		}
	}
}

func (fs *footprints) execFootprint(f *footprint, s sqlir.Statement) {
	switch s := s.(type) {
	case *sqlir.Update:
		if opaque(s.Where) || opaqueItems(s.Returning) {
			f.all = true
			return
		}
		var cols []string
		for _, a := range s.Set {
			cols = append(cols, a.Col)
			if opaque(a.Value) {
				f.all = true
				return
			}
		}
		fs.write(f, s.Table, cols...)
		// The row lock: every row the WHERE matches.
		f.xlocks.add(s.Table, allColumns)
		f.reads.add(s.Table, readColumns(s.Returning, s.Where)...)
		for _, a := range s.Set {
			f.reads.add(s.Table, exprColumns(a.Value)...)
		}
	case *sqlir.Delete:
		if opaque(s.Where) || opaqueItems(s.Returning) {
			f.all = true
			return
		}
		fs.write(f, s.Table, allColumns)
	case *sqlir.Insert:
		if s.FromSelect || insertOpaque(s) {
			f.all = true
			return
		}
		fs.write(f, s.Table, allColumns)
	default:
		// TxControl, Other (SET, DDL), nil: anything.
		f.all = true
	}
}

// write adds a write of cols of table, and of every column of the tables
// a write to it may touch.
func (fs *footprints) write(f *footprint, table string, cols ...string) {
	f.writes.add(table, cols...)
	if fs.related == nil {
		return
	}
	for _, t := range fs.related(strings.ToLower(table)) {
		f.writes.add(t, allColumns)
	}
}

// insertOpaque reports whether an INSERT's values, upsert or RETURNING
// hold an opaque expression.
func insertOpaque(s *sqlir.Insert) bool {
	for _, row := range s.Rows {
		for _, v := range row {
			if opaque(v) {
				return true
			}
		}
	}
	for _, a := range s.OnConflict {
		if opaque(a.Value) {
			return true
		}
	}
	return opaque(s.ConflictWhere) || opaqueItems(s.Returning)
}

// readColumns are the columns a SELECT list (or RETURNING) and a WHERE
// read; a star reads every column.
func readColumns(items []sqlir.SelectItem, where sqlir.Expr) []string {
	cols := exprColumns(where)
	for _, it := range items {
		if it.Star {
			return []string{allColumns}
		}
		cols = append(cols, exprColumns(it.Expr)...)
	}
	if len(cols) == 0 {
		// SELECT 1 FROM t WHERE true: the row's existence.
		cols = append(cols, allColumns)
	}
	return cols
}

// exprColumns lists the columns e refers to.
func exprColumns(e sqlir.Expr) []string {
	var cols []string
	if e == nil {
		return nil
	}
	sqlir.Rewrite(e, func(x sqlir.Expr) (sqlir.Expr, bool) {
		switch x := x.(type) {
		case *sqlir.ColRef:
			cols = append(cols, x.Name)
		case *sqlir.Unknown:
			cols = append(cols, allColumns)
		}
		return x, false
	})
	return cols
}

// builtins are functions that read nothing but their arguments.
var builtins = map[string]bool{
	"now": true, "current_timestamp": true, "current_date": true, "coalesce": true, "nullif": true,
	"lower": true, "upper": true, "trim": true, "length": true, "concat": true, "abs": true,
	"greatest": true, "least": true, "round": true, "floor": true, "ceil": true, "mod": true,
	"ifnull": true, "if": true, "cast": true, "in": true, "not": true, "and": true, "or": true,
}

// callName finds the functions an expression's text calls.
var callName = regexp.MustCompile(`([a-z_][a-z0-9_.]*)\s*\(`)

// opaque reports whether e holds an expression the IR does not model that
// may read other tables: a subquery, or a function that is not a builtin
// (a stored function may read anything).
func opaque(e sqlir.Expr) bool {
	found := false
	if e == nil {
		return false
	}
	sqlir.Rewrite(e, func(x sqlir.Expr) (sqlir.Expr, bool) {
		u, ok := x.(*sqlir.Unknown)
		if !ok || u.Default {
			return x, false
		}
		text := strings.ToLower(u.Text)
		if strings.Contains(text, "select") {
			found = true
		}
		for _, m := range callName.FindAllStringSubmatch(text, -1) {
			if !builtins[m[1]] {
				found = true
			}
		}
		return x, false
	})
	return found
}

// opaqueItems reports whether a SELECT list or RETURNING holds an opaque
// expression.
func opaqueItems(items []sqlir.SelectItem) bool {
	for _, it := range items {
		if opaque(it.Expr) {
			return true
		}
	}
	return false
}
