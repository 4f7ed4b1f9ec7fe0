package witness

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
)

// Constraint is a row-level constraint as SQL over one table.
type Constraint struct {
	Text  string // as the user wrote it
	Table string // as written
	// Cond is the condition with the table qualifier removed.
	Cond string
	// Columns are the columns the condition names (lower-case).
	Columns []string
	// From is the table as the engine must be told it (quoted: see
	// Schema.TableSQL); "" for Table as written.
	From string
	// Ref, for a reference ("T.c IN (SELECT k FROM U)"), is what it
	// refers to; Cond is then the condition as written, qualifiers kept.
	Ref *sqlir.Reference
}

// from is the table as the queries of c name it.
func (c *Constraint) from() string {
	if c.From != "" {
		return c.From
	}
	return c.Table
}

// ParseConstraint reads "accounts.balance >= 0"; defaultTable is used for a
// constraint with bare column names.
func ParseConstraint(text, defaultTable string) (*Constraint, error) {
	c, err := sqlparse.ParseConstraint(text, defaultTable)
	if errors.Is(err, sqlparse.ErrNotOneRow) {
		if ref, rerr := sqlparse.ParseReference(text, defaultTable); rerr == nil {
			return &Constraint{Text: text, Table: ref.Table, Cond: text, Columns: []string{strings.ToLower(ref.Column)}, Ref: ref}, nil
		}
	}
	if err != nil {
		return nil, err
	}
	if c.Table == "" {
		return nil, fmt.Errorf("constraint %q names no table", text)
	}
	q := regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(c.Table) + `\s*\.\s*`)
	out := &Constraint{Text: text, Table: c.Table, Cond: q.ReplaceAllString(text, "")}
	seen := map[string]bool{}
	sqlir.Rewrite(c.Expr, func(e sqlir.Expr) (sqlir.Expr, bool) {
		if r, ok := e.(*sqlir.ColRef); ok {
			if n := strings.ToLower(r.Name); !seen[n] {
				seen[n] = true
				out.Columns = append(out.Columns, n)
			}
		}
		return nil, false
	})
	return out, nil
}

// ViolationQuery selects the rows that break the constraint. A row whose
// condition is NULL does not break it (SQL CHECK semantics).
func (c *Constraint) ViolationQuery() string {
	return fmt.Sprintf("SELECT * FROM %s WHERE NOT (%s)", c.from(), c.Cond)
}

// PruneQuery deletes the rows that do not satisfy the constraint (NULL
// included), so that a random initial state satisfies it.
func (c *Constraint) PruneQuery() string {
	return fmt.Sprintf("DELETE FROM %s WHERE NOT (%s) OR (%s) IS NULL", c.from(), c.Cond, c.Cond)
}

// CheckConstraint is the schema's CHECK named name as a constraint (text is
// how dbverify reports it); nil when the schema has no such CHECK.
func CheckConstraint(s *Schema, name, text string) *Constraint {
	for _, k := range sortedKeys(s.Tables) {
		t := s.Tables[k]
		for _, chk := range t.Checks {
			if !strings.EqualFold(chk.Name, name) {
				continue
			}
			c, err := ParseConstraint(chk.Text, t.Name)
			if err != nil {
				return nil
			}
			c.Text = text
			return c
		}
	}
	return nil
}

// ReferencedRows are, for a reference constraint, the rows of the
// referenced table that the seeded rows of the referencing table refer
// to and that rows do not hold: a counterexample lists the referenced
// row it watches (when it exists on entry), not the parents of the other
// rows it shows, and an initial state must keep the constraint. Each has
// the referenced value, its other columns zero. None for a row
// constraint.
func (c *Constraint) ReferencedRows(s *Schema, rows []Row) (out []Row, notes []string) {
	if c.Ref == nil {
		return nil, nil
	}
	have := append([]Row(nil), rows...)
	for _, r := range rows {
		if !strings.EqualFold(r.Table, c.Ref.Table) {
			continue
		}
		v, ok := r.Values[strings.ToLower(c.Ref.Column)]
		if !ok || v == "NULL" {
			continue
		}
		row := Row{Table: c.Ref.RefTable, Values: map[string]string{strings.ToLower(c.Ref.RefColumn): v}}
		if t := s.Table(c.Ref.RefTable); t != nil {
			row.Table = t.Name
		}
		if referenced(have, row, c.Ref.RefColumn) {
			continue
		}
		fillZero(&row, s)
		have = append(have, row)
		out = append(out, row)
		notes = append(notes, fmt.Sprintf("seeded %s %s: the row a seeded %s row refers to (%s)", row.Table, FormatRows([]map[string]string{row.Values}), r.Table, c.Text))
	}
	if row, note, ok := c.anyReferenced(s, have); ok {
		out, notes = append(out, row), append(notes, note)
	}
	return out, notes
}

// anyReferenced is, for the IN form, a row of the referenced table when
// a seeded row of the referencing table has a NULL column and none is
// seeded: NULL IN (SELECT k FROM U) is FALSE over an empty U, so such an
// initial state needs some row of U. Its key is one more than every
// number the rows hold in the referenced or referencing column.
func (c *Constraint) anyReferenced(s *Schema, have []Row) (Row, string, bool) {
	if c.Ref.NullBreaks {
		return Row{}, "", false
	}
	col, ref := strings.ToLower(c.Ref.Column), strings.ToLower(c.Ref.RefColumn)
	null, next := false, int64(1)
	for _, h := range have {
		if strings.EqualFold(h.Table, tableName(s, c.Ref.RefTable)) {
			return Row{}, "", false
		}
		if strings.EqualFold(h.Table, c.Ref.Table) && h.Values[col] == "NULL" {
			null = true
		}
		for _, v := range []string{h.Values[col], h.Values[ref]} {
			if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= next {
				next = n + 1
			}
		}
	}
	if !null {
		return Row{}, "", false
	}
	row := Row{Table: tableName(s, c.Ref.RefTable), Values: map[string]string{ref: strconv.FormatInt(next, 10)}}
	fillZero(&row, s)
	return row, fmt.Sprintf("seeded %s %s: a seeded %s row has a NULL %s, and NULL IN (SELECT %s FROM %s) is FALSE over no row (%s)",
		row.Table, FormatRows([]map[string]string{row.Values}), c.Ref.Table, c.Ref.Column, c.Ref.RefColumn, c.Ref.RefTable, c.Text), true
}

// referenced reports whether rows hold a row of row's table with its
// value of column col.
func referenced(rows []Row, row Row, col string) bool {
	col = strings.ToLower(col)
	for _, h := range rows {
		if strings.EqualFold(h.Table, row.Table) && h.Values[col] == row.Values[col] {
			return true
		}
	}
	return false
}
