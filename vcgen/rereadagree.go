package vcgen

import (
	"github.com/dbverify/dbverify/ir"
)

// RereadAgreement is the condition under which the path's executions of
// queries of the same rows agree, as every real run's do (RereadRows):
// for each two executions of one ir.RowsSite.Rows with nothing written
// to their tables between them, if their arguments are equal, then
// row by row, as far as both read, rows.Next() gives the same answer and
// the columns both scanned (where neither scan failed) hold the same
// values. A counterexample RereadRows rejects may have a sibling in
// which the reads agree: solving the path again under this condition
// finds it (a real bug), or shows there is none (the counterexample
// needed the reads to disagree). It is ir.True when the path runs no
// such two executions.
func (pf *PathFormula) RereadAgreement() ir.Expr {
	reads, writes := pf.symbolicReads()
	var conds []ir.Expr
	for i, a := range reads {
		for _, b := range reads[i+1:] {
			if a.site.Rows != b.site.Rows || a.args == nil || b.args == nil || len(a.args) != len(b.args) ||
				writtenBetween(writes, a.step, b.step, a.site.Tables) {
				continue
			}
			sameArgs := make([]ir.Expr, len(a.args))
			for k := range a.args {
				sameArgs[k] = ir.Eq(a.args[k], b.args[k])
			}
			conds = append(conds, ir.Implies(ir.And(sameArgs...), agreement(a, b)))
		}
	}
	return ir.And(conds...)
}

// A symbolicRead is one execution of a query on the path over the path's
// SSA versions: its arguments (nil when one is not known) and its rows.
type symbolicRead struct {
	site *ir.RowsSite
	step int
	args []ir.Expr
	rows []symbolicRow
}

// symbolicRow is one rows.Next() of an execution: its result, and the
// values Scan read of the row by result column, each with the condition
// that its scan failed.
type symbolicRow struct {
	more    ir.Expr
	scanned map[string]symbolicScan
}

type symbolicScan struct {
	value, failed ir.Expr
}

// symbolicReads groups the path's result-set variables (ir.Var.Rows) into
// executions, as RereadRows does with a model's values, and lists the
// steps that write tables.
func (pf *PathFormula) symbolicReads() ([]*symbolicRead, []pathWrite) {
	var reads []*symbolicRead
	var writes []pathWrite
	current := map[*ir.RowsSite]*symbolicRead{}
	for i, st := range pf.Steps {
		if db := st.Edge.Stmt.Source().DB; db != nil && len(db.Writes) > 0 {
			writes = append(writes, pathWrite{step: i, tables: db.Writes})
		}
		for j, v := range stepVars(st) {
			if v.Rows == nil || j >= len(st.Defs) {
				continue
			}
			site := v.Rows.Site
			switch v.Rows.Role {
			case ir.RowsStart:
				r := &symbolicRead{site: site, step: i, args: pf.argExprs(site.Args, i)}
				reads = append(reads, r)
				current[site] = r
			case ir.RowsNext:
				if r := current[site]; r != nil {
					r.rows = append(r.rows, symbolicRow{more: st.Defs[j], scanned: map[string]symbolicScan{}})
				}
			case ir.RowsScan:
				if r := current[site]; r != nil && len(r.rows) > 0 {
					r.rows[len(r.rows)-1].scanned[v.Rows.Column] = symbolicScan{value: st.Defs[j], failed: pf.errorAfter(v.Rows.Err, i)}
				}
			}
		}
	}
	return reads, writes
}

// agreement is the condition that executions a and b read the same rows,
// as far as both read.
func agreement(a, b *symbolicRead) ir.Expr {
	var conds []ir.Expr
	for k := 0; k < len(a.rows) && k < len(b.rows); k++ {
		ra, rb := a.rows[k], b.rows[k]
		conds = append(conds, ir.Eq(ra.more, rb.more))
		for c, sa := range ra.scanned {
			if sb, ok := rb.scanned[c]; ok && sa.value.Sort() == sb.value.Sort() {
				read := ir.And(ir.Not(sa.failed), ir.Not(sb.failed))
				conds = append(conds, ir.Implies(read, ir.Eq(sa.value, sb.value)))
			}
		}
	}
	return ir.And(conds...)
}

// argExprs returns args over the versions in force before step i (nil
// when one is not known or reads a variable not met yet).
func (pf *PathFormula) argExprs(args []ir.Expr, i int) []ir.Expr {
	before := pf.Before(i)
	out := []ir.Expr{}
	for _, a := range args {
		if a == nil {
			return nil
		}
		vars := map[*ir.Var]bool{}
		ir.CollectVars(a, vars)
		m := make(map[*ir.Var]ir.Expr, len(vars))
		for v := range vars {
			cur, ok := before[v]
			if !ok {
				return nil
			}
			m[v] = cur
		}
		out = append(out, ir.Substitute(a, m))
	}
	return out
}

// errorAfter is the version of error flag err after step i (false when
// there is none, as failedAt reads it).
func (pf *PathFormula) errorAfter(err *ir.Var, i int) ir.Expr {
	if err == nil {
		return ir.False
	}
	if cur, ok := pf.Steps[i].After[err]; ok {
		return cur
	}
	return ir.False
}
