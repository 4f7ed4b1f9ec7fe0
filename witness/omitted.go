package witness

import (
	"context"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
)

// maxOmittedRounds bounds how often ReplayExecute adds the rows a run
// showed the trace to rely on and runs again.
const maxOmittedRounds = 3

// Replayed is a counterexample's execution by ReplayExecute.
type Replayed struct {
	// Outcome is the last execution's, Run the run that gave it.
	Outcome *Outcome
	Run     *Run
	// Added says which rows the trace relied on without listing them.
	Added []string
	// Executions counts the entry's calls.
	Executions int
}

// ReplayExecute executes a counterexample's run — first with its failing
// INSERTs left to fail on the engine (see naturalRun) — and, while the
// constraint holds, adds the rows its trace relies on without listing them (see
// OmittedRows) and the parent rows its refused INSERTs need (see
// ParentRows) and executes again. The error is the first execution's
// (a failure of the harness).
func ReplayExecute(ctx context.Context, ex Executor, d sqlparse.Dialect, s *Schema, c *Constraint, pkg, entry string, cex *Counterexample, run *Run) (*Replayed, error) {
	var added []string
	if refs, notes := c.ReferencedRows(s, run.Rows); len(refs) > 0 {
		next := *run
		next.Rows = append(append([]Row(nil), run.Rows...), refs...)
		run, added = &next, notes
	}
	nat, tried := executeNatural(ctx, ex, d, s, c, pkg, entry, run)
	if nat != nil {
		nat.Added = append(added, nat.Added...)
		return nat, nil
	}
	out, err := Execute(ctx, ex, d, s, c, pkg, entry, run)
	if err != nil {
		return nil, err
	}
	r := &Replayed{Outcome: out, Run: run, Executions: 1, Added: added}
	if tried {
		r.Executions++
	}
	if next, why := r.clocked(ctx, ex, d, s, c, pkg, entry, cex); next != nil {
		run = next
		r.Added = append(r.Added, why...)
	}
	for i := 0; i < maxOmittedRounds && !r.Outcome.Broken() && r.Outcome.Call != nil; i++ {
		rows, why := cex.OmittedRows(d, s, r.Run.Rows, r.Outcome.Call.Statements)
		parents, pwhy := ParentRows(d, s, append(append([]Row(nil), r.Run.Rows...), rows...), r.Outcome.Call.Failed)
		rows, why = append(rows, parents...), append(why, pwhy...)
		if len(rows) == 0 {
			break
		}
		next := &Run{Rows: append(append([]Row(nil), r.Run.Rows...), rows...), Inputs: run.Inputs, Fail: run.Fail, Unordered: run.Unordered,
			// A row made to match a WHERE may break the constraint or a
			// fact: it is not seeded then.
			Prune: append([]string{c.PruneQuery()}, pruneQueries(run.Facts)...), Facts: run.Facts}
		o, err := Execute(ctx, ex, d, s, c, pkg, entry, next)
		r.Executions++
		if err != nil {
			break
		}
		r.Run, r.Outcome = next, o
		r.Added = append(r.Added, why...)
	}
	return r, nil
}

// OmittedRows are rows the counterexample's trace relies on without
// listing them: its UPDATE and DELETE steps say they affected rows
// (rowsAffected ≥ 1), but dbverify's counterexample lists only the
// watched row and the rows SELECTs read, not the other rows such a write
// matched. For each such step, given the statements an execution of the
// run actually ran (the same statement, the same occurrence), it builds a
// row of the statement's table from a seeded row of that table with the
// values a RETURNING gave the Scan after it (see returnedValues) and the
// WHERE's equalities and bounds on bound arguments made true. A row whose
// key a seeded row already has is not added.
func (c *Counterexample) OmittedRows(d sqlparse.Dialect, s *Schema, seeded []Row, ran []Statement) (rows []Row, notes []string) {
	executed := newRanArgs(ran)
	have := append([]Row(nil), seeded...)
	for i, st := range c.Steps {
		if st.Kind != "sql" {
			continue
		}
		args, done := executed.next(st.Text)
		if st.failed() || !done || !c.affects(i) {
			continue
		}
		table, where, ok := writeTarget(d, st.Text)
		if !ok {
			continue
		}
		row, ok := matchingRow(s, have, table, where, args, c.returnedValues(d, s, i, args))
		if !ok {
			continue
		}
		have = append(have, row)
		rows = append(rows, row)
		notes = append(notes, fmt.Sprintf("seeded %s %s: the trace's %s at %s matched a row the counterexample does not list",
			row.Table, FormatRows([]map[string]string{row.Values}), firstWord(st.Text), st.Position))
	}
	return rows, notes
}

// ranArgs pairs the trace's sql steps with the statements an execution
// ran (Run's statements, in order): a step is the execution's statement
// of the same text (normSQL) and the same occurrence.
type ranArgs struct {
	executed   map[string][][]string
	occurrence map[string]int
}

func newRanArgs(ran []Statement) *ranArgs {
	r := &ranArgs{executed: map[string][][]string{}, occurrence: map[string]int{}}
	for _, st := range ran {
		k := normSQL(st.SQL)
		r.executed[k] = append(r.executed[k], st.Args)
	}
	return r
}

// next returns the arguments the execution bound to the next sql step of
// the trace, whose text is text (call it for every sql step, in order);
// false when the execution ran that statement fewer times.
func (r *ranArgs) next(text string) ([]string, bool) {
	k := normSQL(text)
	n := r.occurrence[k]
	r.occurrence[k]++
	if n >= len(r.executed[k]) {
		return nil, false
	}
	return r.executed[k][n], true
}

// affects reports whether the trace's sql step i matched rows: its
// rowsAffected is at least 1, or (a write … RETURNING read with QueryRow)
// the Scan that follows it found a row.
func (c *Counterexample) affects(i int) bool {
	st := c.Steps[i]
	if v, ok := st.Values["rowsAffected"]; ok {
		n, err := strconv.Atoi(v)
		return err == nil && n >= 1
	}
	if !strings.Contains(strings.ToUpper(st.Text), "RETURNING") {
		return false
	}
	for _, next := range c.Steps[i+1:] {
		if next.Kind != "sql" {
			continue
		}
		return strings.Contains(next.Text, "Scan(") && !next.failed() && next.Values["err"] == "false"
	}
	return false
}

// normSQL is a statement's text without leading comments (sqlc's "--
// name: …" line), its spaces collapsed.
func normSQL(q string) string { return strings.Join(strings.Fields(stripLeadingComments(q)), " ") }

func firstWord(q string) string {
	if f := strings.Fields(q); len(f) > 0 {
		return strings.ToUpper(f[0])
	}
	return q
}

// writeTarget is the table and WHERE of an UPDATE or DELETE.
func writeTarget(d sqlparse.Dialect, text string) (string, sqlir.Expr, bool) {
	stmt, err := parseTraceSQL(d, text)
	if err != nil {
		return "", nil, false
	}
	switch st := stmt.(type) {
	case *sqlir.Update:
		return st.Table, st.Where, st.Where != nil
	case *sqlir.Delete:
		return st.Table, st.Where, st.Where != nil
	}
	return "", nil, false
}

// matchingRow builds a row of table that where (with args bound) holds
// on: a copy of the last seeded row of the table (the watched row comes
// last), or of zero values, with the values the trace shows the row held
// (returned: what a RETURNING gave back) and each conjunct col = v,
// col >= v, … made true. ok is false when nothing binds the row (no
// conjunct on a column), or when a seeded row already has its key or all
// its values.
func matchingRow(s *Schema, have []Row, table string, where sqlir.Expr, args []string, returned map[string]string) (Row, bool) {
	row := Row{Table: tableName(s, table), Values: map[string]string{}}
	for _, h := range have {
		if strings.EqualFold(h.Table, row.Table) {
			row.Values = map[string]string{}
			for k, v := range h.Values {
				row.Values[k] = v
			}
		}
	}
	fillZero(&row, s)
	for col, v := range returned {
		row.Values[col] = v
	}
	bound := false
	for _, cj := range conjuncts(where) {
		b, ok := cj.(*sqlir.Binary)
		if !ok {
			continue
		}
		col, op, v, ok := columnBound(b, args)
		if !ok {
			continue
		}
		bound = true
		row.Values[col] = satisfy(row.Values[col], op, v)
	}
	if !bound {
		return Row{}, false
	}
	for _, h := range have {
		if strings.EqualFold(h.Table, row.Table) && sameKey(s.Key(row.Table), h.Values, row.Values) {
			return Row{}, false
		}
	}
	return row, true
}

func conjuncts(e sqlir.Expr) []sqlir.Expr {
	if b, ok := e.(*sqlir.Binary); ok && b.Op == sqlir.OpAnd {
		return append(conjuncts(b.X), conjuncts(b.Y)...)
	}
	return []sqlir.Expr{e}
}

// columnBound reads col op value from a comparison of a column with a
// bound argument or a literal (either side).
func columnBound(b *sqlir.Binary, args []string) (col, op, v string, ok bool) {
	flip := map[string]string{"=": "=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
	if _, known := flip[b.Op.String()]; !known {
		return "", "", "", false
	}
	c, isCol := b.X.(*sqlir.ColRef)
	other, op := b.Y, b.Op.String()
	if !isCol {
		if c, isCol = b.Y.(*sqlir.ColRef); !isCol {
			return "", "", "", false
		}
		other, op = b.X, flip[b.Op.String()]
	}
	switch x := other.(type) {
	case *sqlir.Param:
		if x.Index < 0 || x.Index >= len(args) || args[x.Index] == "NULL" {
			return "", "", "", false
		}
		v = args[x.Index]
	case *sqlir.Num:
		v = x.Val.RatString()
	case *sqlir.Str:
		v = x.Val
	default:
		return "", "", "", false
	}
	return strings.ToLower(c.Name), op, v, true
}

// satisfy returns a value that makes cur op v true: cur when it already
// does, else v (or the integer next to it for a strict bound).
func satisfy(cur, op, v string) string {
	if op == "=" {
		return v
	}
	want, ok := new(big.Rat).SetString(v)
	if !ok {
		return cur
	}
	if have, ok := new(big.Rat).SetString(cur); ok {
		c := have.Cmp(want)
		if op == ">=" && c >= 0 || op == ">" && c > 0 || op == "<=" && c <= 0 || op == "<" && c < 0 {
			return cur
		}
	}
	switch op {
	case ">":
		want.Add(want, big.NewRat(1, 1))
	case "<":
		want.Sub(want, big.NewRat(1, 1))
	}
	if want.IsInt() {
		return want.Num().String()
	}
	return want.FloatString(10)
}
