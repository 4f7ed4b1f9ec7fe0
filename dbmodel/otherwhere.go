package dbmodel

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// The row a SELECT of a table the property does not watch reads. Its
// values are not tracked from one statement to the next, but the row
// read satisfies the SELECT's WHERE, whatever the table holds: SELECT
// remaining FROM point_batches WHERE … AND remaining > 0 reads a positive
// remaining (corpus loyalty/expire_batches_safe, whose counterexample
// summed remaining = -2^63 once a Scan's Go integer kept its type's
// range). Each such read binds a row of fresh values (one per column the
// SELECT reads, its WHERE or a CHECK of the schema mentions), assumes of
// it every conjunct of the WHERE the model evaluates exactly, the
// schema's CHECKs on it (checks.go) and its integer columns' ranges, and
// gives each Scan target the value of the column it reads. A rows.Next
// loop runs its Scan's SELECT once per row: each row gets its own.
//
// A conjunct the model does not evaluate exactly (a function, a
// subquery, NULL-ness it does not track, a division, whose integer
// rounding the columns' sorts may not follow) is not assumed; the
// columns it constrains, and those the kept conjuncts tie to them, are
// then read into approximations (ir.Var.Approx): a counterexample that
// depends on one is UNKNOWN, not an UNSAFE the engine cannot run. So is
// a column the WHERE constrains that is read into a destination whose
// value the model does not identify with the column's (a Go bool, a
// text column scanned into a Go integer).

// otherRow is the row of a table no model watches that a SELECT reads.
type otherRow struct {
	x *symbol
	// reads: the column each bound Scan target (by index) holds.
	reads map[int]string
	// unbound: the column each other Scan target of a column reads,
	// whose value the model does not identify with the column's (see
	// bindable).
	unbound map[int]string
}

// readOtherRow emits, at em (the success path of s, its targets
// havocked), the facts of the row s reads from a table no model watches
// and the targets' values (see above). Nothing for a SELECT of several
// tables, a grouped or aggregated one (its row is no row of the table).
func (m *lowerer) readOtherRow(em *emitter, s *ir.Select) {
	q := s.SQL
	if q.Complex || q.Table == "" || len(q.Tables()) != 1 {
		return
	}
	row := m.newOtherRow(s)
	names := slices.Sorted(maps.Keys(row.x.cols))
	var facts []ir.Expr
	var dropped [][]string
	var kept [][]string
	for _, c := range whereConjuncts(q.Where) {
		if f, ok := m.exactConjunct(c, row.x, s.Args); ok {
			facts = append(facts, f)
			kept = append(kept, columnsOf(c, names))
		} else {
			dropped = append(dropped, columnsOf(c, names))
		}
	}
	if t := m.schemaTable(q.Table); t != nil {
		for _, c := range t.Checks {
			kept = append(kept, columnsOf(c.Expr, names))
		}
	}
	facts = append(facts, m.checks(row.x), m.columnsInRange(row.x))
	approx := approxColumns(kept, dropped)
	var lhs []*ir.Var
	var rhs []ir.Expr
	var eqs []ir.Expr
	for _, i := range slices.Sorted(maps.Keys(row.reads)) {
		col := row.reads[i]
		val := row.x.cols[col]
		if approx[col] {
			a := m.freshVar("$read_"+col, val.Type)
			a.Approx = fmt.Sprintf("column %s of the row of %s read at %s, which its WHERE constrains in a way the model does not evaluate", col, q.Table, s.Info.Position())
			eqs = append(eqs, ir.Eq(a, val))
			val = a
		}
		lhs = append(lhs, s.Targets[i])
		rhs = append(rhs, val)
	}
	where := columnsOf(q.Where, names)
	for _, i := range slices.Sorted(maps.Keys(row.unbound)) {
		col := row.unbound[i]
		if !slices.Contains(where, col) {
			continue // arbitrary, as the table's rows may hold
		}
		a := m.freshVar("$read_"+col, s.Targets[i].Type)
		a.Approx = fmt.Sprintf("column %s of the row of %s read at %s, which its WHERE constrains, read into a Go value the model does not identify with the column's", col, q.Table, s.Info.Position())
		lhs = append(lhs, s.Targets[i])
		rhs = append(rhs, a)
	}
	em.havoc(m.takeFresh()...)
	em.fact(ir.And(append(facts, eqs...)...))
	em.assign(lhs, rhs)
}

// newOtherRow returns the row s reads, with a fresh value for each column
// its items, its WHERE and its table's CHECKs mention.
func (m *lowerer) newOtherRow(s *ir.Select) *otherRow {
	q := s.SQL
	table := strings.ToLower(q.Table)
	x := &symbol{name: "$" + table, table: table, cols: map[string]*ir.Var{}, nonNull: map[string]bool{},
		kinds: map[string]valueKind{}, colls: map[string]collClass{}}
	row := &otherRow{x: x, reads: map[int]string{}, unbound: map[int]string{}}
	items, _ := m.selectItems(q)
	for i, it := range items {
		c, ok := it.Expr.(*sqlir.ColRef)
		if it.Star || !ok || i >= len(s.Targets) || s.Targets[i] == nil || !sameTable(c, q.Table) || m.generated(c, x) != nil {
			continue
		}
		col := strings.ToLower(c.Name)
		tv := s.Targets[i]
		kind, coll, ok := m.bindable(q.Table, col, tv)
		if v, done := x.cols[col]; !ok || done && v.Type != tv.Type {
			row.unbound[i] = col
			continue
		}
		if _, done := x.cols[col]; !done {
			x.cols[col] = m.freshVar(x.name+"."+col, tv.Type)
			x.kinds[col], x.colls[col] = kind, coll
		}
		if i < len(s.RejectsNull) && s.RejectsNull[i] {
			x.nonNull[col] = true // a NULL fails the Scan
		}
		row.reads[i] = col
	}
	mentioned := columnsOf(q.Where, nil)
	if t := m.schemaTable(q.Table); t != nil {
		for _, c := range t.Checks {
			mentioned = append(mentioned, columnsOf(c.Expr, nil)...)
		}
	}
	for _, col := range mentioned {
		if _, done := x.cols[col]; !done {
			x.cols[col] = m.freshVar(x.name+"."+col, m.unboundSort(q.Table, col))
		}
	}
	if m.memoSite(s) == nil { // (a memo site's row o1 is the row listed)
		m.nameReadRow(x, q.Table)
	}
	return row
}

// nameReadRow gives the columns of x, a row of table a SELECT reads (or
// a joined UPDATE's joined row), a row symbol of their own (q1, q2, …):
// they stay ghosts to the model, and a trace lists the row as read, so
// that a replay seeds it. Without it a joined UPDATE whose program later
// writes the joined table (UPDATE charges SET settled = true) printed no
// row of that table, and the replay's UPDATE … FROM matched nothing (an
// independent tester's mini/updatefromrow: NOT REPRODUCED).
func (m *lowerer) nameReadRow(x *symbol, table string) {
	m.readRows++
	name := fmt.Sprintf("q%d", m.readRows)
	for col, v := range x.cols {
		v.Row, v.Table, v.Col = name, table, col
	}
}

// bindable says whether a Scan target tv holds exactly the value the
// model gives column col of table, and how the model then sees the
// column (its kind, its collation): a Go integer or float reads a
// column that is not text (a Scan that cannot convert fails); a Go
// string only a column the schema declares as a character type, which
// the driver returns as stored (a date, a uuid, a number reaches Go in
// a spelling of the driver's, which the WHERE may not compare: '2024-1-1'
// matches a DATETIME that Go reads as "2024-01-01 00:00:00"), compared
// under its collation.
func (m *lowerer) bindable(table, col string, tv *ir.Var) (valueKind, collClass, bool) {
	kind := m.columnKind(table, col)
	switch {
	case tv.Type == ir.Real:
		return kindNum, collExact, kind != kindStr
	case tv.Type != ir.Int:
		return kind, collExact, false
	case tv.Str:
		return kindStr, m.columnCollation(table, col), m.characterColumn(table, col)
	}
	return kindNum, collExact, kind != kindStr
}

// characterColumn reports whether the schema declares column col of
// table with a character type (CHAR, VARCHAR, TEXT, citext; not a uuid).
func (m *lowerer) characterColumn(table, col string) bool {
	t := m.schemaTable(table)
	if t == nil {
		return false
	}
	for _, c := range t.Columns {
		if strings.EqualFold(c.Name, col) {
			ty := strings.ToLower(c.Type)
			return (strings.Contains(ty, "char") || strings.Contains(ty, "text")) && !strings.Contains(ty, "uuid")
		}
	}
	return false
}

// unboundSort is the sort of the value of column col of table that no
// target reads: an integer when the schema declares an integer or text
// type (a text's code), otherwise a real (an integer is one: a column of
// no known type may hold 0.5).
func (m *lowerer) unboundSort(table, col string) ir.Sort {
	t := m.schemaTable(table)
	if t == nil {
		return ir.Real
	}
	for _, c := range t.Columns {
		if strings.EqualFold(c.Name, col) {
			if _, _, isInt := intType(strings.ToLower(c.Type)); isInt || isTextType(c.Type) {
				return ir.Int
			}
		}
	}
	return ir.Real
}

// exactConjunct translates conjunct c of a WHERE on row x, and whether
// the model evaluates it exactly: no approximation (whose value could
// make a row match that does not, or miss one that does) and no division
// (whose rounding depends on the operands' sorts). A conjunct that is
// not exact leaves no trace: its fresh values and assumptions are
// dropped.
func (m *lowerer) exactConjunct(c sqlir.Expr, x *symbol, args []ir.Expr) (ir.Expr, bool) {
	if hasDivision(c) {
		return nil, false
	}
	n, na := len(m.fresh), len(m.res.Assumptions)
	f := m.where(c, x, args)
	for _, v := range m.fresh[n:] {
		if v.Approx != "" {
			m.fresh = m.fresh[:n]
			m.res.Assumptions = m.res.Assumptions[:na]
			return nil, false
		}
	}
	return f, true
}

// approxColumns returns the columns of row whose reads are
// approximations: those a dropped conjunct mentions, with every column a
// kept conjunct (or CHECK) ties to one of them.
func approxColumns(kept, dropped [][]string) map[string]bool {
	out := map[string]bool{}
	for _, cols := range dropped {
		for _, c := range cols {
			out[c] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for _, cols := range kept {
			if !slices.ContainsFunc(cols, func(c string) bool { return out[c] }) {
				continue
			}
			for _, c := range cols {
				if !out[c] {
					out[c], changed = true, true
				}
			}
		}
	}
	return out
}

// whereConjuncts splits a WHERE at its top-level ANDs (nil: none).
func whereConjuncts(w sqlir.Expr) []sqlir.Expr {
	if w == nil {
		return nil
	}
	if b, ok := w.(*sqlir.Binary); ok && b.Op == sqlir.OpAnd {
		return append(whereConjuncts(b.X), whereConjuncts(b.Y)...)
	}
	return []sqlir.Expr{w}
}

// columnsOf returns the (lower-case) names of the columns e mentions: its
// column references, and those of names that an expression the model
// does not parse (sqlir.Unknown: a function call, a subquery) spells
// as a word of its text.
func columnsOf(e sqlir.Expr, names []string) []string {
	if e == nil {
		return nil
	}
	var out []string
	add := func(c string) {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	sqlir.Rewrite(e, func(y sqlir.Expr) (sqlir.Expr, bool) {
		switch y := y.(type) {
		case *sqlir.ColRef:
			add(strings.ToLower(y.Name))
		case *sqlir.Unknown:
			for _, c := range names {
				if spellsWord(y.Text, c) {
					add(c)
				}
			}
		}
		return nil, false
	})
	return out
}

// spellsWord reports whether text holds word (case-insensitive) with no
// identifier character on either side.
func spellsWord(text, word string) bool {
	t, w := strings.ToLower(text), strings.ToLower(word)
	for i := 0; ; {
		j := strings.Index(t[i:], w)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(w)
		if (j == 0 || !isNameChar(t[j-1])) && (end == len(t) || !isNameChar(t[end])) {
			return true
		}
		i = j + 1
	}
}

// isNameChar reports a character of an SQL identifier.
func isNameChar(c byte) bool {
	return c == '_' || c == '$' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80
}

// hasDivision reports whether e divides or takes a remainder.
func hasDivision(e sqlir.Expr) bool {
	found := false
	sqlir.Rewrite(e, func(y sqlir.Expr) (sqlir.Expr, bool) {
		if b, ok := y.(*sqlir.Binary); ok && (b.Op == sqlir.OpDiv || b.Op == sqlir.OpDivInt || b.Op == sqlir.OpMod) {
			found = true
		}
		return nil, false
	})
	return found
}

// sameTable reports whether column c, as a SELECT of table writes it,
// is a column of table (unqualified, or qualified with its name).
func sameTable(c *sqlir.ColRef, table string) bool {
	return c.Table == "" || strings.EqualFold(c.Table, table)
}
