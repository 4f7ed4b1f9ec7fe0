package frontend

import (
	"fmt"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// A joined UPDATE whose join follows a column of the updated row:
//
//	UPDATE accounts a JOIN plans p ON p.id = a.plan_id
//	SET a.credits = a.credits - p.cost
//	WHERE a.id = ? AND a.credits >= p.cost
//
// Its conditions pin no key of plans to a value, so joinedRead had no row
// to read ("joined with plans … not modelled", UNKNOWN; adv19 fiberplans
// renew, SAFE in truth). When they equate every column of a key of the
// joined table with a column of the target (at most one joined row per
// target row) and pin a key of the target to placeholders or literals (at
// most one target row), the statement changes at most one row, joined
// with at most one row: the one whose key is that target row's columns.
// The model reads the target row's linking columns first (as a SELECT of
// the target by its pinned key), then the joined row by those values (as
// joinedRead reads a pinned row), and runs the UPDATE with the joined
// row's values where both were found. The link's columns must be NOT NULL
// on the target (a NULL joins no row, a value read for it would join one)
// and not text (a collation may equate different strings).

// keyLink is how a joined UPDATE's join follows the target row: the
// joined table's key columns (lower case) and, for each, the target
// column it equals; pinned, the target's conditions that pin its key.
type keyLink struct {
	joinedCols []string
	targetCols []string
	pinned     sqlir.Expr
	// err is set by readLink to whether the target row was not read.
	err *ir.Var
}

// linkedKey returns how u's join follows the target row (see above), or
// nil when it does not.
func (t *translator) linkedKey(u *sqlir.Update, jt *sqlir.Table) *keyLink {
	j := u.Join
	tt := t.l.cfg.Schema.Tables[strings.ToLower(u.Table)]
	if j.Alias != "" || tt == nil {
		return nil
	}
	links := map[string]string{}
	var pinned sqlir.Expr
	for _, c := range conjuncts(j.TargetWhere) {
		if jc, tc, ok := columnLink(c, j.Table, u.Table); ok {
			links[jc] = tc
			continue
		}
		if ownColumnsOnly(c, u.Table) {
			pinned = andExpr(pinned, c)
		}
	}
	if pinned == nil || !pinsKey(tt, u.Table, pinned) {
		return nil
	}
	for _, k := range jt.Keys {
		l := &keyLink{pinned: pinned}
		for _, c := range k {
			tc, ok := links[strings.ToLower(c)]
			if !ok || !linkable(jt, c) || !linkable(tt, tc) || !notNull(tt, tc) || columnSort(jt, c) != columnSort(tt, tc) {
				l = nil
				break
			}
			l.joinedCols = append(l.joinedCols, strings.ToLower(c))
			l.targetCols = append(l.targetCols, tc)
		}
		if l != nil && len(l.joinedCols) > 0 {
			return l
		}
	}
	return nil
}

// readLink emits the read of the target row's linking columns and returns
// the joined row's condition where (with the joined key equal to the
// values read, placeholders after args), the arguments it reads, and the
// condition under which the target read failed with a server error.
func (t *translator) readLink(u *sqlir.Update, l *keyLink, where sqlir.Expr, args []ir.Expr, tx ir.Tx, info ir.Info) (sqlir.Expr, []ir.Expr, ir.Expr) {
	tt := t.l.cfg.Schema.Tables[strings.ToLower(u.Table)]
	sel := &sqlir.Select{Table: u.Table, Where: l.pinned}
	out := append([]ir.Expr(nil), args...)
	var targets []*ir.Var
	for i, tc := range l.targetCols {
		sel.Columns = append(sel.Columns, sqlir.SelectItem{Expr: &sqlir.ColRef{Table: u.Table, Name: tc}})
		v := t.p.NewVar("linked."+tc, columnSort(tt, tc), ir.Local)
		targets = append(targets, v)
		where = andExpr(where, &sqlir.Binary{Op: sqlir.OpEq, X: &sqlir.ColRef{Table: u.Join.Table, Name: l.joinedCols[i]}, Y: &sqlir.Param{Index: len(out)}})
		out = append(out, v)
	}
	l.err = t.p.NewVar("linkedErr", ir.Bool, ir.Local)
	noRow := t.p.NewVar("linkedNoRow", ir.Bool, ir.Local)
	read := info
	read.Text = fmt.Sprintf("%s (its row of %s, which the join follows)", info.Text, u.Table)
	t.emit(&ir.Select{SQL: sel, Args: args, Tx: tx, Targets: targets, Err: l.err, NoRow: noRow, Info: read})
	return where, out, ir.And(l.err, ir.Not(noRow))
}

// columnLink reports whether c is `joined.k = target.c` (either way
// round), and the two columns, lower case.
func columnLink(c sqlir.Expr, joined, target string) (string, string, bool) {
	b, ok := c.(*sqlir.Binary)
	if !ok || b.Op != sqlir.OpEq {
		return "", "", false
	}
	for _, p := range [][2]sqlir.Expr{{b.X, b.Y}, {b.Y, b.X}} {
		jc, ok1 := p[0].(*sqlir.ColRef)
		tc, ok2 := p[1].(*sqlir.ColRef)
		if ok1 && ok2 && strings.EqualFold(jc.Table, joined) && strings.EqualFold(tc.Table, target) {
			return strings.ToLower(jc.Name), strings.ToLower(tc.Name), true
		}
	}
	return "", "", false
}

// conjuncts splits e at its ANDs.
func conjuncts(e sqlir.Expr) []sqlir.Expr {
	if b, ok := e.(*sqlir.Binary); ok && b.Op == sqlir.OpAnd {
		return append(conjuncts(b.X), conjuncts(b.Y)...)
	}
	if e == nil {
		return nil
	}
	return []sqlir.Expr{e}
}

// ownColumnsOnly reports whether every column e reads is qualified with
// table, and e holds nothing the parser could not read.
func ownColumnsOnly(e sqlir.Expr, table string) bool {
	own := true
	sqlir.Rewrite(e, func(x sqlir.Expr) (sqlir.Expr, bool) {
		switch x := x.(type) {
		case *sqlir.ColRef:
			own = own && strings.EqualFold(x.Table, table)
		case *sqlir.Unknown:
			own = false
		}
		return nil, false
	})
	return own
}

// andExpr is a AND b, where a nil operand is true.
func andExpr(a, b sqlir.Expr) sqlir.Expr {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	return &sqlir.Binary{Op: sqlir.OpAnd, X: a, Y: b}
}

// linkable reports whether t declares col with a type whose equality the
// model's is: not text.
func linkable(t *sqlir.Table, col string) bool {
	return hasColumn(t, col) && !isTextColumn(t, col)
}

// notNull reports whether t declares col NOT NULL (SQLite lets a key
// other than an INTEGER PRIMARY KEY hold NULL: a key is not enough).
func notNull(t *sqlir.Table, col string) bool {
	for _, c := range t.Columns {
		if strings.EqualFold(c.Name, col) && c.NotNull {
			return true
		}
	}
	return false
}
