package mysql

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/xwb1989/sqlparser"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/internal/rules"
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
		return t.insert(s)
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

// ---- SELECT -------------------------------------------------------------

func (t *translator) selectStmt(ss sqlparser.SelectStatement) *sqlir.Select {
	switch s := ss.(type) {
	case *sqlparser.ParenSelect:
		return t.selectStmt(s.Select)
	case *sqlparser.Union:
		var leaves []*sqlir.Select
		var walk func(sqlparser.SelectStatement)
		walk = func(x sqlparser.SelectStatement) {
			switch y := x.(type) {
			case *sqlparser.Union:
				walk(y.Left)
				walk(y.Right)
			case *sqlparser.ParenSelect:
				walk(y.Select)
			case *sqlparser.Select:
				leaves = append(leaves, t.simpleSelect(y))
			}
		}
		walk(s)
		out := &sqlir.Select{Complex: true, Reason: "UNION"}
		var all [][]string
		for i, l := range leaves {
			if i == 0 {
				out.Columns = l.Columns
			}
			all = append(all, l.Tables())
			out.ForUpdate = out.ForUpdate || l.ForUpdate
			out.ForShare = out.ForShare || l.ForShare
		}
		out.AllTables = rules.DedupeFold(all...)
		switch s.Lock {
		case sqlparser.ForUpdateStr:
			out.ForUpdate = true
		case sqlparser.ShareModeStr:
			out.ForShare = true
		}
		return out
	case *sqlparser.Select:
		return t.simpleSelect(s)
	}
	return &sqlir.Select{Complex: true, Reason: fmt.Sprintf("unsupported SELECT form %T", ss)}
}

func (t *translator) simpleSelect(s *sqlparser.Select) *sqlir.Select {
	t.reads = nil
	fi := t.from(s.From)
	out := &sqlir.Select{}
	var reasons []string
	if fi.joins || len(fi.tables) > 1 {
		reasons = append(reasons, "join")
	}
	if fi.derived {
		reasons = append(reasons, "subquery in FROM")
	}
	if s.Distinct != "" {
		reasons = append(reasons, "DISTINCT")
	}
	if len(s.GroupBy) > 0 {
		reasons = append(reasons, "GROUP BY")
	}
	if s.Having != nil {
		reasons = append(reasons, "HAVING")
	}
	if agg := aggregateIn(s.SelectExprs); agg != "" {
		reasons = append(reasons, "aggregate "+agg)
	}
	if len(fi.tables) == 1 && !fi.joins && !fi.derived {
		out.Table = fi.tables[0]
	}
	for _, se := range s.SelectExprs {
		out.Columns = append(out.Columns, t.selectItem(se))
	}
	if s.Where != nil {
		out.Where = t.expr(s.Where.Expr)
	}
	if s.Having != nil {
		t.collectReads(s.Having)
	}
	switch s.Lock {
	case sqlparser.ForUpdateStr:
		out.ForUpdate = true
	case sqlparser.ShareModeStr:
		out.ForShare = true
	}
	if len(reasons) > 0 {
		out.Complex = true
		out.Reason = strings.Join(reasons, ", ")
	}
	if out.Complex || len(t.reads) > 0 {
		out.AllTables = rules.DedupeFold(fi.tables, t.reads)
	}
	return out
}

func (t *translator) selectItem(se sqlparser.SelectExpr) sqlir.SelectItem {
	switch x := se.(type) {
	case *sqlparser.StarExpr:
		return sqlir.SelectItem{Star: true, Expr: &sqlir.ColRef{Table: t.resolve(x.TableName.Name.String()), Name: "*"}}
	case *sqlparser.AliasedExpr:
		return sqlir.SelectItem{Expr: t.expr(x.Expr), Alias: x.As.String()}
	}
	return sqlir.SelectItem{Expr: t.unknown(se)}
}

// aggregateIn returns the upper-cased name of the first aggregate
// function in exprs outside subqueries, or "".
func aggregateIn(nodes ...sqlparser.SQLNode) string {
	found := ""
	for _, n := range nodes {
		_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
			if found != "" {
				return false, nil
			}
			switch x := node.(type) {
			case *sqlparser.Subquery:
				return false, nil
			case *sqlparser.FuncExpr:
				if x.IsAggregate() {
					found = strings.ToUpper(x.Name.String())
					return false, nil
				}
			case *sqlparser.GroupConcatExpr:
				found = "GROUP_CONCAT"
				return false, nil
			}
			return true, nil
		}, n)
	}
	return found
}

// ---- writes -------------------------------------------------------------

// singleTable reports the target of a one-table FROM list.
func singleTable(fi *fromInfo) (string, bool) {
	if len(fi.tables) == 1 && !fi.joins && !fi.derived {
		return fi.tables[0], true
	}
	return "", false
}

func (t *translator) update(u *sqlparser.Update, query string) (sqlir.Statement, error) {
	t.reads = nil
	fi := t.from(u.TableExprs)
	target, single := singleTable(fi)
	if !single {
		// Multi-table UPDATE: every assigned column must belong to one table.
		for _, ue := range u.Exprs {
			q := ue.Name.Qualifier.Name.String()
			if q == "" {
				return nil, &rules.UnsupportedError{Query: query, Tables: fi.tables,
					Reason: fmt.Sprintf("multi-table UPDATE assigns unqualified column %s", ue.Name.Name.String())}
			}
			tbl := t.resolve(q)
			if target == "" {
				target = tbl
			} else if !strings.EqualFold(target, tbl) {
				return nil, &rules.UnsupportedError{Query: query, Tables: fi.tables,
					Reason: fmt.Sprintf("multi-table UPDATE assigns columns of both %s and %s", target, tbl)}
			}
		}
		if target == "" || !rules.ContainsFold(fi.tables, target) {
			return nil, &rules.UnsupportedError{Query: query, Tables: fi.tables, Reason: "UPDATE of a derived table"}
		}
	}
	out := &sqlir.Update{Table: target}
	for _, ue := range u.Exprs {
		out.Set = append(out.Set, sqlir.Assignment{Col: ue.Name.Name.String(), Value: t.expr(ue.Expr)})
	}
	if single {
		t.sequentialSet(out.Set, target)
		if u.Where != nil {
			out.Where = t.expr(u.Where.Expr)
		}
	} else {
		for i := range out.Set {
			out.Set[i].Value = t.onlyTable(out.Set[i].Value, target, out.Set, i)
		}
		var w sqlparser.Expr
		if u.Where != nil {
			w = u.Where.Expr
		}
		out.Where = t.joinFilter(fi, target, w)
	}
	if u.Limit != nil {
		out.Where = rules.And(out.Where, t.limitUnknown(u.Limit))
	}
	return out, nil
}

// sequentialSet makes MySQL's left-to-right SET semantics (a later
// assignment sees the new value of an earlier column) simultaneous, which
// is what sqlir.Update means. SQLite and Postgres already use old values.
func (t *translator) sequentialSet(set []sqlir.Assignment, table string) {
	done := map[string]sqlir.Expr{}
	for i := range set {
		set[i].Value = rules.SubstCols(set[i].Value, table, done)
		done[strings.ToLower(set[i].Col)] = set[i].Value
	}
}

// onlyTable replaces column references that are not qualified with
// target (they may belong to another joined table) and references to
// columns assigned by other assignments than self (MySQL does not fix the
// assignment order of a multi-table UPDATE) by Unknown.
func (t *translator) onlyTable(e sqlir.Expr, target string, set []sqlir.Assignment, self int) sqlir.Expr {
	return rules.Map(rules.OwnColumnsOnly(e, target), func(x sqlir.Expr) sqlir.Expr {
		c, ok := x.(*sqlir.ColRef)
		if !ok {
			return x
		}
		for k, a := range set {
			if k != self && strings.EqualFold(a.Col, c.Name) {
				return &sqlir.Unknown{Text: rules.Format(c)}
			}
		}
		return x
	})
}

// joinFilter builds the Where of a multi-table UPDATE or DELETE on target:
// the conjuncts of WHERE (and of inner-join ON conditions) that only read
// target's columns, and an Unknown conjunct for the rest ("some joined row
// matches"), so the row model may or may not touch each row that satisfies
// the known part.
func (t *translator) joinFilter(fi *fromInfo, target string, where sqlparser.Expr) sqlir.Expr {
	var conj []sqlparser.Expr
	var split func(sqlparser.Expr)
	split = func(e sqlparser.Expr) {
		switch x := e.(type) {
		case *sqlparser.AndExpr:
			split(x.Left)
			split(x.Right)
		case *sqlparser.ParenExpr:
			if _, ok := x.Expr.(*sqlparser.AndExpr); ok {
				split(x.Expr)
				return
			}
			conj = append(conj, e)
		default:
			conj = append(conj, e)
		}
	}
	for _, on := range fi.innerOn {
		split(on)
	}
	if where != nil {
		split(where)
	}
	out := make([]rules.Conjunct, len(conj))
	for i, c := range conj {
		out[i] = rules.Conjunct{Expr: t.expr(c), Text: t.text(c)}
	}
	var others []string
	for _, tb := range fi.tables {
		if !strings.EqualFold(tb, target) {
			others = append(others, tb)
		}
	}
	return rules.JoinFilter(target, out, others)
}

// limitUnknown is the conjunct added for UPDATE/DELETE … LIMIT: which of
// the matching rows are touched is unknown.
func (t *translator) limitUnknown(l *sqlparser.Limit) sqlir.Expr {
	return &sqlir.Unknown{Text: "row chosen by" + t.text(l), Params: t.paramsIn(l)}
}

func (t *translator) delete(d *sqlparser.Delete, query string) (sqlir.Statement, error) {
	t.reads = nil
	fi := t.from(d.TableExprs)
	target, single := singleTable(fi)
	if len(d.Targets) > 1 {
		var names []string
		for _, tn := range d.Targets {
			names = append(names, t.resolve(tn.Name.String()))
		}
		return nil, &rules.UnsupportedError{Query: query, Tables: names,
			Reason: "DELETE from several tables (" + strings.Join(names, ", ") + ")"}
	}
	if len(d.Targets) == 1 {
		target = t.resolve(d.Targets[0].Name.String())
		single = single && strings.EqualFold(target, fi.tables[0])
	}
	if target == "" || !rules.ContainsFold(fi.tables, target) {
		return nil, &rules.UnsupportedError{Query: query, Tables: fi.tables, Reason: "DELETE whose target table is unclear"}
	}
	out := &sqlir.Delete{Table: target}
	if single {
		if d.Where != nil {
			out.Where = t.expr(d.Where.Expr)
		}
	} else {
		var w sqlparser.Expr
		if d.Where != nil {
			w = d.Where.Expr
		}
		out.Where = t.joinFilter(fi, target, w)
	}
	if d.Limit != nil {
		out.Where = rules.And(out.Where, t.limitUnknown(d.Limit))
	}
	return out, nil
}

func (t *translator) insert(ins *sqlparser.Insert) (sqlir.Statement, error) {
	table := ins.Table.Name.String()
	t.scope = map[string]string{strings.ToLower(table): table}
	out := &sqlir.Insert{Table: table, Replace: ins.Action == sqlparser.ReplaceStr}
	for _, c := range ins.Columns {
		out.Columns = append(out.Columns, c.String())
	}
	switch rows := ins.Rows.(type) {
	case sqlparser.Values:
		for i, tuple := range rows {
			if len(out.Columns) > 0 && len(tuple) != len(out.Columns) {
				return nil, fmt.Errorf("INSERT into %s: row %d has %d values for %d columns", table, i+1, len(tuple), len(out.Columns))
			}
			row := make([]sqlir.Expr, len(tuple))
			for j, v := range tuple {
				if _, ok := v.(*sqlparser.Default); ok {
					row[j] = &sqlir.Unknown{Text: "default", Default: true}
					continue
				}
				row[j] = t.expr(v)
			}
			out.Rows = append(out.Rows, row)
		}
	default:
		out.FromSelect = true
	}
	if ins.Ignore != "" {
		out.OnConflictNothing = true
	}
	if len(ins.OnDup) > 0 {
		out.HasOnConflict = true
		if len(out.Rows) == 1 && len(out.Columns) > 0 {
			t.insertRow = map[string]sqlir.Expr{}
			for i, c := range out.Columns {
				t.insertRow[strings.ToLower(c)] = out.Rows[0][i]
			}
		}
		t.inOnDup = true
		for _, ue := range ins.OnDup {
			out.OnConflict = append(out.OnConflict, sqlir.Assignment{Col: ue.Name.Name.String(), Value: t.expr(ue.Expr)})
		}
		t.inOnDup = false
		t.insertRow = nil
		t.sequentialSet(out.OnConflict, table)
	}
	return out, nil
}

// ---- expressions --------------------------------------------------------

// text renders n as SQL, printing placeholders as $1, $2, … (Index+1)
// like sqlparse.Format, so that Unknown texts and formatted expressions agree.
func (t *translator) text(n sqlparser.SQLNode) string {
	buf := sqlparser.NewTrackedBuffer(func(buf *sqlparser.TrackedBuffer, node sqlparser.SQLNode) {
		var arg string
		switch v := node.(type) {
		case *sqlparser.SQLVal:
			if v.Type == sqlparser.ValArg {
				arg = string(v.Val)
			}
		case sqlparser.ListArg:
			arg = string(v)
		}
		if i, ok := t.params[arg]; ok && arg != "" {
			fmt.Fprintf(buf, "$%d", i+1)
			return
		}
		node.Format(buf)
	})
	buf.Myprintf("%v", n)
	return buf.String()
}

// paramsIn returns the distinct parameter indexes inside n in order.
func (t *translator) paramsIn(n sqlparser.SQLNode) []int {
	var out []int
	seen := map[int]bool{}
	_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
		var arg string
		switch x := node.(type) {
		case *sqlparser.SQLVal:
			if x.Type == sqlparser.ValArg {
				arg = string(x.Val)
			}
		case sqlparser.ListArg:
			arg = string(x)
		}
		if i, ok := t.params[arg]; ok && arg != "" && !seen[i] {
			seen[i] = true
			out = append(out, i)
		}
		return true, nil
	}, n)
	return out
}

func (t *translator) unknown(n sqlparser.SQLNode) *sqlir.Unknown {
	t.collectReads(n)
	return &sqlir.Unknown{Text: t.text(n), Params: t.paramsIn(n)}
}

// compareOp maps sqlparser comparison operators to sqlir ones.
func compareOp(op string) (sqlir.Op, bool) {
	switch op {
	case sqlparser.EqualStr:
		return sqlir.OpEq, true
	case sqlparser.LessThanStr:
		return sqlir.OpLt, true
	case sqlparser.LessEqualStr:
		return sqlir.OpLe, true
	case sqlparser.GreaterThanStr:
		return sqlir.OpGt, true
	case sqlparser.GreaterEqualStr:
		return sqlir.OpGe, true
	case sqlparser.NotEqualStr:
		return sqlir.OpNe, true
	}
	return sqlir.OpInvalid, false
}

// arithOp maps sqlparser arithmetic operators to sqlir ones.
func arithOp(op string) (sqlir.Op, bool) {
	switch op {
	case sqlparser.PlusStr:
		return sqlir.OpAdd, true
	case sqlparser.MinusStr:
		return sqlir.OpSub, true
	case sqlparser.MultStr:
		return sqlir.OpMul, true
	case sqlparser.DivStr:
		return sqlir.OpDiv, true
	case sqlparser.ModStr:
		return sqlir.OpMod, true
	case sqlparser.IntDivStr:
		return sqlir.OpDivInt, true
	}
	return sqlir.OpInvalid, false
}

func (t *translator) expr(e sqlparser.Expr) sqlir.Expr {
	switch x := e.(type) {
	case *sqlparser.AndExpr:
		return &sqlir.Binary{Op: sqlir.OpAnd, X: t.expr(x.Left), Y: t.expr(x.Right)}
	case *sqlparser.OrExpr:
		return &sqlir.Binary{Op: sqlir.OpOr, X: t.expr(x.Left), Y: t.expr(x.Right)}
	case *sqlparser.NotExpr:
		return rules.Not(t.expr(x.Expr))
	case *sqlparser.ParenExpr:
		return t.expr(x.Expr)
	case *sqlparser.ComparisonExpr:
		return t.comparison(x)
	case *sqlparser.RangeCond:
		r := rules.Between(t.expr(x.Left), t.expr(x.From), t.expr(x.To))
		if x.Operator == sqlparser.NotBetweenStr {
			return rules.Not(r)
		}
		return r
	case *sqlparser.IsExpr:
		v := t.expr(x.Expr)
		switch x.Operator {
		case sqlparser.IsNullStr:
			return &sqlir.IsNull{X: v}
		case sqlparser.IsNotNullStr:
			return &sqlir.IsNull{X: v, Not: true}
		case sqlparser.IsTrueStr, sqlparser.IsNotTrueStr, sqlparser.IsFalseStr, sqlparser.IsNotFalseStr:
			want := x.Operator == sqlparser.IsTrueStr || x.Operator == sqlparser.IsNotTrueStr
			not := x.Operator == sqlparser.IsNotTrueStr || x.Operator == sqlparser.IsNotFalseStr
			return rules.TruthTest(v, want, not)
		}
		return t.unknown(x)
	case *sqlparser.SQLVal:
		return t.value(x)
	case *sqlparser.NullVal:
		return &sqlir.Null{}
	case sqlparser.BoolVal:
		return rules.Bool(bool(x))
	case *sqlparser.ColName:
		name := x.Name.String()
		if strings.HasPrefix(name, "@") || name == "*" { // variables; Name "*" means a star item
			return t.unknown(x)
		}
		return &sqlir.ColRef{Table: t.resolve(x.Qualifier.Name.String()), Name: name}
	case *sqlparser.BinaryExpr:
		if op, ok := arithOp(x.Operator); ok {
			return &sqlir.Binary{Op: op, X: t.expr(x.Left), Y: t.expr(x.Right)}
		}
		return t.unknown(x)
	case *sqlparser.UnaryExpr:
		switch x.Operator {
		case sqlparser.UMinusStr:
			v := t.expr(x.Expr)
			if n, ok := v.(*sqlir.Num); ok {
				return &sqlir.Num{Val: new(big.Rat).Neg(n.Val), IsInt: n.IsInt}
			}
			return &sqlir.Unary{Op: sqlir.OpNeg, X: v}
		case sqlparser.UPlusStr:
			return t.expr(x.Expr)
		case sqlparser.BangStr:
			return rules.Not(t.expr(x.Expr))
		}
		return t.unknown(x)
	case *sqlparser.CaseExpr:
		var subject, els sqlir.Expr
		if x.Expr != nil {
			subject = t.expr(x.Expr)
		}
		whens := make([]sqlir.When, len(x.Whens))
		for i, w := range x.Whens {
			whens[i] = sqlir.When{Cond: t.expr(w.Cond), Val: t.expr(w.Val)}
		}
		if x.Else != nil {
			els = t.expr(x.Else)
		}
		return rules.SearchedCase(subject, whens, els)
	case *sqlparser.FuncExpr:
		if r := t.function(x); r != nil {
			return r
		}
		return t.unknown(x)
	case *sqlparser.ValuesFuncExpr:
		if t.inOnDup && t.insertRow != nil {
			if v, ok := t.insertRow[strings.ToLower(x.Name.Name.String())]; ok {
				return rules.Clone(v)
			}
		}
		return t.unknown(x)
	}
	return t.unknown(e)
}

func (t *translator) value(v *sqlparser.SQLVal) sqlir.Expr {
	switch v.Type {
	case sqlparser.StrVal:
		return &sqlir.Str{Val: string(v.Val)}
	case sqlparser.IntVal, sqlparser.FloatVal, sqlparser.HexNum:
		r, ok := new(big.Rat).SetString(string(v.Val))
		if !ok {
			return t.unknown(v)
		}
		return &sqlir.Num{Val: r, IsInt: v.Type != sqlparser.FloatVal}
	case sqlparser.ValArg:
		if i, ok := t.params[string(v.Val)]; ok {
			return &sqlir.Param{Index: i}
		}
	}
	return t.unknown(v)
}

func (t *translator) comparison(c *sqlparser.ComparisonExpr) sqlir.Expr {
	switch c.Operator {
	case sqlparser.EqualStr:
		return t.equal(c.Left, c.Right, c)
	case sqlparser.NotEqualStr:
		if isTuple(c.Left) || isTuple(c.Right) {
			return rules.Not(t.equal(c.Left, c.Right, c))
		}
		return &sqlir.Binary{Op: sqlir.OpNe, X: t.expr(c.Left), Y: t.expr(c.Right)}
	case sqlparser.InStr, sqlparser.NotInStr:
		list, ok := c.Right.(sqlparser.ValTuple)
		if !ok || len(list) == 0 {
			return t.unknown(c)
		}
		var r sqlir.Expr
		for _, el := range list {
			r = rules.Or(r, t.equal(c.Left, el, c))
		}
		if c.Operator == sqlparser.NotInStr {
			return rules.Not(r)
		}
		return r
	}
	if op, ok := compareOp(c.Operator); ok {
		if isTuple(c.Left) || isTuple(c.Right) {
			return t.unknown(c)
		}
		return &sqlir.Binary{Op: op, X: t.expr(c.Left), Y: t.expr(c.Right)}
	}
	return t.unknown(c)
}

func isTuple(e sqlparser.Expr) bool {
	_, ok := e.(sqlparser.ValTuple)
	return ok
}

// equal is l = r, element-wise for row values.
func (t *translator) equal(l, r sqlparser.Expr, whole sqlparser.SQLNode) sqlir.Expr {
	lt, lok := l.(sqlparser.ValTuple)
	rt, rok := r.(sqlparser.ValTuple)
	switch {
	case lok && rok && len(lt) == len(rt):
		var out sqlir.Expr
		for i := range lt {
			out = rules.And(out, t.equal(lt[i], rt[i], whole))
		}
		return out
	case lok || rok:
		return t.unknown(whole)
	}
	return &sqlir.Binary{Op: sqlir.OpEq, X: t.expr(l), Y: t.expr(r)}
}

// function models the few scalar functions that are plain conditionals;
// it returns nil for everything else.
func (t *translator) function(f *sqlparser.FuncExpr) sqlir.Expr {
	if !f.Qualifier.IsEmpty() || f.Distinct {
		return nil
	}
	var args []sqlir.Expr
	for _, se := range f.Exprs {
		a, ok := se.(*sqlparser.AliasedExpr)
		if !ok || !a.As.IsEmpty() {
			return nil
		}
		args = append(args, t.expr(a.Expr))
	}
	n := len(args)
	switch name := f.Name.Lowered(); {
	case name == "coalesce" && n > 0, name == "ifnull" && n == 2:
		return rules.Coalesce(args)
	case name == "if" && n == 3:
		return rules.If(args[0], args[1], args[2])
	case name == "nullif" && n == 2:
		return rules.NullIf(args[0], args[1])
	case name == "abs" && n == 1:
		return rules.Abs(args[0])
	case (name == "greatest" || name == "least") && n >= 2:
		// MySQL: NULL if any argument is NULL.
		return rules.GreatestLeast(name == "least", args, rules.NullIfAnyNull)
	}
	return nil
}
