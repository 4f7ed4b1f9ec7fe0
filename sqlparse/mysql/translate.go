package mysql

import (
	"strings"

	"github.com/xwb1989/sqlparser"

	"github.com/dbverify/dbverify/sqlir"
)

// translator maps one sqlparser statement to sqlir.
type translator struct {
	params map[string]int // sqlparser argument text → parameter index
	// scope maps lower-cased table names and aliases of the current FROM
	// clause to the table name as written ("" for derived tables).
	scope map[string]string
	// reads collects tables read by subqueries and derived tables.
	reads []string
	// insertRow maps lower-cased column names to the inserted values, for
	// VALUES(col) in ON DUPLICATE KEY UPDATE of a one-row INSERT.
	insertRow map[string]sqlir.Expr
	inOnDup   bool
}

func (t *translator) statement(ast sqlparser.Statement, query string) (sqlir.Statement, error) {
	switch s := ast.(type) {
	case sqlparser.SelectStatement:
		return t.selectStmt(s), nil
	case *sqlparser.Update:
		return t.update(s, query)
	case *sqlparser.Insert:
		return t.insert(s, query)
	case *sqlparser.Delete:
		return t.delete(s, query)
	case *sqlparser.Begin:
		return &sqlir.TxControl{Kind: sqlir.TxBegin}, nil
	case *sqlparser.Commit:
		return &sqlir.TxControl{Kind: sqlir.TxCommit}, nil
	case *sqlparser.Rollback:
		return &sqlir.TxControl{Kind: sqlir.TxRollback}, nil
	}
	return &sqlir.Other{Text: strings.TrimSpace(query)}, nil
}

// ---- FROM clauses -------------------------------------------------------

type fromInfo struct {
	tables  []string // base tables in order of appearance, as written
	joins   bool
	derived bool
	// innerOn holds ON conditions of inner joins (they filter every side).
	innerOn []sqlparser.Expr
}

func (t *translator) from(exprs sqlparser.TableExprs) *fromInfo {
	t.scope = map[string]string{}
	fi := &fromInfo{}
	if len(exprs) > 1 {
		fi.joins = true
	}
	for _, te := range exprs {
		t.tableExpr(te, fi)
	}
	return fi
}

func (t *translator) tableExpr(te sqlparser.TableExpr, fi *fromInfo) {
	switch x := te.(type) {
	case *sqlparser.AliasedTableExpr:
		switch e := x.Expr.(type) {
		case sqlparser.TableName:
			name := e.Name.String()
			if strings.EqualFold(name, "dual") && e.Qualifier.IsEmpty() {
				return
			}
			fi.tables = append(fi.tables, name)
			t.scope[strings.ToLower(name)] = name
			if !x.As.IsEmpty() {
				t.scope[strings.ToLower(x.As.String())] = name
			}
		case *sqlparser.Subquery:
			fi.derived = true
			t.collectReads(e)
			if !x.As.IsEmpty() {
				t.scope[strings.ToLower(x.As.String())] = ""
			}
		}
	case *sqlparser.JoinTableExpr:
		fi.joins = true
		t.tableExpr(x.LeftExpr, fi)
		t.tableExpr(x.RightExpr, fi)
		if x.Condition.On != nil {
			t.collectReads(x.Condition.On)
			if x.Join == sqlparser.JoinStr || x.Join == sqlparser.StraightJoinStr {
				fi.innerOn = append(fi.innerOn, x.Condition.On)
			}
		}
	case *sqlparser.ParenTableExpr:
		for _, e := range x.Exprs {
			t.tableExpr(e, fi)
		}
	}
}

// collectReads records the base tables read anywhere inside n.
func (t *translator) collectReads(n sqlparser.SQLNode) {
	_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
		if a, ok := node.(*sqlparser.AliasedTableExpr); ok {
			if tn, ok := a.Expr.(sqlparser.TableName); ok {
				name := tn.Name.String()
				if !(strings.EqualFold(name, "dual") && tn.Qualifier.IsEmpty()) {
					t.reads = append(t.reads, name)
				}
			}
		}
		return true, nil
	}, n)
}

// resolve maps a table qualifier (alias or name) to the table name.
func (t *translator) resolve(q string) string {
	if q == "" {
		return ""
	}
	if real, ok := t.scope[strings.ToLower(q)]; ok && real != "" {
		return real
	}
	return q
}
