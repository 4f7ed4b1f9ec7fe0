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
	return rules.Map(e, func(x sqlir.Expr) sqlir.Expr {
		c, ok := x.(*sqlir.ColRef)
		if !ok {
			return x
		}
		if strings.EqualFold(c.Table, target) {
			assigned := false
			for k, a := range set {
				assigned = assigned || k != self && strings.EqualFold(a.Col, c.Name)
			}
			if !assigned {
				return x
			}
		}
		return &sqlir.Unknown{Text: rules.Format(c)}
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
		rest = append(rest, t.text(c))
		restParams = append(restParams, rules.ParamsOf(e)...)
	}
	var others []string
	for _, tb := range fi.tables {
		if !strings.EqualFold(tb, target) {
			others = append(others, tb)
		}
	}
	text := "joined with " + strings.Join(others, ", ")
	if len(rest) > 0 {
		text += " where " + strings.Join(rest, " and ")
	}
	u := &sqlir.Unknown{Text: text, Params: rules.DedupeInts(restParams)}
	return rules.And(kept, u)
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
func compareOp(op string) (string, bool) {
	switch op {
	case sqlparser.EqualStr, sqlparser.LessThanStr, sqlparser.LessEqualStr,
		sqlparser.GreaterThanStr, sqlparser.GreaterEqualStr:
		return op, true
	case sqlparser.NotEqualStr:
		return "<>", true
	}
	return "", false
}

// arithOp maps sqlparser arithmetic operators to sqlir ones.
func arithOp(op string) (string, bool) {
	switch op {
	case sqlparser.PlusStr, sqlparser.MinusStr, sqlparser.MultStr, sqlparser.DivStr, sqlparser.ModStr:
		return op, true
	case sqlparser.IntDivStr:
		return "DIV", true
	}
	return "", false
}

func (t *translator) expr(e sqlparser.Expr) sqlir.Expr {
	switch x := e.(type) {
	case *sqlparser.AndExpr:
		return &sqlir.Binary{Op: "AND", X: t.expr(x.Left), Y: t.expr(x.Right)}
	case *sqlparser.OrExpr:
		return &sqlir.Binary{Op: "OR", X: t.expr(x.Left), Y: t.expr(x.Right)}
	case *sqlparser.NotExpr:
		return rules.Not(t.expr(x.Expr))
	case *sqlparser.ParenExpr:
		return t.expr(x.Expr)
	case *sqlparser.ComparisonExpr:
		return t.comparison(x)
	case *sqlparser.RangeCond:
		r := rules.And(
			&sqlir.Binary{Op: ">=", X: t.expr(x.Left), Y: t.expr(x.From)},
			&sqlir.Binary{Op: "<=", X: t.expr(x.Left), Y: t.expr(x.To)})
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
		case sqlparser.IsTrueStr: // NULL IS TRUE is false
			return &sqlir.Case{Whens: []sqlir.When{{Cond: v, Val: rules.Bool(true)}}, Else: rules.Bool(false)}
		case sqlparser.IsNotTrueStr:
			return &sqlir.Case{Whens: []sqlir.When{{Cond: v, Val: rules.Bool(false)}}, Else: rules.Bool(true)}
		case sqlparser.IsFalseStr:
			return &sqlir.Case{Whens: []sqlir.When{{Cond: rules.Not(v), Val: rules.Bool(true)}}, Else: rules.Bool(false)}
		case sqlparser.IsNotFalseStr:
			return &sqlir.Case{Whens: []sqlir.When{{Cond: rules.Not(v), Val: rules.Bool(false)}}, Else: rules.Bool(true)}
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
			return &sqlir.Unary{Op: "-", X: v}
		case sqlparser.UPlusStr:
			return t.expr(x.Expr)
		case sqlparser.BangStr:
			return rules.Not(t.expr(x.Expr))
		}
		return t.unknown(x)
	case *sqlparser.CaseExpr:
		c := &sqlir.Case{}
		for _, w := range x.Whens {
			cond := t.expr(w.Cond)
			if x.Expr != nil {
				cond = &sqlir.Binary{Op: "=", X: t.expr(x.Expr), Y: cond}
			}
			c.Whens = append(c.Whens, sqlir.When{Cond: cond, Val: t.expr(w.Val)})
		}
		if x.Else != nil {
			c.Else = t.expr(x.Else)
		}
		return c
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
		return &sqlir.Binary{Op: "<>", X: t.expr(c.Left), Y: t.expr(c.Right)}
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
	return &sqlir.Binary{Op: "=", X: t.expr(l), Y: t.expr(r)}
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
	caseOf := func(cond, then, els sqlir.Expr) sqlir.Expr {
		return &sqlir.Case{Whens: []sqlir.When{{Cond: cond, Val: then}}, Else: els}
	}
	switch f.Name.Lowered() {
	case "coalesce", "ifnull":
		if n == 0 || (f.Name.Lowered() == "ifnull" && n != 2) {
			return nil
		}
		c := &sqlir.Case{Else: args[n-1]}
		for _, a := range args[:n-1] {
			c.Whens = append(c.Whens, sqlir.When{Cond: &sqlir.IsNull{X: a, Not: true}, Val: rules.Clone(a)})
		}
		if len(c.Whens) == 0 {
			return args[0]
		}
		return c
	case "if":
		if n != 3 {
			return nil
		}
		return caseOf(args[0], args[1], args[2])
	case "nullif":
		if n != 2 {
			return nil
		}
		return caseOf(&sqlir.Binary{Op: "=", X: args[0], Y: args[1]}, &sqlir.Null{}, rules.Clone(args[0]))
	case "abs":
		if n != 1 {
			return nil
		}
		return caseOf(&sqlir.Binary{Op: "<", X: args[0], Y: &sqlir.Num{Val: new(big.Rat), IsInt: true}},
			&sqlir.Unary{Op: "-", X: rules.Clone(args[0])}, rules.Clone(args[0]))
	case "greatest", "least":
		if n < 2 || n > 4 {
			return nil
		}
		op := ">="
		if f.Name.Lowered() == "least" {
			op = "<="
		}
		// MySQL: NULL if any argument is NULL.
		isNull := func(e sqlir.Expr) sqlir.Expr {
			switch e.(type) {
			case *sqlir.Num, *sqlir.Str, *sqlir.BoolLit:
				return nil // never NULL
			}
			return &sqlir.IsNull{X: rules.Clone(e)}
		}
		acc := args[0]
		for _, b := range args[1:] {
			c := &sqlir.Case{}
			if nc := rules.Or(isNull(acc), isNull(b)); nc != nil {
				c.Whens = append(c.Whens, sqlir.When{Cond: nc, Val: &sqlir.Null{}})
			}
			c.Whens = append(c.Whens, sqlir.When{Cond: &sqlir.Binary{Op: op, X: rules.Clone(acc), Y: rules.Clone(b)}, Val: rules.Clone(acc)})
			c.Else = rules.Clone(b)
			acc = c
		}
		return acc
	}
	return nil
}
