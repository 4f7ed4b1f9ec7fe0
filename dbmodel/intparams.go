package dbmodel

import (
	"math/big"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// Integer arguments of PostgreSQL parameters the server types int2 or
// int4 (ir.IntParamCheck; frontend intparams.go): the server infers a
// parameter's type from where it appears, and an operand of a comparison
// or of arithmetic whose other operand is a column gets the column's
// type (points - $1, member_id = $2), as does the value a SET or an
// INSERT … VALUES writes to a column. For an int2 or int4 column, an
// argument out of the type's range fails the statement (the driver
// refuses to encode it, or the server to read its text). A parameter
// that appears anywhere else (in an expression, a function, beside a
// bigint) is left unchecked: its type is not known.

// intParamsOutOfRange returns the condition under which an argument of
// statement s lies outside the range of the int2 or int4 type PostgreSQL
// gives its parameter (False where s has none, or its driver's binding
// is not modelled).
func (m *lowerer) intParamsOutOfRange(s ir.Stmt) ir.Expr {
	var args []ir.Expr
	var stmt sqlir.Statement
	switch s := s.(type) {
	case *ir.Exec:
		if s.IntParams == ir.IntParamsUnchecked {
			return ir.False
		}
		args, stmt = s.Args, s.SQL
	case *ir.Select:
		if s.IntParams == ir.IntParamsUnchecked {
			return ir.False
		}
		args, stmt = s.Args, s.SQL
	default:
		return ir.False
	}
	if m.opt.Dialect != "postgres" {
		return ir.False
	}
	var out []ir.Expr
	for i, w := range m.intParamWidths(stmt) {
		if i >= len(args) || args[i] == nil || args[i].Sort() != ir.Int {
			continue
		}
		half := new(big.Int).Lsh(big.NewInt(1), uint(w-1))
		lo, hi := new(big.Int).Neg(half), new(big.Int).Sub(half, big.NewInt(1))
		out = append(out, ir.Or(ir.Cmp(ir.OpLt, args[i], ir.BigInt(lo)), ir.Cmp(ir.OpGt, args[i], ir.BigInt(hi))))
	}
	return ir.Or(out...)
}

// intParamRefusal returns how statement s fails on such an argument.
func intParamRefusal(s ir.Stmt) ir.IntParamCheck {
	switch s := s.(type) {
	case *ir.Exec:
		return s.IntParams
	case *ir.Select:
		return s.IntParams
	}
	return ir.IntParamsUnchecked
}

// paramUses collects, for each parameter of one statement, the widths of
// the int2/int4 types its occurrences give it (0: an occurrence whose
// type is another or not known).
type paramUses struct {
	m     *lowerer
	table string
	uses  map[int][]int
}

// intParamWidths returns the width (16 or 32) of each parameter of stmt
// that PostgreSQL types int2 or int4 at every occurrence (the widest
// where they differ: the argument is refused only out of that one's
// range, whichever the server picks).
func (m *lowerer) intParamWidths(stmt sqlir.Statement) map[int]int {
	u := &paramUses{m: m, uses: map[int][]int{}}
	if !u.statement(stmt) {
		return nil
	}
	// Every occurrence must have been seen: one the walk above misses
	// would have a type it does not know.
	seen := map[int]int{}
	sqlir.RewriteStatement(stmt, func(e sqlir.Expr) (sqlir.Expr, bool) {
		switch e := e.(type) {
		case *sqlir.Param:
			seen[e.Index]++
		case *sqlir.Unknown:
			for _, p := range e.Params {
				seen[p]++
			}
		}
		return nil, false
	})
	out := map[int]int{}
	for i, ws := range u.uses {
		if len(ws) < seen[i] {
			continue
		}
		w := 0
		for _, x := range ws {
			if x == 0 {
				w = 0
				break
			}
			w = max(w, x)
		}
		if w > 0 {
			out[i] = w
		}
	}
	return out
}

// statement records the parameters of stmt; false for a statement whose
// columns may belong to another table (a join, INSERT … SELECT) or of a
// kind not read here.
func (u *paramUses) statement(stmt sqlir.Statement) bool {
	switch q := stmt.(type) {
	case *sqlir.Update:
		if q.Join != nil {
			return false
		}
		u.table = q.Table
		u.sets(q.Set)
		u.expr(q.Where, 0)
		u.items(q.Returning)
		for _, o := range q.First {
			u.expr(o.Expr, 0)
		}
	case *sqlir.Insert:
		if q.FromSelect || (len(q.Columns) == 0 && len(q.Rows) > 0) {
			return false
		}
		u.table = q.Table
		for _, row := range q.Rows {
			for i, v := range row {
				w := 0
				if i < len(q.Columns) {
					w = u.columnWidth(&sqlir.ColRef{Name: q.Columns[i]})
				}
				u.expr(v, w)
			}
		}
		u.sets(q.OnConflict)
		for _, set := range q.OnConflictRows {
			u.sets(set)
		}
		u.expr(q.ConflictWhere, 0)
		u.items(q.Returning)
	case *sqlir.Delete:
		u.table = q.Table
		u.expr(q.Where, 0)
		u.items(q.Returning)
	case *sqlir.Select:
		if q.Complex {
			return false
		}
		u.table = q.Table
		u.items(q.Columns)
		u.expr(q.Where, 0)
		for _, o := range q.OrderBy {
			u.expr(o.Expr, 0)
		}
	default:
		return false
	}
	return true
}

func (u *paramUses) sets(as []sqlir.Assignment) {
	for _, a := range as {
		u.expr(a.Value, u.columnWidth(&sqlir.ColRef{Name: a.Col}))
	}
}

func (u *paramUses) items(its []sqlir.SelectItem) {
	for _, it := range its {
		if !it.Star {
			u.expr(it.Expr, 0)
		}
	}
}

// expr records the parameters of e, whose type, where e is a bare
// parameter, is the int2/int4 of width w (0: another or not known).
func (u *paramUses) expr(e sqlir.Expr, w int) {
	switch e := e.(type) {
	case *sqlir.Param:
		u.uses[e.Index] = append(u.uses[e.Index], w)
	case *sqlir.Binary:
		if e.Op.IsComparison() || e.Op.IsArith() {
			u.expr(e.X, u.columnWidth(e.Y))
			u.expr(e.Y, u.columnWidth(e.X))
			return
		}
		u.expr(e.X, 0)
		u.expr(e.Y, 0)
	case *sqlir.Unary:
		u.expr(e.X, 0)
	case *sqlir.IsNull:
		u.expr(e.X, 0)
	case *sqlir.Case:
		for _, wh := range e.Whens {
			u.expr(wh.Cond, 0)
			u.expr(wh.Val, 0)
		}
		u.expr(e.Else, 0)
	case *sqlir.Unknown:
		for _, p := range e.Params {
			u.uses[p] = append(u.uses[p], 0)
		}
	}
}

// columnWidth returns the width of e when it is a column of the
// statement's table that the schema declares int2 (16) or int4 (32); 0
// otherwise.
func (u *paramUses) columnWidth(e sqlir.Expr) int {
	c, ok := e.(*sqlir.ColRef)
	if !ok || (c.Table != "" && !strings.EqualFold(c.Table, u.table)) {
		return 0
	}
	t := u.m.schemaTable(u.table)
	if t == nil {
		return 0
	}
	for _, sc := range t.Columns {
		if strings.EqualFold(sc.Name, c.Name) {
			return pgIntWidth(sc.Type)
		}
	}
	return 0
}

// pgIntWidth returns the width of PostgreSQL type ty (as written) when it
// is int2 or int4 by one of its names (intType's widths); 0 for any other
// (bigint, numeric, a domain, whose base type is not read here).
func pgIntWidth(ty string) int {
	if w, unsigned, ok := intType(strings.Join(strings.Fields(strings.ToLower(ty)), " ")); ok && !unsigned && (w == 16 || w == 32) {
		return w
	}
	return 0
}
