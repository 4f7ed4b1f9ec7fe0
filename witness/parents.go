package witness

import (
	"fmt"
	"strings"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
)

// ParentRows are the rows of referenced tables that the INSERTs a run's
// database refused (failed, with their arguments) need: for each foreign
// key of the inserted table (the schema's REFERENCES) whose columns the
// INSERT sets to values no seeded row of the parent table has, a parent
// row with those values, its other columns zero. A counterexample lists
// the rows the model reads, not the parents of the rows the program
// inserts (simplebank's TransferTx inserts a transfer from one account
// to another, and only the account it debits is in the trace), so the
// INSERT fails on the real engine where the model let it succeed.
func ParentRows(d sqlparse.Dialect, s *Schema, seeded []Row, failed []Statement) (rows []Row, notes []string) {
	have := append([]Row(nil), seeded...)
	for _, st := range failed {
		q := st.SQL
		if d != sqlparse.Postgres {
			q = namedParam.ReplaceAllString(q, "?")
		}
		stmt, err := sqlparse.Parse(d, q)
		if err != nil {
			continue
		}
		ins, ok := stmt.(*sqlir.Insert)
		if !ok || ins.FromSelect {
			continue
		}
		t := s.Table(ins.Table)
		if t == nil {
			continue
		}
		for _, vals := range ins.Rows {
			for _, fk := range t.ForeignKeys {
				row, ok := parentRow(s, fk, ins.Columns, vals, st.Args)
				if !ok || hasRow(s, have, row) {
					continue
				}
				have = append(have, row)
				rows = append(rows, row)
				notes = append(notes, fmt.Sprintf("seeded %s %s: the parent row the refused %s into %s refers to (%s)",
					row.Table, FormatRows([]map[string]string{row.Values}), firstWord(stripLeadingComments(st.SQL)), t.Name, strings.Join(fk.Columns, ", ")))
			}
		}
	}
	return rows, notes
}

// parentRow is the row of fk's parent table that an inserted row with
// values vals (of columns cols, args bound) refers to; ok is false when
// the INSERT does not set every column of fk to a known non-NULL value.
func parentRow(s *Schema, fk sqlir.ForeignKey, cols []string, vals []sqlir.Expr, args []string) (Row, bool) {
	ref := fk.RefColumns
	if len(ref) == 0 {
		ref = s.Key(fk.RefTable)
	}
	parent := s.Table(fk.RefTable)
	if parent == nil || len(ref) != len(fk.Columns) {
		return Row{}, false
	}
	row := Row{Table: parent.Name, Values: map[string]string{}}
	for i, c := range fk.Columns {
		v, ok := insertedValue(c, cols, vals, args)
		if !ok {
			return Row{}, false
		}
		row.Values[strings.ToLower(ref[i])] = v
	}
	fillZero(&row, s)
	return row, true
}

// insertedValue is the value an INSERT's row sets column col to.
func insertedValue(col string, cols []string, vals []sqlir.Expr, args []string) (string, bool) {
	for i, c := range cols {
		if !strings.EqualFold(c, col) || i >= len(vals) {
			continue
		}
		switch x := vals[i].(type) {
		case *sqlir.Param:
			if x.Index >= 0 && x.Index < len(args) && args[x.Index] != "NULL" {
				return args[x.Index], true
			}
		case *sqlir.Num:
			return x.Val.RatString(), true
		case *sqlir.Str:
			return x.Val, true
		}
		return "", false
	}
	return "", false
}

// hasRow reports whether rows hold a row of row's table with row's key
// (or, without a key, row's values of the referenced columns).
func hasRow(s *Schema, rows []Row, row Row) bool {
	for _, h := range rows {
		if !strings.EqualFold(h.Table, row.Table) {
			continue
		}
		if sameKey(s.Key(row.Table), h.Values, row.Values) {
			return true
		}
	}
	return false
}
