package frontend

import (
	"fmt"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// UPDATE … FROM (PostgreSQL, SQLite) and MySQL's UPDATE a JOIN b: an
// UPDATE that joins one row of another table, the one row whose key its
// conditions on that table pin to placeholders or literals
// (`FROM prices p WHERE p.sku = $2`), reads that row as a SELECT would
// (an ir.Select of the joined table before the write: its values, the
// same row for a later read of its key, a row a trace lists and a replay
// seeds) and then updates the target rows with the values read, where a
// row was found. Every target row is joined with that same row. A join
// that pins no key of the joined table, or whose columns the schema
// does not tell apart from the target's, keeps the parser's reading
// ("some joined row": arbitrary values, UNKNOWN where they matter). An
// independent tester's m8 (a guarded PostgreSQL UPDATE … FROM) was
// UNKNOWN on decidable code. A self-join (UPDATE accounts a … FROM
// accounts b WHERE b.id = $2) reads row b of the target table the same
// way, before the write (adv12 m11).

// joinedRead emits the read of the row a joined UPDATE stmt joins, and
// returns the UPDATE with that row's columns bound to the values read
// (placeholders after args, in the returned arguments) and the condition
// under which the read failed with a server error (the UPDATE then
// fails); it returns stmt, args and nil when stmt is no such UPDATE.
func (t *translator) joinedRead(stmt sqlir.Statement, args []ir.Expr, tx ir.Tx, info ir.Info) (sqlir.Statement, []ir.Expr, ir.Expr) {
	u, ok := stmt.(*sqlir.Update)
	if !ok || u.Join == nil || t.l.cfg.Schema == nil {
		return stmt, args, nil
	}
	j := u.Join
	jt := t.l.cfg.Schema.Tables[strings.ToLower(j.Table)]
	if jt == nil {
		return stmt, args, nil
	}
	var link *keyLink
	if !pinsKey(jt, j.Qualifier(), j.Where) {
		if link = t.linkedKey(u, jt); link == nil {
			return stmt, args, nil
		}
	}
	cols, ok := joinedColumns(u, jt)
	if !ok {
		return stmt, args, nil
	}
	if len(cols) == 0 {
		cols = []string{strings.ToLower(jt.Keys[0][0])}
	}
	sel := &sqlir.Select{Table: j.Table, Where: ownName(j.Where, j)}
	selArgs, linkFailed := args, ir.Expr(nil)
	if link != nil {
		sel.Where, selArgs, linkFailed = t.readLink(u, link, sel.Where, args, tx, info)
	}
	var targets []*ir.Var
	index := map[string]int{}
	out := append(append([]ir.Expr(nil), args...), nil)
	foundAt := len(args)
	for _, c := range cols {
		sel.Columns = append(sel.Columns, sqlir.SelectItem{Expr: &sqlir.ColRef{Table: j.Table, Name: c}})
		v := t.p.NewVar("joined."+c, columnSort(jt, c), ir.Local)
		v.Str = isTextColumn(jt, c)
		targets = append(targets, v)
		index[c] = len(out)
		out = append(out, v)
	}
	errV := t.p.NewVar("joinedErr", ir.Bool, ir.Local)
	noRow := t.p.NewVar("joinedNoRow", ir.Bool, ir.Local)
	read := info
	read.Text = fmt.Sprintf("%s (its row of %s)", info.Text, j.Table)
	t.emit(&ir.Select{SQL: sel, Args: selArgs, Tx: tx, Targets: targets, Err: errV, NoRow: noRow, Info: read})
	out[foundAt] = ir.Not(errV)
	failed := ir.And(errV, ir.Not(noRow))
	if link != nil {
		out[foundAt] = ir.And(ir.Not(errV), ir.Not(link.err))
		failed = ir.Or(failed, linkFailed)
	}
	bind := func(e sqlir.Expr) sqlir.Expr {
		return sqlir.Rewrite(e, func(x sqlir.Expr) (sqlir.Expr, bool) {
			c, ok := x.(*sqlir.ColRef)
			if !ok || !strings.EqualFold(c.Table, j.Qualifier()) {
				return nil, false
			}
			return &sqlir.Param{Index: index[strings.ToLower(c.Name)]}, true
		})
	}
	w := *u
	w.Join = nil
	w.Set = nil
	for _, a := range j.Set {
		w.Set = append(w.Set, sqlir.Assignment{Col: a.Col, Value: bind(a.Value)})
	}
	found := sqlir.Expr(&sqlir.Param{Index: foundAt})
	if j.TargetWhere != nil {
		found = &sqlir.Binary{Op: sqlir.OpAnd, X: found, Y: bind(j.TargetWhere)}
	}
	w.Where = found
	return &w, out, failed
}

// ownName returns e, conditions on the joined row of j, with its columns
// qualified by the joined table's name (a self-join's are by its alias),
// as a SELECT of that table reads them.
func ownName(e sqlir.Expr, j *sqlir.JoinedUpdate) sqlir.Expr {
	if j.Alias == "" {
		return e
	}
	return sqlir.Rewrite(e, func(x sqlir.Expr) (sqlir.Expr, bool) {
		c, ok := x.(*sqlir.ColRef)
		if !ok || !strings.EqualFold(c.Table, j.Alias) {
			return nil, false
		}
		return &sqlir.ColRef{Table: j.Table, Name: c.Name}, true
	})
}

// pinsKey reports whether where, the conditions of a joined UPDATE on
// table (declared as st), equates every column of one of its keys with
// a placeholder or a literal: at most one row of table satisfies it.
func pinsKey(st *sqlir.Table, table string, where sqlir.Expr) bool {
	pinned := map[string]bool{}
	var walk func(e sqlir.Expr)
	walk = func(e sqlir.Expr) {
		b, ok := e.(*sqlir.Binary)
		if !ok {
			return
		}
		switch b.Op {
		case sqlir.OpAnd:
			walk(b.X)
			walk(b.Y)
		case sqlir.OpEq:
			for _, p := range [][2]sqlir.Expr{{b.X, b.Y}, {b.Y, b.X}} {
				c, ok := p[0].(*sqlir.ColRef)
				if !ok || !strings.EqualFold(c.Table, table) {
					continue
				}
				switch p[1].(type) {
				case *sqlir.Param, *sqlir.Num, *sqlir.Str:
					pinned[strings.ToLower(c.Name)] = true
				}
			}
		}
	}
	walk(where)
	for _, k := range st.Keys {
		all := len(k) > 0
		for _, c := range k {
			all = all && pinned[strings.ToLower(c)]
		}
		if all {
			return true
		}
	}
	return false
}

// joinedColumns returns the columns of the joined table (declared as jt)
// that u's SET and target conditions read, lower case, in order; ok is
// false when an unqualified column may be the joined table's.
func joinedColumns(u *sqlir.Update, jt *sqlir.Table) ([]string, bool) {
	var cols []string
	seen := map[string]bool{}
	ok := true
	visit := func(e sqlir.Expr) {
		sqlir.Rewrite(e, func(x sqlir.Expr) (sqlir.Expr, bool) {
			c, isCol := x.(*sqlir.ColRef)
			if !isCol {
				return nil, false
			}
			name := strings.ToLower(c.Name)
			switch {
			case c.Table == "" && hasColumn(jt, name):
				ok = false
			case strings.EqualFold(c.Table, u.Join.Qualifier()) && !seen[name]:
				seen[name] = true
				cols = append(cols, name)
			}
			return nil, false
		})
	}
	for _, a := range u.Join.Set {
		visit(a.Value)
	}
	visit(u.Join.TargetWhere)
	return cols, ok
}

func hasColumn(t *sqlir.Table, col string) bool {
	for _, c := range t.Columns {
		if strings.EqualFold(c.Name, col) {
			return true
		}
	}
	return false
}

// columnSort is the sort of a value of column col of t: real for a
// decimal or floating-point type, else an integer (strings as codes).
func columnSort(t *sqlir.Table, col string) ir.Sort {
	for _, c := range t.Columns {
		if strings.EqualFold(c.Name, col) {
			ty := strings.ToLower(c.Type)
			for _, k := range []string{"decimal", "numeric", "real", "float", "double", "money"} {
				if strings.Contains(ty, k) {
					return ir.Real
				}
			}
		}
	}
	return ir.Int
}

// isTextColumn reports whether t declares col with a character type.
func isTextColumn(t *sqlir.Table, col string) bool {
	for _, c := range t.Columns {
		if strings.EqualFold(c.Name, col) {
			ty := strings.ToLower(c.Type)
			for _, k := range []string{"char", "text", "string", "uuid", "enum", "citext"} {
				if strings.Contains(ty, k) {
					return true
				}
			}
		}
	}
	return false
}

// emitWrite emits the write w; a joined UPDATE (see joinedRead) is
// preceded by the read of its joined row, and fails, without running,
// where that read failed with a server error.
func (t *translator) emitWrite(w *ir.Exec) {
	stmt, args, failed := t.joinedRead(w.SQL, w.Args, w.Tx, w.Info)
	if failed == nil {
		t.emit(w)
		return
	}
	run := *w
	run.SQL, run.Args = stmt, args
	join, from := t.p.NewLoc(), t.cur
	t.emit(&ir.Assume{Cond: ir.Not(failed), Info: w.Info})
	t.emit(&run)
	t.edge(join, &ir.Assume{Cond: ir.True, Info: w.Info})
	t.cur = from
	t.emit(&ir.Assume{Cond: failed, Info: w.Info})
	t.emit(&ir.Assign{Lhs: []*ir.Var{w.Err}, Rhs: []ir.Expr{ir.True}, Info: w.Info})
	var outcome []*ir.Var
	if w.Affected != nil {
		outcome = append(outcome, w.Affected)
	}
	if w.NoRow != nil {
		outcome = append(outcome, w.NoRow)
	}
	for _, v := range w.Targets {
		if v != nil {
			outcome = append(outcome, v)
		}
	}
	if len(outcome) > 0 {
		t.emit(&ir.Havoc{Vars: outcome, Info: w.Info})
	}
	t.edge(join, &ir.Assume{Cond: ir.True, Info: w.Info})
}
