package witness

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
)

// returnedValues are the values of the row that the write … RETURNING of
// sql step i matched, as the row held them before the write, read off the
// Scan that follows the step (the trace's value of each Scan target, by
// position): a DELETE returns the deleted row as it was; an UPDATE
// returns it after its SET, so a column the SET assigns is given back
// only when the assignment adds or subtracts a bound argument or a
// number (col = col - $1: the value before is the returned one plus the
// argument), and left out otherwise. args are the statement's bound
// arguments in the execution. A text column's value is taken when the
// trace shows a string (quoted); an unquoted one is the model's code of
// a string the replay cannot decode here.
func (c *Counterexample) returnedValues(d sqlparse.Dialect, s *Schema, i int, args []string) map[string]string {
	table, set, returning := writeReturning(d, c.Steps[i].Text)
	if len(returning) == 0 {
		return nil
	}
	targets, scanned := c.scannedAfter(i)
	if len(targets) != len(returning) {
		return nil
	}
	t := s.Table(table)
	out := map[string]string{}
	for j, item := range returning {
		col, ok := item.Expr.(*sqlir.ColRef)
		v, known := scanned[targets[j]]
		if item.Star || !ok || !known || v == "NULL" {
			continue
		}
		name := strings.ToLower(col.Name)
		if u, err := strconv.Unquote(v); err == nil && strings.HasPrefix(v, `"`) {
			v = u
		} else if t != nil && ColumnClass(columnType(t, name)) == ClassText {
			continue
		}
		if e, assigned := set[name]; assigned {
			if v, ok = valueBefore(name, e, v, args); !ok {
				continue
			}
		}
		out[name] = v
	}
	return out
}

// writeReturning is the table, the assignments (column, lower-case →
// value) and the RETURNING list of a DELETE or UPDATE; RETURNING is nil
// for another statement.
func writeReturning(d sqlparse.Dialect, text string) (table string, set map[string]sqlir.Expr, returning []sqlir.SelectItem) {
	stmt, err := parseTraceSQL(d, text)
	if err != nil {
		return "", nil, nil
	}
	switch st := stmt.(type) {
	case *sqlir.Delete:
		return st.Table, nil, st.Returning
	case *sqlir.Update:
		if st.Join != nil {
			return "", nil, nil
		}
		set = map[string]sqlir.Expr{}
		for _, a := range st.Set {
			set[strings.ToLower(a.Col)] = a.Value
		}
		return st.Table, set, st.Returning
	}
	return "", nil, nil
}

// parseTraceSQL parses a trace step's statement (named parameters as ?
// outside PostgreSQL).
func parseTraceSQL(d sqlparse.Dialect, text string) (sqlir.Statement, error) {
	if d != sqlparse.Postgres {
		text = namedParam.ReplaceAllString(text, "?")
	}
	return sqlparse.Parse(d, text)
}

// scannedAfter are the targets of the Scan that follows sql step i (the
// next sql step, when it scans) and the values the trace shows there.
func (c *Counterexample) scannedAfter(i int) (targets []string, values map[string]string) {
	for _, next := range c.Steps[i+1:] {
		if next.Kind != "sql" {
			continue
		}
		m := scanArgs.FindStringSubmatch(next.Text)
		if m == nil {
			return nil, nil
		}
		for _, a := range strings.Split(m[1], ",") {
			targets = append(targets, strings.TrimPrefix(strings.TrimSpace(a), "&"))
		}
		return targets, next.Values
	}
	return nil, nil
}

// valueBefore is the value column col held before an assignment col = e
// that made it after: e is col + x or col - x with x a bound argument or
// a number (either side of +).
func valueBefore(col string, e sqlir.Expr, after string, args []string) (string, bool) {
	b, ok := e.(*sqlir.Binary)
	if !ok || b.Op != sqlir.OpAdd && b.Op != sqlir.OpSub {
		return "", false
	}
	x, other := b.X, b.Y
	if !isColumn(x, col) {
		if b.Op == sqlir.OpSub || !isColumn(other, col) {
			return "", false
		}
		x, other = other, x
	}
	delta, ok := numberOf(other, args)
	if !ok {
		return "", false
	}
	v, ok := new(big.Rat).SetString(after)
	if !ok {
		return "", false
	}
	if b.Op == sqlir.OpAdd {
		v.Sub(v, delta)
	} else {
		v.Add(v, delta)
	}
	if v.IsInt() {
		return v.Num().String(), true
	}
	return v.FloatString(10), true
}

func isColumn(e sqlir.Expr, col string) bool {
	c, ok := e.(*sqlir.ColRef)
	return ok && strings.EqualFold(c.Name, col)
}

// numberOf is a bound argument's or a literal's number.
func numberOf(e sqlir.Expr, args []string) (*big.Rat, bool) {
	switch x := e.(type) {
	case *sqlir.Num:
		return x.Val, true
	case *sqlir.Param:
		if x.Index < 0 || x.Index >= len(args) {
			return nil, false
		}
		return new(big.Rat).SetString(args[x.Index])
	}
	return nil, false
}
