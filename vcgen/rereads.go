package vcgen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dbverify/dbverify/ir"
)

// A rowsRead is one execution of a query on a path (ir/rows.go): its
// arguments' values and, row by row, what rows.Next() returned and the
// values rows.Scan read.
type rowsRead struct {
	site *ir.RowsSite
	step int
	args []string
	rows []readRow
}

// readRow is one rows.Next() of an execution: whether it returned a row,
// and the values Scan read of it by result column (ir.RowsMark.Column).
type readRow struct {
	more    string
	scanned map[string]string
}

// RereadRows returns why the counterexample m of the path may be
// spurious, "" when it is not: two executions of queries of the same
// rows (ir.RowsSite.Rows: the same table, WHERE, order and limit, the
// same argument values, nothing written to its tables between them)
// read different rows — one found no row where the other found one, or
// they scanned different values —, which no real run does, as no run
// has both results of one query (independent tester adv16 fu3). The
// model keeps no result set from one execution to the next; two
// executions on exclusive branches, or one, are never compared.
func (pf *PathFormula) RereadRows(m Model) string {
	var reads []*rowsRead
	current := map[*ir.RowsSite]*rowsRead{}
	var writes []pathWrite
	for i, st := range pf.Steps {
		if db := st.Edge.Stmt.Source().DB; db != nil && len(db.Writes) > 0 {
			writes = append(writes, pathWrite{step: i, tables: db.Writes})
		}
		for j, v := range stepVars(st) {
			if v.Rows == nil || j >= len(st.Defs) {
				continue
			}
			val, ok := pf.valueOf(st.Defs[j], m)
			if !ok {
				continue
			}
			site := v.Rows.Site
			switch v.Rows.Role {
			case ir.RowsStart:
				r := &rowsRead{site: site, step: i, args: pf.argValues(site.Args, i, m)}
				reads = append(reads, r)
				current[site] = r
			case ir.RowsNext:
				if r := current[site]; r != nil {
					r.rows = append(r.rows, readRow{more: val, scanned: map[string]string{}})
				}
			case ir.RowsScan:
				r := current[site]
				if r == nil || len(r.rows) == 0 || pf.failedAt(v.Rows.Err, i, m) {
					continue
				}
				r.rows[len(r.rows)-1].scanned[v.Rows.Column] = val
			}
		}
	}
	for i, a := range reads {
		for _, b := range reads[i+1:] {
			if a.site.Rows != b.site.Rows || a.args == nil || !slices.Equal(a.args, b.args) || writtenBetween(writes, a.step, b.step, a.site.Tables) {
				continue
			}
			if k, ok := disagree(a, b); ok {
				return fmt.Sprintf("different rows (row %d) from %s with the same arguments, nothing written to %s between them: the model does not keep a query's rows from one execution to the next, a real run reads the same rows both times",
					k+1, executions(a.site, b.site), strings.Join(a.site.Tables, ", "))
			}
		}
	}
	return ""
}

// executions names the queries of two executions that read the same rows.
func executions(a, b *ir.RowsSite) string {
	if a.Text == b.Text {
		return fmt.Sprintf("two executions of %q", a.Text)
	}
	return fmt.Sprintf("%q and %q (the same rows)", a.Text, b.Text)
}

// pathWrite is a step of the path that writes tables.
type pathWrite struct {
	step   int
	tables []string
}

// writtenBetween reports whether a step between steps from and to (the
// starts of two executions) writes one of tables.
func writtenBetween(writes []pathWrite, from, to int, tables []string) bool {
	for _, w := range writes {
		if w.step <= from || w.step >= to {
			continue
		}
		for _, t := range w.tables {
			if slices.Contains(tables, t) {
				return true
			}
		}
	}
	return false
}

// disagree returns the first row at which executions a and b, as far as
// both read, differ.
func disagree(a, b *rowsRead) (int, bool) {
	for k := 0; k < len(a.rows) && k < len(b.rows); k++ {
		ra, rb := a.rows[k], b.rows[k]
		if ra.more != rb.more {
			return k, true
		}
		for c, va := range ra.scanned {
			if vb, ok := rb.scanned[c]; ok && va != vb {
				return k, true
			}
		}
	}
	return 0, false
}

// stepVars returns the variables step st defines, in the order of its
// Defs.
func stepVars(st Step) []*ir.Var {
	switch s := st.Edge.Stmt.(type) {
	case *ir.Havoc:
		return s.Vars
	case *ir.Assign:
		return s.Lhs
	}
	return nil
}

// valueOf is the value of version v in m, as text.
func (pf *PathFormula) valueOf(v *ir.Var, m Model) (string, bool) {
	x, err := ir.Eval(v, m.Value)
	if err != nil {
		return "", false
	}
	return x.String(), true
}

// argValues returns the values of args before step i (nil when one is
// not known).
func (pf *PathFormula) argValues(args []ir.Expr, i int, m Model) []string {
	before := pf.Before(i)
	env := func(v *ir.Var) (ir.Value, bool) {
		if cur, ok := before[v]; ok {
			return m.Value(cur)
		}
		return ir.Value{}, false
	}
	out := []string{}
	for _, a := range args {
		if a == nil {
			return nil
		}
		x, err := ir.Eval(a, env)
		if err != nil {
			return nil
		}
		out = append(out, x.String())
	}
	return out
}

// failedAt reports whether error flag err holds after step i.
func (pf *PathFormula) failedAt(err *ir.Var, i int, m Model) bool {
	if err == nil {
		return false
	}
	cur, ok := pf.Steps[i].After[err]
	if !ok {
		return false
	}
	s, ok := pf.valueOf(cur, m)
	return !ok || s == "true"
}
