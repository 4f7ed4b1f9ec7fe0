package witness

import (
	"fmt"
	"regexp"
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
