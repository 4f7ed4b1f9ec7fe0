package postgres

import (
	"errors"
	"fmt"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/internal/rules"
)

// pgConstraintPrefix turns a condition into a query pg_query accepts; error
// offsets are shifted back by its length.
const pgConstraintPrefix = "SELECT 1 WHERE "

// parsePgConstraint is ParseConstraint with the Postgres grammar: the
// schema loader uses it for CHECK bodies the MySQL grammar rejects
// (regular expression operators, Postgres casts and functions, …).
// Syntax errors wrap a *sqlparse.ParseError whose Query is text.
func ParseConstraint(text, defaultTable string) (c *sqlir.Constraint, err error) {
	defer rules.Recover(&err)
	if strings.TrimSpace(text) == "" {
		return nil, errors.New("constraint is empty")
	}
	if i := strings.IndexByte(text, 0); i >= 0 {
		return nil, fmt.Errorf("constraint %q: %w", text, &rules.ParseError{Query: text, Offset: i, Msg: "NUL byte in constraint"})
	}
	q := pgConstraintPrefix + text
	tree, perr := pg.Parse(q)
	if perr != nil {
		e := pgParseError(q, perr)
		var pe *rules.ParseError
		if errors.As(e, &pe) {
			pe.Query = text
			pe.Offset = max(0, pe.Offset-len(pgConstraintPrefix))
		}
		return nil, fmt.Errorf("constraint %q: %w", text, e)
	}
	if len(tree.Stmts) != 1 {
		return nil, fmt.Errorf("constraint %q: ';' ends the condition early", text)
	}
	sel := tree.Stmts[0].Stmt.GetSelectStmt()
	if sel == nil || sel.WhereClause == nil || len(sel.TargetList) != 1 || len(sel.FromClause) > 0 ||
		len(sel.GroupClause) > 0 || sel.HavingClause != nil || len(sel.SortClause) > 0 ||
		sel.LimitCount != nil || sel.LimitOffset != nil || len(sel.LockingClause) > 0 ||
		sel.WithClause != nil || sel.IntoClause != nil || len(sel.DistinctClause) > 0 ||
		len(sel.WindowClause) > 0 || sel.Op != pg.SetOperation_SETOP_NONE {
		return nil, fmt.Errorf("constraint %q is not a single condition", text)
	}
	where := sel.WhereClause
	if err := checkPgConstraintAST(where); err != nil {
		return nil, fmt.Errorf("constraint %q: %w", text, err)
	}

	var quals []string
	pgVisit(where, func(x proto.Message) bool {
		if cr, ok := x.(*pg.ColumnRef); ok && len(cr.Fields) >= 2 {
			quals = append(quals, cr.Fields[len(cr.Fields)-2].GetString_().GetSval())
		}
		return true
	})
	table, err := rules.ConstraintTable(text, quals, defaultTable)
	if err != nil {
		return nil, err
	}
	t := &translator{query: q, version: tree.Version, scope: map[string]string{}}
	c, err = rules.NewConstraint(text, table, t.expr(where))
	if err != nil {
		return nil, err
	}
	c.Casts = constraintCasts(where)
	return c, nil
}

// castCategories names the cast type categories (sqlir.ColumnCast.Type).
var castCategories = map[int]string{catOther: "other", catInt: "integer", catExact: "numeric", catFloat: "float",
	catText: "text", catBool: "boolean", catUser: "user"}

// constraintCasts lists the casts of where (a constraint's condition
// inside pgConstraintPrefix); a cast with a length or precision is
// "other" (it may change the value).
func constraintCasts(where *pg.Node) []sqlir.ColumnCast {
	var out []sqlir.ColumnCast
	pgVisit(where, func(x proto.Message) bool {
		tc, ok := x.(*pg.TypeCast)
		if !ok {
			return true
		}
		if _, isConst := tc.Arg.GetNode().(*pg.Node_AConst); isConst {
			return true // converted exactly or Unknown (castConst)
		}
		cat, typmod := pgTypeCategory(tc.TypeName)
		if typmod {
			cat = catOther
		}
		c := sqlir.ColumnCast{Type: castCategories[cat], Offset: max(0, int(tc.Location)-len(pgConstraintPrefix))}
		if cr := tc.Arg.GetColumnRef(); cr != nil && len(cr.Fields) > 0 {
			c.Column = strings.ToLower(cr.Fields[len(cr.Fields)-1].GetString_().GetSval())
		}
		out = append(out, c)
		return true
	})
	return out
}

// checkPgConstraintAST rejects placeholders, subqueries, aggregates and
// window functions.
func checkPgConstraintAST(where *pg.Node) error {
	var err error
	pgVisit(where, func(x proto.Message) bool {
		if err != nil {
			return false
		}
		switch n := x.(type) {
		case *pg.ParamRef:
			err = errors.New("placeholders ($n) are not allowed in a constraint")
		case *pg.SubLink:
			err = rules.NotOneRow("subqueries are not allowed in a constraint (it must be over one row)")
		case *pg.SetToDefault:
			err = errors.New("DEFAULT is not allowed in a constraint")
		case *pg.FuncCall:
			name, _ := pgName(n.Funcname)
			switch {
			case n.Over != nil:
				err = fmt.Errorf("window function %s is not allowed in a constraint", strings.ToUpper(name))
			case isPgAggregate(name) || n.AggStar || n.AggDistinct || n.AggFilter != nil || len(n.AggOrder) > 0 || n.AggWithinGroup:
				err = rules.NotOneRow(fmt.Sprintf("aggregate %s is not allowed in a constraint (it must be over one row)", strings.ToUpper(name)))
			}
		case *pg.ColumnRef:
			for _, f := range n.Fields {
				if f.GetAStar() != nil {
					err = errors.New("* is not allowed in a constraint")
				}
			}
		}
		return err == nil
	})
	return err
}
