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
		return t.transaction(s.TransactionStmt, other)
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

func (t *translator) transaction(s *pg.TransactionStmt, other *sqlir.Other) (sqlir.Statement, error) {
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
	case pg.TransactionStmtKind_TRANS_STMT_SAVEPOINT, pg.TransactionStmtKind_TRANS_STMT_RELEASE:
		return other, nil
	case pg.TransactionStmtKind_TRANS_STMT_ROLLBACK_TO:
		return nil, t.unsupported("ROLLBACK TO SAVEPOINT (partial rollback)")
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

// ---- SELECT ------------------------------------------------------------------

func (t *translator) selectStmt(s *pg.SelectStmt) *sqlir.Select {
	t.reads = nil
	t.with(s.WithClause)
	cteReads := t.reads
	var out *sqlir.Select
	if s.Op != pg.SetOperation_SETOP_NONE && s.Op != pg.SetOperation_SET_OPERATION_UNDEFINED {
		out = t.setOperation(s)
	} else {
		out = t.simpleSelect(s)
	}
	if s.WithClause != nil {
		out.AllTables = rules.DedupeFold(out.Tables(), cteReads)
		out.Complex = true
		if out.Reason == "" {
			out.Reason = "WITH"
		} else {
			out.Reason = "WITH, " + out.Reason
		}
		out.Table = ""
		if out.AllTables == nil {
			out.AllTables = []string{}
		}
	}
	return out
}

func (t *translator) setOperation(s *pg.SelectStmt) *sqlir.Select {
	var leaves []*sqlir.Select
	var walk func(x *pg.SelectStmt)
	walk = func(x *pg.SelectStmt) {
		if x == nil {
			return
		}
		if x.Op == pg.SetOperation_SETOP_NONE || x.Op == pg.SetOperation_SET_OPERATION_UNDEFINED {
			t.with(x.WithClause)
			leaves = append(leaves, t.simpleSelect(x))
			return
		}
		t.with(x.WithClause)
		walk(x.Larg)
		walk(x.Rarg)
	}
	walk(s.Larg)
	walk(s.Rarg)
	reason := strings.TrimPrefix(s.Op.String(), "SETOP_")
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
	t.locks(s.LockingClause, out)
	out.AllTables = rules.DedupeFold(append(all, t.reads)...) // + WITH queries of the branches
	if out.AllTables == nil {
		out.AllTables = []string{}
	}
	return out
}

func (t *translator) locks(clauses []*pg.Node, out *sqlir.Select) {
	for _, n := range clauses {
		switch n.GetLockingClause().GetStrength() {
		case pg.LockClauseStrength_LCS_FORUPDATE, pg.LockClauseStrength_LCS_FORNOKEYUPDATE:
			out.ForUpdate = true
		case pg.LockClauseStrength_LCS_FORSHARE, pg.LockClauseStrength_LCS_FORKEYSHARE:
			out.ForShare = true
		}
	}
}

func (t *translator) simpleSelect(s *pg.SelectStmt) *sqlir.Select {
	saved := t.reads
	t.reads = nil
	t.scope = map[string]string{}
	fi := t.from(s.FromClause)
	out := &sqlir.Select{}
	var reasons []string
	if fi.joins || len(fi.tables) > 1 {
		reasons = append(reasons, "join")
	}
	if fi.derived {
		reasons = append(reasons, "subquery in FROM")
	}
	if fi.funcs {
		reasons = append(reasons, "function in FROM")
	}
	if len(s.DistinctClause) > 0 {
		reasons = append(reasons, "DISTINCT")
	}
	if len(s.GroupClause) > 0 {
		reasons = append(reasons, "GROUP BY")
	}
	if s.HavingClause != nil {
		reasons = append(reasons, "HAVING")
	}
	agg, window := pgAggregateIn(t.sqlite, append(append([]*pg.Node(nil), s.TargetList...), s.SortClause...))
	if agg != "" {
		reasons = append(reasons, "aggregate "+agg)
	}
	if window || len(s.WindowClause) > 0 {
		reasons = append(reasons, "window function")
	}
	if len(s.ValuesLists) > 1 {
		reasons = append(reasons, "VALUES")
	}
	if len(fi.tables) == 1 && !fi.joins && !fi.derived && !fi.funcs {
		out.Table = fi.tables[0]
	}
	for _, n := range s.TargetList {
		out.Columns = append(out.Columns, t.selectItem(n))
	}
	if len(s.ValuesLists) > 0 {
		for _, v := range s.ValuesLists[0].GetList().GetItems() {
			out.Columns = append(out.Columns, sqlir.SelectItem{Expr: t.expr(v)})
		}
		for _, row := range s.ValuesLists[1:] {
			t.collectReads(row)
		}
	}
	if s.WhereClause != nil {
		out.Where = t.expr(s.WhereClause)
	}
	t.collectReads(s.HavingClause)
	for _, n := range s.GroupClause {
		t.collectReads(n)
	}
	for _, n := range s.SortClause {
		t.collectReads(n)
	}
	t.collectReads(s.LimitCount)
	t.collectReads(s.LimitOffset)
	t.locks(s.LockingClause, out)
	if len(reasons) > 0 {
		out.Complex = true
		out.Reason = strings.Join(reasons, ", ")
	}
	if out.Complex || len(t.reads) > 0 {
		out.AllTables = rules.DedupeFold(fi.tables, t.reads)
		if out.AllTables == nil {
			out.AllTables = []string{}
		}
	}
	t.reads = append(saved, t.reads...)
	return out
}

// selectItem translates a target list or RETURNING entry.
func (t *translator) selectItem(n *pg.Node) sqlir.SelectItem {
	rt := n.GetResTarget()
	if rt == nil {
		return sqlir.SelectItem{Expr: t.unknown(n)}
	}
	if cr := rt.Val.GetColumnRef(); cr != nil && len(cr.Fields) > 0 && cr.Fields[len(cr.Fields)-1].GetAStar() != nil {
		q := ""
		if k := len(cr.Fields); k >= 2 {
			q = t.resolve(cr.Fields[k-2].GetString_().GetSval())
		}
		return sqlir.SelectItem{Star: true, Expr: &sqlir.ColRef{Table: q, Name: "*"}}
	}
	return sqlir.SelectItem{Expr: t.expr(rt.Val), Alias: rt.Name}
}

func (t *translator) returning(list []*pg.Node) []sqlir.SelectItem {
	var out []sqlir.SelectItem
	for _, n := range list {
		out = append(out, t.selectItem(n))
	}
	return out
}

// pgAggregates are the built-in aggregate functions.
func isPgAggregate(name string) bool {
	switch name {
	case "count", "sum", "avg", "min", "max", "array_agg", "string_agg",
		"bool_and", "bool_or", "every", "bit_and", "bit_or", "bit_xor",
		"json_agg", "jsonb_agg", "json_object_agg", "jsonb_object_agg",
		"json_agg_strict", "jsonb_agg_strict", "json_objectagg", "json_arrayagg",
		"stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp",
		"corr", "covar_pop", "covar_samp", "regr_avgx", "regr_avgy", "regr_count",
		"regr_intercept", "regr_r2", "regr_slope", "regr_sxx", "regr_sxy", "regr_syy",
		"percentile_cont", "percentile_disc", "mode", "xmlagg", "any_value",
		"range_agg", "range_intersect_agg":
		return true
	}
	return false
}

// pgAggregateIn returns the upper-cased name of the first aggregate call
// in nodes outside subqueries (or "") and whether a window function occurs.
// In SQLite, max and min with two or more arguments are scalar functions.
func pgAggregateIn(sqlite bool, nodes []*pg.Node) (agg string, window bool) {
	for _, n := range nodes {
		pgVisit(n, func(x proto.Message) bool {
			switch f := x.(type) {
			case *pg.SubLink, *pg.RangeSubselect:
				return false
			case *pg.FuncCall:
				if f.Over != nil {
					window = true
					return true
				}
				name, _ := pgName(f.Funcname)
				scalar := sqlite && (name == "max" || name == "min") && len(f.Args) >= 2
				if agg == "" && (isPgAggregate(name) && !scalar || f.AggStar || f.AggDistinct ||
					f.AggFilter != nil || len(f.AggOrder) > 0 || f.AggWithinGroup) {
					agg = strings.ToUpper(name)
				}
			}
			return true
		})
	}
	return agg, window
}

// ---- writes --------------------------------------------------------------------

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
	for i := range out.Set {
		out.Set[i].Value = ownColumnsOnly(out.Set[i].Value, target)
	}
	out.Where = t.joinFilter(fi, target, u.WhereClause)
	out.Returning = ownItemsOnly(t.returning(u.ReturningList), target)
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
	out.Where = t.joinFilter(fi, target, d.WhereClause)
	out.Returning = ownItemsOnly(t.returning(d.ReturningList), target)
	return out
}

// ownColumnsOnly replaces column references that are not qualified with
// target (they may belong to a joined table) by Unknown.
func ownColumnsOnly(e sqlir.Expr, target string) sqlir.Expr {
	return rules.Map(e, func(x sqlir.Expr) sqlir.Expr {
		if c, ok := x.(*sqlir.ColRef); ok && !strings.EqualFold(c.Table, target) {
			return &sqlir.Unknown{Text: rules.Format(c)}
		}
		return x
	})
}

func ownItemsOnly(items []sqlir.SelectItem, target string) []sqlir.SelectItem {
	for i := range items {
		it := &items[i]
		if it.Star {
			if it.Expr.(*sqlir.ColRef).Table == "" {
				it.Expr = &sqlir.Unknown{Text: "*"} // every table's columns
				it.Star = false
			}
			continue
		}
		it.Expr = ownColumnsOnly(it.Expr, target)
	}
	return items
}

// joinFilter builds the Where of UPDATE … FROM / DELETE … USING on target:
// the conjuncts of WHERE (and of inner-join ON conditions) that only read
// target's columns, and an Unknown conjunct for the rest ("some joined row
// matches"), as the MySQL multi-table path does.
func (t *translator) joinFilter(fi *pgFrom, target string, where *pg.Node) sqlir.Expr {
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
	var kept sqlir.Expr
	var rest []string
	var restParams []int
	for _, c := range conj {
		e := t.expr(c)
		own := true
		rules.Visit(e, func(x sqlir.Expr) {
			if cr, ok := x.(*sqlir.ColRef); ok && !strings.EqualFold(cr.Table, target) {
				own = false
			}
		})
		if own {
			kept = rules.And(kept, e)
			continue
		}
		rest = append(rest, pgDeparseExpr(t.version, c))
		restParams = append(restParams, rules.ParamsOf(e)...)
	}
	others := append([]string(nil), fi.tables...)
	if fi.derived || fi.funcs {
		others = append(others, "a derived table")
	}
	text := "joined with " + strings.Join(others, ", ")
	if len(rest) > 0 {
		text += " where " + strings.Join(rest, " and ")
	}
	return rules.And(kept, &sqlir.Unknown{Text: text, Params: rules.DedupeInts(restParams)})
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
// insertion: the inserted value for a one-row VALUES insert, else Unknown.
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
	t.inConflict = true
	t.excluded = nil
	if len(out.Rows) == 1 && !out.FromSelect && len(out.Columns) > 0 {
		t.excluded = map[string]sqlir.Expr{}
		for i, c := range out.Columns {
			t.excluded[strings.ToLower(c)] = out.Rows[0][i]
		}
	}
	out.OnConflict = t.assignments(oc.TargetList)
	if oc.WhereClause != nil {
		for i := range out.OnConflict {
			a := &out.OnConflict[i]
			a.Value = &sqlir.Case{
				Whens: []sqlir.When{{Cond: t.expr(oc.WhereClause), Val: a.Value}},
				Else:  &sqlir.ColRef{Name: a.Col},
			}
		}
	}
	t.inConflict = false
	t.excluded = nil
}
