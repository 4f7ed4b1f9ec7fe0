package frontend

import (
	"fmt"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
)

// The variables a query's result set is read through are marked
// (ir.RowsMark, ir/rows.go), so that a counterexample in which two
// executions of one query read different rows, which no real run does
// when nothing writes their tables between them, is not reported as
// certain (vcgen.PathFormula.RereadRows).

// markRowsStart marks errV, havocked where the query of rows object o
// runs, as the start of a result set of sel.
func markRowsStart(o *object, sel *sqlir.Select, errV *ir.Var) {
	text := compactSQL(o.text)
	o.rowsSite = &ir.RowsSite{Text: text, Tables: sel.Tables(), Rows: rowsKey(sel, text), Args: o.args}
	errV.Rows = &ir.RowsMark{Site: o.rowsSite, Role: ir.RowsStart}
}

// rowsKey names the rows sel returns (ir.RowsSite.Rows): its table,
// WHERE, ORDER BY and LIMIT, or text where the model does not read them
// all (a join, grouping, an OFFSET or a LIMIT not a literal).
func rowsKey(sel *sqlir.Select, text string) string {
	if sel.Complex || sel.SkipsRows {
		return text
	}
	var b strings.Builder
	fmt.Fprintf(&b, "FROM %s", strings.ToLower(sel.Table))
	if sel.Where != nil {
		fmt.Fprintf(&b, " WHERE %s", sqlparse.Format(sel.Where))
	}
	for _, o := range sel.OrderBy {
		fmt.Fprintf(&b, " ORDER BY %s desc=%v", sqlparse.Format(o.Expr), o.Desc)
	}
	if sel.Limit > 0 {
		fmt.Fprintf(&b, " LIMIT %d", sel.Limit)
	}
	return b.String()
}

// scannedColumn names result column i of sel for ir.RowsMark.Column.
func scannedColumn(sel *sqlir.Select, i int) string {
	if i < len(sel.Columns) && !sel.Columns[i].Star && sel.Columns[i].Expr != nil {
		return sqlparse.Format(sel.Columns[i].Expr)
	}
	return fmt.Sprintf("#%d", i)
}

// markNext marks v as the result of rows.Next() on rows (nil: not
// known).
func markNext(rows *object, v *ir.Var) {
	if rows != nil && rows.rowsSite != nil {
		v.Rows = &ir.RowsMark{Site: rows.rowsSite, Role: ir.RowsNext}
	}
}

// copyScanned copies the values a Scan of rows src read into targets
// (errV: whether it failed) into ghosts marked with the query.
func (t *translator) copyScanned(src *object, sel *sqlir.Select, targets []*ir.Var, errV *ir.Var) {
	if src.kind != objRows || src.rowsSite == nil {
		return
	}
	var lhs []*ir.Var
	var rhs []ir.Expr
	for i, tv := range targets {
		if tv == nil {
			continue
		}
		g := t.p.NewVar(fmt.Sprintf("$scanned%d", i), tv.Type, ir.Ghost)
		g.Rows = &ir.RowsMark{Site: src.rowsSite, Role: ir.RowsScan, Index: i, Err: errV, Column: scannedColumn(sel, i)}
		lhs = append(lhs, g)
		rhs = append(rhs, tv)
	}
	if len(lhs) > 0 {
		t.emit(&ir.Assign{Lhs: lhs, Rhs: rhs, Info: t.info(ir.KindModel, "the values the Scan read")})
	}
}
