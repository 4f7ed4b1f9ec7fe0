package postgres

import (
	"errors"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/internal/rules"
)

// The Postgres dialect: queries are parsed by the real Postgres parser
// (pg_query) and the raw parse tree is mapped to sqlir.

// Parse parses one Postgres statement (see sqlparse.Parse).
func Parse(query string) (*rules.Result, error) { return parsePg(query, false) }

// parsePg parses query with the Postgres parser; sqlite selects the meaning
// of SQLite for the functions the two dialects spell alike (see sqlite.go).
func parsePg(query string, sqlite bool) (*rules.Result, error) {
	if i := strings.IndexByte(query, 0); i >= 0 {
		return nil, &rules.ParseError{Query: query, Offset: i, Msg: "NUL byte in query"}
	}
	tree, err := pg.Parse(query)
	if err != nil {
		return nil, pgParseError(query, err)
	}
	switch len(tree.Stmts) {
	case 0:
		return nil, errors.New("empty SQL query")
	case 1:
	default:
		off := pgSkipSpace(query, int(tree.Stmts[1].StmtLocation))
		return nil, &rules.ParseError{Query: query, Offset: min(off, len(query)), Msg: "more than one statement in one query"}
	}
	raw := tree.Stmts[0]
	t := &translator{query: query, version: tree.Version, sqlite: sqlite}
	st, err := t.statement(raw)
	if err != nil {
		return nil, err
	}
	return &rules.Result{Stmt: st, NumParams: pgMaxParam(raw)}, nil
}

// translator maps one pg_query statement to sqlir.
type translator struct {
	query   string
	version int32 // of the parse tree, for deparsing
	// sqlite is set for SQLite text parsed with the Postgres parser.
	sqlite bool
	// scope maps the table names and aliases of the statement's FROM items
	// to the table name ("" for derived tables and CTEs). Postgres folds
	// unquoted names to lower case while parsing, so lookups are exact.
	scope map[string]string
	// ctes holds the names of the statement's WITH queries.
	ctes map[string]bool
	// reads collects tables read by subqueries, derived tables and CTEs.
	reads []string
	// writeTarget is the table an UPDATE … FROM or DELETE … USING writes:
	// another FROM item over the same table keeps its alias as qualifier.
	writeTarget string
	// inConflict is set while translating ON CONFLICT DO UPDATE; excluded
	// maps lower-cased columns to the inserted values (nil: unknown).
	inConflict bool
	excluded   map[string]sqlir.Expr
}

// stmtText is the statement's own text, without the trailing ';'.
func (t *translator) stmtText(raw *pg.RawStmt) string {
	start := int(raw.StmtLocation)
	end := len(t.query)
	if raw.StmtLen > 0 && start+int(raw.StmtLen) <= len(t.query) {
		end = start + int(raw.StmtLen)
	}
	if start < 0 || start > end {
		start = 0
	}
	start = min(pgSkipSpace(t.query, start), end)
	return strings.TrimRight(strings.TrimSpace(t.query[start:end]), ";")
}

func (t *translator) unsupported(reason string, tables ...string) error {
	return &rules.UnsupportedError{Query: t.query, Reason: reason, Tables: tables}
}

func (t *translator) statement(raw *pg.RawStmt) (sqlir.Statement, error) {
	other := &sqlir.Other{Text: t.stmtText(raw)}
	switch s := raw.Stmt.GetNode().(type) {
	case *pg.Node_SelectStmt:
		if w, ok := returningCTE(s.SelectStmt); ok {
			// WITH x AS (UPDATE … RETURNING …) SELECT a FROM x (ctewrite.go).
			return t.statement(&pg.RawStmt{Stmt: w, StmtLocation: raw.StmtLocation, StmtLen: raw.StmtLen})
		}
		if err := t.noNestedWrites(s.SelectStmt); err != nil {
			return nil, err
		}
		if s.SelectStmt.IntoClause != nil {
			return other, nil // SELECT … INTO new_table
		}
		return t.selectStmt(s.SelectStmt), nil
	case *pg.Node_InsertStmt:
		if err := t.noNestedWrites(s.InsertStmt); err != nil {
			return nil, err
		}
		return t.insert(s.InsertStmt)
	case *pg.Node_UpdateStmt:
		if err := t.noNestedWrites(s.UpdateStmt); err != nil {
			return nil, err
		}
		return t.update(s.UpdateStmt), nil
	case *pg.Node_DeleteStmt:
		if err := t.noNestedWrites(s.DeleteStmt); err != nil {
			return nil, err
		}
		return t.delete(s.DeleteStmt), nil
	case *pg.Node_MergeStmt:
		return nil, t.unsupported("MERGE statement", s.MergeStmt.GetRelation().GetRelname())
	case *pg.Node_TransactionStmt:
		return t.transaction(s.TransactionStmt)
	case *pg.Node_CallStmt:
		return nil, t.unsupported("stored procedure call")
	case *pg.Node_DoStmt:
		return nil, t.unsupported("DO statement (anonymous code block)")
	case *pg.Node_ExecuteStmt:
		return nil, t.unsupported("prepared statement execution")
	case *pg.Node_CopyStmt:
		c := s.CopyStmt
		if c.IsFrom {
			return nil, t.unsupported("COPY FROM (bulk load)", c.GetRelation().GetRelname())
		}
		if tables, found := pgWritesIn(c.Query); found {
			return nil, t.unsupported("COPY of a data-modifying statement", tables...)
		}
		return other, nil
	case *pg.Node_TruncateStmt:
		return t.truncate(s.TruncateStmt)
	case *pg.Node_ExplainStmt:
		if pgExplainAnalyze(s.ExplainStmt) {
			if tables, found := pgWritesIn(s.ExplainStmt.Query); found {
				return nil, t.unsupported("EXPLAIN ANALYZE runs a data-modifying statement", tables...)
			}
		}
		return other, nil
	case *pg.Node_CreateTableAsStmt:
		if tables, found := pgWritesIn(s.CreateTableAsStmt.Query); found {
			return nil, t.unsupported("CREATE TABLE AS of a data-modifying statement", tables...)
		}
		return other, nil
	}
	// DDL, SET, SHOW, LOCK, PREPARE, LISTEN/NOTIFY, VACUUM, …
	return other, nil
}

// pgWriteTarget reports whether x is an INSERT, UPDATE, DELETE or MERGE
// statement, and the table it writes.
func pgWriteTarget(x proto.Message) (string, bool) {
	var rel *pg.RangeVar
	switch s := x.(type) {
	case *pg.InsertStmt:
		rel = s.Relation
	case *pg.UpdateStmt:
		rel = s.Relation
	case *pg.DeleteStmt:
		rel = s.Relation
	case *pg.MergeStmt:
		rel = s.Relation
	default:
		return "", false
	}
	return rel.GetRelname(), true
}

// pgWrites returns the tables written by data-modifying statements in the
// messages visit reaches; found reports whether there is any.
func pgWrites(visit func(func(proto.Message) bool)) (tables []string, found bool) {
	visit(func(x proto.Message) bool {
		if name, ok := pgWriteTarget(x); ok {
			found = true
			if name != "" && !rules.ContainsFold(tables, name) {
				tables = append(tables, name)
			}
		}
		return true
	})
	return tables, found
}

// pgWritesIn is pgWrites for m and everything below it.
func pgWritesIn(m proto.Message) ([]string, bool) {
	return pgWrites(func(f func(proto.Message) bool) { pgVisit(m, f) })
}

// noNestedWrites rejects data-modifying statements inside s (in WITH).
func (t *translator) noNestedWrites(s proto.Message) error {
	tables, found := pgWrites(func(f func(proto.Message) bool) { pgVisitChildren(s.ProtoReflect(), f) })
	if found {
		return t.unsupported("data-modifying statement in WITH", tables...)
	}
	return nil
}

func pgExplainAnalyze(e *pg.ExplainStmt) bool {
	for _, o := range e.Options {
		d := o.GetDefElem()
		if d == nil || !strings.EqualFold(d.Defname, "analyze") {
			continue
		}
		if d.Arg == nil {
			return true
		}
		switch v := d.Arg.Node.(type) {
		case *pg.Node_Boolean:
			return v.Boolean.Boolval
		case *pg.Node_String_:
			switch strings.ToLower(v.String_.Sval) {
			case "false", "off", "no", "0":
				return false
			}
			return true
		case *pg.Node_Integer:
			return v.Integer.Ival != 0
		}
		return true
	}
	return false
}

func (t *translator) transaction(s *pg.TransactionStmt) (sqlir.Statement, error) {
	switch s.Kind {
	case pg.TransactionStmtKind_TRANS_STMT_BEGIN, pg.TransactionStmtKind_TRANS_STMT_START:
		return &sqlir.TxControl{Kind: sqlir.TxBegin}, nil
	case pg.TransactionStmtKind_TRANS_STMT_COMMIT:
		if s.Chain {
			return nil, t.unsupported("COMMIT AND CHAIN (a new transaction starts at once)")
		}
		return &sqlir.TxControl{Kind: sqlir.TxCommit}, nil
	case pg.TransactionStmtKind_TRANS_STMT_ROLLBACK:
		if s.Chain {
			return nil, t.unsupported("ROLLBACK AND CHAIN (a new transaction starts at once)")
		}
		return &sqlir.TxControl{Kind: sqlir.TxRollback}, nil
	case pg.TransactionStmtKind_TRANS_STMT_SAVEPOINT:
		return &sqlir.TxControl{Kind: sqlir.TxSavepoint, Name: s.SavepointName}, nil
	case pg.TransactionStmtKind_TRANS_STMT_RELEASE:
		return &sqlir.TxControl{Kind: sqlir.TxRelease, Name: s.SavepointName}, nil
	case pg.TransactionStmtKind_TRANS_STMT_ROLLBACK_TO:
		return &sqlir.TxControl{Kind: sqlir.TxRollbackTo, Name: s.SavepointName}, nil
	}
	return nil, t.unsupported("two-phase commit (PREPARE TRANSACTION, COMMIT/ROLLBACK PREPARED)")
}

// truncate maps "TRUNCATE t" to a DELETE of every row of t: exactly what
// it does to the rows (it cannot break a row-level constraint). Several
// tables or CASCADE (which empties referencing tables too) cannot be one
// sqlir.Delete and are unsupported.
func (t *translator) truncate(s *pg.TruncateStmt) (sqlir.Statement, error) {
	var names []string
	for _, r := range s.Relations {
		if rv := r.GetRangeVar(); rv != nil {
			names = append(names, rv.Relname)
		}
	}
	switch {
	case len(names) != 1 || len(s.Relations) != 1:
		return nil, t.unsupported("TRUNCATE of several tables ("+strings.Join(names, ", ")+")", names...)
	case s.Behavior == pg.DropBehavior_DROP_CASCADE:
		return nil, t.unsupported("TRUNCATE … CASCADE (also empties referencing tables)", names...)
	}
	return &sqlir.Delete{Table: names[0]}, nil
}

// ---- FROM ------------------------------------------------------------------

type pgFrom struct {
	tables  []string // base tables in order of appearance, as written
	joins   bool
	derived bool // a subquery or CTE in FROM
	funcs   bool // a set-returning function in FROM
	// innerOn holds ON conditions of inner joins (they filter every side).
	innerOn []*pg.Node
}

func (t *translator) from(items []*pg.Node) *pgFrom {
	fi := &pgFrom{joins: len(items) > 1}
	for _, n := range items {
		t.fromItem(n, fi)
	}
	return fi
}

func (t *translator) fromItem(n *pg.Node, fi *pgFrom) {
	alias := func(a *pg.Alias, table string) {
		if a != nil && a.Aliasname != "" {
			t.scope[a.Aliasname] = table
		}
	}
	switch x := n.GetNode().(type) {
	case *pg.Node_RangeVar:
		rv := x.RangeVar
		name := rv.Relname
		if rv.Schemaname == "" && t.ctes[name] {
			fi.derived = true
			if rv.Alias == nil {
				t.scope[name] = ""
			}
			alias(rv.Alias, "")
			return
		}
		fi.tables = append(fi.tables, name)
		if t.writeTarget != "" && name == t.writeTarget {
			// Another instance of the written table: its columns are not
			// the written row's; keep its alias as the qualifier.
			if rv.Alias != nil {
				alias(rv.Alias, rv.Alias.Aliasname)
			}
			return
		}
		t.scope[name] = name
		alias(rv.Alias, name)
	case *pg.Node_JoinExpr:
		j := x.JoinExpr
		fi.joins = true
		t.fromItem(j.Larg, fi)
		t.fromItem(j.Rarg, fi)
		if j.Quals != nil {
			t.collectReads(j.Quals)
			if j.Jointype == pg.JoinType_JOIN_INNER {
				fi.innerOn = append(fi.innerOn, j.Quals)
			}
		}
		alias(j.Alias, "")
	case *pg.Node_RangeSubselect:
		fi.derived = true
		t.collectReads(x.RangeSubselect.Subquery)
		alias(x.RangeSubselect.Alias, "")
	case *pg.Node_RangeFunction:
		fi.funcs = true
		t.collectReads(n)
		alias(x.RangeFunction.Alias, "")
	default:
		fi.derived = true
		t.collectReads(n)
	}
}

// collectReads records the base tables read anywhere inside m (WITH query
// names are not tables).
func (t *translator) collectReads(m proto.Message) {
	if m == nil {
		return
	}
	local := map[string]bool{}
	pgVisit(m, func(x proto.Message) bool {
		if c, ok := x.(*pg.CommonTableExpr); ok {
			local[c.Ctename] = true
		}
		return true
	})
	pgVisit(m, func(x proto.Message) bool {
		rv, ok := x.(*pg.RangeVar)
		if !ok {
			return true
		}
		k := rv.Relname
		if rv.Schemaname == "" && (t.ctes[k] || local[k]) {
			return true
		}
		t.reads = append(t.reads, rv.Relname)
		return true
	})
}

// with registers the names of WITH queries and records what they read.
func (t *translator) with(w *pg.WithClause) {
	if w == nil {
		return
	}
	if t.ctes == nil {
		t.ctes = map[string]bool{}
	}
	for _, c := range w.Ctes {
		if cte := c.GetCommonTableExpr(); cte != nil {
			t.ctes[cte.Ctename] = true
		}
	}
	for _, c := range w.Ctes {
		if cte := c.GetCommonTableExpr(); cte != nil {
			t.collectReads(cte.Ctequery)
		}
	}
}

// resolve maps a table qualifier (alias or name) to the table name.
func (t *translator) resolve(q string) string {
	if q == "" {
		return ""
	}
	if real, ok := t.scope[q]; ok && real != "" {
		return real
	}
	return q
}
