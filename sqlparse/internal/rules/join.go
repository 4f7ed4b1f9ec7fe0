package rules

import (
	"strings"

	"github.com/dbverify/dbverify/sqlir"
)

// The rules of a write that joins other tables (MySQL's multi-table UPDATE
// and DELETE, Postgres's UPDATE … FROM and DELETE … USING): only the
// target's own columns keep their meaning.

// Conjunct is one conjunct of such a write's WHERE (or of an inner join's
// ON condition): its translation and its text as written.
type Conjunct struct {
	Expr sqlir.Expr
	Text string
}

// JoinFilter builds the Where of a write on target that joins the tables
// others: the conjuncts that only read target's columns, and one Unknown
// conjunct for the rest ("some joined row matches"), so the row model may
// or may not touch each row that satisfies the known part.
func JoinFilter(target string, conj []Conjunct, others []string) sqlir.Expr {
	var kept sqlir.Expr
	var rest []string
	var restParams []int
	for _, c := range conj {
		own := true
		Visit(c.Expr, func(x sqlir.Expr) {
			if cr, ok := x.(*sqlir.ColRef); ok && !strings.EqualFold(cr.Table, target) {
				own = false
			}
		})
		if own {
			kept = And(kept, c.Expr)
			continue
		}
		rest = append(rest, c.Text)
		restParams = append(restParams, ParamsOf(c.Expr)...)
	}
	text := "joined with " + strings.Join(others, ", ")
	if len(rest) > 0 {
		text += " where " + strings.Join(rest, " and ")
	}
	return And(kept, &sqlir.Unknown{Text: text, Params: dedupeInts(restParams)})
}

// OwnColumnsOnly replaces column references that are not qualified with
// target (they may belong to a joined table) by Unknown.
func OwnColumnsOnly(e sqlir.Expr, target string) sqlir.Expr {
	return Map(e, func(x sqlir.Expr) sqlir.Expr {
		if c, ok := x.(*sqlir.ColRef); ok && !strings.EqualFold(c.Table, target) {
			return &sqlir.Unknown{Text: Format(c)}
		}
		return x
	})
}

// OwnItemsOnly applies OwnColumnsOnly to RETURNING items of a joined
// write; a bare "*" (every joined table's columns) becomes one Unknown item.
func OwnItemsOnly(items []sqlir.SelectItem, target string) []sqlir.SelectItem {
	for i := range items {
		it := &items[i]
		if it.Star {
			if it.Expr.(*sqlir.ColRef).Table == "" {
				it.Expr = &sqlir.Unknown{Text: "*"} // every table's columns
				it.Star = false
			}
			continue
		}
		it.Expr = OwnColumnsOnly(it.Expr, target)
	}
	return items
}

// SetOperation combines the SELECTs of a UNION/INTERSECT/EXCEPT (reason)
// into one Complex select: the first branch's columns, a lock if any
// branch locks, and the tables of every branch (returned separately, for
// the adapter to add its own).
func SetOperation(reason string, leaves []*sqlir.Select) (*sqlir.Select, [][]string) {
	out := &sqlir.Select{Complex: true, Reason: reason}
	var all [][]string
	for i, l := range leaves {
		if i == 0 {
			out.Columns = l.Columns
		}
		all = append(all, l.Tables())
		out.ForUpdate = out.ForUpdate || l.ForUpdate
		out.ForShare = out.ForShare || l.ForShare
	}
	return out, all
}

// JoinedUpdate builds the exact form of an UPDATE of target joined with
// the one other table joined (see sqlir.JoinedUpdate) from its SET and
// the conjuncts of its WHERE and inner ON conditions, as translated (with
// the joined table's columns): a conjunct whose columns are all
// qualified with joined, and which has one, filters the joined row.
func JoinedUpdate(joined string, set []sqlir.Assignment, conj []Conjunct) *sqlir.JoinedUpdate {
	out := &sqlir.JoinedUpdate{Table: joined}
	for _, a := range set {
		out.Set = append(out.Set, sqlir.Assignment{Col: a.Col, Value: Clone(a.Value)})
	}
	for _, c := range conj {
		cols, own := 0, true
		Visit(c.Expr, func(x sqlir.Expr) {
			switch x := x.(type) {
			case *sqlir.ColRef:
				cols++
				own = own && strings.EqualFold(x.Table, joined)
			case *sqlir.Unknown:
				own = false // it may read the target's columns
			}
		})
		if own && cols > 0 {
			out.Where = And(out.Where, Clone(c.Expr))
		} else {
			out.TargetWhere = And(out.TargetWhere, Clone(c.Expr))
		}
	}
	return out
}
