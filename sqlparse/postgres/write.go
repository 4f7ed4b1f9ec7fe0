package postgres

import (
	"fmt"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/internal/rules"
)

// UPDATE, DELETE and INSERT statements.

// target sets up the scope of a statement that writes rel.
func (t *translator) target(rel *pg.RangeVar) string {
	name := rel.GetRelname()
	t.scope = map[string]string{name: name}
	if a := rel.GetAlias(); a != nil && a.Aliasname != "" {
		t.scope[a.Aliasname] = name
	}
	return name
}

// assignments translates SET col = e, SET (a, b) = (e1, e2) and
// SET (a, b) = (SELECT …) lists. Assigning part of a column (an array
// element or a field) gives the column an unknown value.
func (t *translator) assignments(list []*pg.Node) []sqlir.Assignment {
	var out []sqlir.Assignment
	for _, n := range list {
		rt := n.GetResTarget()
		if rt == nil {
			continue
		}
		var v sqlir.Expr
		if m := rt.Val.GetMultiAssignRef(); m != nil {
			row := m.Source.GetRowExpr()
			switch {
			case row != nil && m.Colno >= 1 && int(m.Colno) <= len(row.Args):
				v = t.expr(row.Args[m.Colno-1])
			case m.Ncolumns == 1 && m.Source.GetSubLink() == nil:
				v = t.expr(m.Source)
			default:
				u := t.unknown(m.Source)
				u.Text = fmt.Sprintf("column %d of %s", m.Colno, u.Text)
				v = u
			}
		} else {
			v = t.expr(rt.Val)
		}
		if len(rt.Indirection) > 0 {
			v = &sqlir.Unknown{Text: rt.Name + "[…] := " + rules.Format(v), Params: rules.ParamsOf(v)}
		}
		out = append(out, sqlir.Assignment{Col: rt.Name, Value: v})
	}
	return out
}

func (t *translator) update(u *pg.UpdateStmt) *sqlir.Update {
	target := t.target(u.Relation)
	t.with(u.WithClause)
	out := &sqlir.Update{Table: target}
	if len(u.FromClause) == 0 {
		out.Set = t.assignments(u.TargetList)
		if u.WhereClause != nil {
			out.Where = t.expr(u.WhereClause)
		}
		out.Returning = t.returning(u.ReturningList)
		return out
	}
	// UPDATE … FROM: like MySQL's multi-table UPDATE, only columns of the
	// target (qualified with its name or alias) keep their meaning.
	t.writeTarget = target
	fi := &pgFrom{joins: true}
	for _, n := range u.FromClause {
		t.fromItem(n, fi)
	}
	out.Set = t.assignments(u.TargetList)
	set := out.Set
	out.Set = nil
	for _, a := range set {
		out.Set = append(out.Set, sqlir.Assignment{Col: a.Col, Value: rules.OwnColumnsOnly(a.Value, target)})
	}
	var conj []rules.Conjunct
	out.Where, conj = t.joinFilter(fi, target, u.WhereClause)
	out.Returning = rules.OwnItemsOnly(t.returning(u.ReturningList), target)
	rv := u.FromClause[0].GetRangeVar()
	if len(u.FromClause) == 1 && rv != nil && len(fi.tables) == 1 && !fi.derived && !fi.funcs {
		switch alias := rv.GetAlias().GetAliasname(); {
		case fi.tables[0] != target:
			out.Join = rules.JoinedUpdate(fi.tables[0], set, conj)
		case alias != "" && alias != target:
			// A self-join: the other instance's columns keep its alias.
			out.Join = rules.JoinedUpdate(alias, set, conj)
			out.Join.Table, out.Join.Alias = target, alias
		}
	}
	return out
}

func (t *translator) delete(d *pg.DeleteStmt) *sqlir.Delete {
	target := t.target(d.Relation)
	t.with(d.WithClause)
	out := &sqlir.Delete{Table: target}
	if len(d.UsingClause) == 0 {
		if d.WhereClause != nil {
			out.Where = t.expr(d.WhereClause)
		}
		out.Returning = t.returning(d.ReturningList)
		return out
	}
	t.writeTarget = target
	fi := &pgFrom{joins: true}
	for _, n := range d.UsingClause {
		t.fromItem(n, fi)
	}
	out.Where, _ = t.joinFilter(fi, target, d.WhereClause)
	out.Returning = rules.OwnItemsOnly(t.returning(d.ReturningList), target)
	return out
}

// joinFilter builds the Where of UPDATE … FROM / DELETE … USING on target:
// the conjuncts of WHERE (and of inner-join ON conditions) that only read
// target's columns, and an Unknown conjunct for the rest ("some joined row
// matches"), as the MySQL multi-table path does.
func (t *translator) joinFilter(fi *pgFrom, target string, where *pg.Node) (sqlir.Expr, []rules.Conjunct) {
	var conj []*pg.Node
	var split func(n *pg.Node)
	split = func(n *pg.Node) {
		if b := n.GetBoolExpr(); b != nil && b.Boolop == pg.BoolExprType_AND_EXPR {
			for _, a := range b.Args {
				split(a)
			}
			return
		}
		conj = append(conj, n)
	}
	for _, on := range fi.innerOn {
		split(on)
	}
	if where != nil {
		split(where)
	}
	out := make([]rules.Conjunct, len(conj))
	for i, c := range conj {
		out[i] = rules.Conjunct{Expr: t.expr(c), Text: pgDeparseExpr(t.version, c)}
	}
	others := append([]string(nil), fi.tables...)
	if fi.derived || fi.funcs {
		others = append(others, "a derived table")
	}
	return rules.JoinFilter(target, out, others), out
}

// insertSource translates the SELECT of INSERT … SELECT, keeping the
// INSERT's scope (its target, for ON CONFLICT and RETURNING) and reads.
func (t *translator) insertSource(sel *pg.SelectStmt) *sqlir.Select {
	if sel == nil {
		return nil
	}
	scope, reads := t.scope, t.reads
	src := t.selectStmt(sel)
	t.scope, t.reads = scope, reads
	return src
}

// isPlainValues reports a VALUES list with nothing else around it.
func isPlainValues(s *pg.SelectStmt) bool {
	return s != nil && len(s.ValuesLists) > 0 && len(s.TargetList) == 0 &&
		len(s.FromClause) == 0 && len(s.SortClause) == 0 && s.LimitCount == nil &&
		s.LimitOffset == nil && s.WithClause == nil && len(s.LockingClause) == 0 &&
		(s.Op == pg.SetOperation_SETOP_NONE || s.Op == pg.SetOperation_SET_OPERATION_UNDEFINED)
}

func (t *translator) insert(ins *pg.InsertStmt) (sqlir.Statement, error) {
	table := t.target(ins.Relation)
	t.with(ins.WithClause)
	out := &sqlir.Insert{Table: table}
	var partial []bool // column assigned only in part (col[1], col.field)
	for _, c := range ins.Cols {
		rt := c.GetResTarget()
		if rt == nil {
			continue
		}
		out.Columns = append(out.Columns, rt.Name)
		partial = append(partial, len(rt.Indirection) > 0)
	}
	sel := ins.SelectStmt.GetSelectStmt()
	switch {
	case ins.SelectStmt == nil: // DEFAULT VALUES: one row of defaults
		out.Rows = [][]sqlir.Expr{{}}
	case isPlainValues(sel):
		for i, r := range sel.ValuesLists {
			items := r.GetList().GetItems()
			if len(out.Columns) > 0 && len(items) != len(out.Columns) {
				return nil, fmt.Errorf("INSERT into %s: row %d has %d values for %d columns", table, i+1, len(items), len(out.Columns))
			}
			row := make([]sqlir.Expr, len(items))
			for j, v := range items {
				switch {
				case j < len(partial) && partial[j]:
					row[j] = t.unknown(v)
				case v.GetSetToDefault() != nil:
					row[j] = &sqlir.Unknown{Text: "DEFAULT", Default: true}
				default:
					row[j] = t.expr(v)
				}
			}
			out.Rows = append(out.Rows, row)
		}
	default:
		out.FromSelect = true
		out.Source = t.insertSource(sel)
		t.collectReads(ins.SelectStmt)
	}
	if oc := ins.OnConflictClause; oc != nil {
		t.onConflict(oc, out)
	}
	out.Returning = t.returning(ins.ReturningList)
	return out, nil
}

// onConflict fills the ON CONFLICT fields of out. In DO UPDATE, columns
// refer to the existing row and EXCLUDED.col to the row proposed for
// insertion: the inserted value for a one-row VALUES insert, else Unknown
// (a multi-row VALUES also gets each row's assignments in OnConflictRows).
// A WHERE on the action becomes part of every assignment:
// col = CASE WHEN cond THEN value ELSE col END.
func (t *translator) onConflict(oc *pg.OnConflictClause, out *sqlir.Insert) {
	if inf := oc.Infer; inf != nil {
		out.ConflictConstraint = inf.Conname
		var cols []string
		for _, e := range inf.IndexElems {
			ie := e.GetIndexElem()
			if ie == nil || ie.Name == "" {
				cols = nil // an expression index: the columns are not known
				break
			}
			cols = append(cols, ie.Name)
		}
		out.ConflictColumns = cols
		if cols != nil && inf.WhereClause != nil {
			out.ConflictWhere = t.expr(inf.WhereClause)
		}
	}
	switch oc.Action {
	case pg.OnConflictAction_ONCONFLICT_NOTHING:
		out.OnConflictNothing = true
		return
	case pg.OnConflictAction_ONCONFLICT_UPDATE:
	default:
		return
	}
	out.HasOnConflict = true
	out.ConflictGuarded = oc.WhereClause != nil
	t.inConflict = true
	t.excluded = nil
	if len(out.Rows) == 1 && !out.FromSelect && len(out.Columns) > 0 {
		t.excluded = excludedRow(out.Columns, out.Rows[0])
	}
	out.OnConflict = t.conflictSet(oc)
	if len(out.Rows) > 1 && !out.FromSelect && len(out.Columns) > 0 {
		// A multi-row VALUES: each row's conflict sees its own EXCLUDED.
		for _, row := range out.Rows {
			t.excluded = excludedRow(out.Columns, row)
			out.OnConflictRows = append(out.OnConflictRows, t.conflictSet(oc))
		}
	}
	t.inConflict = false
	t.excluded = nil
}

// excludedRow maps the lower-cased columns of an INSERT to the values row
// gives them: what EXCLUDED.col reads in DO UPDATE.
func excludedRow(cols []string, row []sqlir.Expr) map[string]sqlir.Expr {
	out := map[string]sqlir.Expr{}
	for i, c := range cols {
		if i < len(row) {
			out[strings.ToLower(c)] = row[i]
		}
	}
	return out
}

// conflictSet translates the DO UPDATE assignments of oc with the current
// EXCLUDED values; a WHERE on the action becomes part of every assignment.
func (t *translator) conflictSet(oc *pg.OnConflictClause) []sqlir.Assignment {
	set := t.assignments(oc.TargetList)
	if oc.WhereClause != nil {
		for i := range set {
			a := &set[i]
			a.Value = &sqlir.Case{
				Whens: []sqlir.When{{Cond: t.expr(oc.WhereClause), Val: a.Value}},
				Else:  &sqlir.ColRef{Name: a.Col},
			}
		}
	}
	return set
}
