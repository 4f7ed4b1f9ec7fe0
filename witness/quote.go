package witness

import (
	"strings"

	"github.com/dbverify/dbverify/sqlparse"
)

// Identifiers in the SQL a replay writes itself (resetting, seeding,
// dumping and checking tables) are quoted, so that a table named by a
// reserved word (MySQL's `order`) or with capitals (PostgreSQL's
// "ordersDetails") is the table the schema created.

// TableSQL is table (as the program or the constraint names it) written
// for the engine of dialect d: the schema's declared name, quoted part by
// part (schema.table; on PostgreSQL, qualified as the DDL creates it).
func (s *Schema) TableSQL(d sqlparse.Dialect, table string) string {
	name := table
	if s != nil {
		if t := s.Table(table); t != nil {
			name = t.Name
		}
		if q, ok := s.qualified[strings.ToLower(table)]; ok && d == sqlparse.Postgres {
			name = q // (the DDL's CREATE TABLE bank.accounts)
		}
	}
	parts := strings.Split(name, ".")
	for i, p := range parts {
		parts[i] = s.identSQL(d, p)
	}
	return strings.Join(parts, ".")
}

// ColumnSQL is column col (any case) of table written for the engine of
// dialect d: the schema's declared name, quoted.
func (s *Schema) ColumnSQL(d sqlparse.Dialect, table, col string) string {
	name := col
	if s != nil {
		if t := s.Table(table); t != nil {
			for _, c := range t.Columns {
				if strings.EqualFold(c.Name, col) {
					name = c.Name
				}
			}
		}
	}
	return s.identSQL(d, name)
}

// identSQL quotes a declared name. PostgreSQL folds an unquoted name to
// lower case: a name with capitals is quoted as declared only when the
// DDL declared it quoted, else in lower case.
func (s *Schema) identSQL(d sqlparse.Dialect, name string) string {
	switch d {
	case sqlparse.Postgres:
		if name != strings.ToLower(name) && (s == nil || !strings.Contains(s.DDL, `"`+name+`"`)) {
			name = strings.ToLower(name)
		}
		return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
	case sqlparse.SQLite:
		return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
	}
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}
