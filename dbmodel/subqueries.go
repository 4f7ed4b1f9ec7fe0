package dbmodel

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// A scalar subquery the model does not evaluate, (SELECT amount FROM
// holds WHERE id = $1), is an arbitrary value marked as an approximation
// (unknownValue). Written twice in one statement, as a guard and as the
// amount taken,
//
//	UPDATE wallets SET available = available - (SELECT amount FROM holds WHERE id = $1)
//	WHERE id = $2 AND available >= (SELECT amount FROM holds WHERE id = $1)
//
// the two were two independent values, and the guard proved nothing
// (adv18 returning PlaceHold: UNKNOWN, truth SAFE). Within one execution
// of a statement, on one row, the same subquery has one value: the
// engines evaluate it on the statement's snapshot (PostgreSQL, MySQL),
// and SQLite on the database before the row's change. So the occurrences
// of one text, with the same values bound to its placeholders, share
// their value and their NULL-ness, still marked as
// approximations, only where that holds for sure: a subquery that reads
// neither the statement's own table (SQLite reads its earlier rows'
// changes) nor calls a function (random(), nextval(): volatile) nor
// picks rows by LIMIT/OFFSET/FETCH (two plans may pick different rows),
// outside --concurrent (PostgreSQL re-checks an UPDATE's WHERE on a row
// another transaction changed).

// sharedSubquery is the value and NULL-ness of the occurrences of one
// subquery text on one row in the statement being lowered.
type sharedSubquery struct {
	val, null *ir.Var
}

// subqueryKey identifies the occurrences of one subquery on one row: its
// text with the values bound to its placeholders (boundText).
type subqueryKey struct {
	text string
	row  *symbol
}

var (
	subqueryStart   = regexp.MustCompile(`(?is)^\(\s*select\s`)
	subqueryPicking = regexp.MustCompile(`(?i)\b(limit|offset|fetch|tablesample)\b`)
	placeholder     = regexp.MustCompile(`\$[0-9]+`)
)

// shareableSubquery reports whether Unknown u is a scalar subquery whose
// occurrences in statement q share one value per row (see above).
func (m *lowerer) shareableSubquery(u *sqlir.Unknown, q sqlir.Statement) bool {
	text := strings.TrimSpace(u.Text)
	if m.opt.Concurrency != nil || !subqueryStart.MatchString(text) || strings.Count(text, "(") != 1 ||
		subqueryPicking.MatchString(text) {
		return false
	}
	own := writtenTable(q)
	if own == "" {
		if s, ok := q.(*sqlir.Select); ok {
			own = s.Table
		}
	}
	if own == "" {
		return false
	}
	mentions := regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(own) + `\b`)
	return !mentions.MatchString(text)
}

// subquery returns the shared value and NULL-ness of Unknown e on row x
// in the statement being lowered (nil when e is not shareable). Their
// variables are havocked on the edge that starts the statement
// (beginStatement), not with the statement's other fresh values: code
// that evaluates an expression tentatively and drops the fresh values it
// made (exactly, saved m.fresh) would drop them too, and a later
// occurrence would read a value never havocked.
func (m *lowerer) subquery(e sqlir.Expr, x *symbol, args []ir.Expr) *sharedSubquery {
	u, ok := e.(*sqlir.Unknown)
	if !ok || m.stmtSQL == nil || !m.shareableSubquery(u, m.stmtSQL) {
		return nil
	}
	k := subqueryKey{text: boundText(u.Text, args), row: x}
	if sq, ok := m.subqueries[k]; ok {
		return sq
	}
	if m.subqueries == nil {
		m.subqueries = map[subqueryKey]*sharedSubquery{}
	}
	why := func(what string) string {
		if pos := m.at.Position(); pos != "" {
			what += " at " + pos
		}
		return what + ", not modelled"
	}
	sq := &sharedSubquery{
		val:  m.p.NewVar("$unknown", ir.Int, ir.Ghost),
		null: m.p.NewVar("$isnull", ir.Bool, ir.Ghost),
	}
	sq.val.Approx = why("the SQL expression " + compactText(u.Text))
	sq.null.Approx = why("whether the SQL expression " + compactText(u.Text) + " is NULL")
	m.subqueries[k] = sq
	m.subqueryVars = append(m.subqueryVars, sq.val, sq.null)
	return sq
}

// hasShareableSubquery reports whether statement q holds a subquery whose
// occurrences may share a value.
func (m *lowerer) hasShareableSubquery(q sqlir.Statement) bool {
	found := false
	sqlir.RewriteStatement(q, func(x sqlir.Expr) (sqlir.Expr, bool) {
		if u, ok := x.(*sqlir.Unknown); ok && m.shareableSubquery(u, q) {
			found = true
		}
		return nil, false
	})
	return found
}

// beginStatement starts the lowering of e, a statement with SQL q: no
// subquery value is shared with an earlier statement (or an earlier run
// of this one). When q holds a shareable subquery, the statement is
// lowered from a new location, and end adds the edge into it that
// havocs the shared values the lowering made.
func (m *lowerer) beginStatement(e *ir.Edge, q sqlir.Statement) (_ *ir.Edge, end func()) {
	m.stmtSQL, m.subqueries, m.subqueryVars = q, nil, nil
	if !m.hasShareableSubquery(q) {
		return e, func() { m.stmtSQL = nil }
	}
	from := e.From
	start := m.p.NewLoc()
	out := *e
	out.From = start
	info := m.at
	info.Kind = ir.KindModel
	return &out, func() {
		m.p.AddEdge(from, start, &ir.Havoc{Vars: m.subqueryVars, Info: info})
		m.stmtSQL, m.subqueries, m.subqueryVars = nil, nil, nil
	}
}

// boundText is text with each placeholder $n (as both parsers write
// them: $n is argument n-1) replaced by what identifies the value bound to
// it: the same variable or constant, else the placeholder. MySQL's `?` in
// two occurrences of one subquery are two placeholders ($1, $3), one
// value when the program binds one variable to both (holdID, wallet,
// holdID).
func boundText(text string, args []ir.Expr) string {
	text = strings.Join(strings.Fields(text), " ")
	return placeholder.ReplaceAllStringFunc(text, func(ph string) string {
		n, err := strconv.Atoi(ph[1:])
		if err != nil || n < 1 || n > len(args) {
			return ph
		}
		switch a := args[n-1].(type) {
		case *ir.Var:
			return fmt.Sprintf("{var %p}", a)
		case *ir.IntConst:
			return fmt.Sprintf("{const %s}", a.V)
		}
		return ph
	})
}
