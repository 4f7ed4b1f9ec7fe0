package dbmodel

import (
	"strings"

	"github.com/dbverify/dbverify/sqlir"
)

// Required columns. A column declared NOT NULL without a DEFAULT (and not
// generated: AUTO_INCREMENT, identity, serial, SQLite's rowid alias) that
// an INSERT's column list leaves out makes every row it inserts fail:
// MariaDB 1364 "Field doesn't have a default value" (strict mode),
// PostgreSQL 23502, SQLite "NOT NULL constraint failed". Such an INSERT
// inserts no row: only its error path (and, for INSERT … SELECT, the path
// where the SELECT reads no row) remains. Only plain INSERTs are decided
// (no IGNORE, REPLACE, upsert) on a table no trigger fills; a MySQL
// TIMESTAMP column, which may get an implicit default, is never taken as
// required.

// omitsRequired returns a column of t that INSERT q leaves out although
// every row needs a value for it ("" if none, or if it is not decided).
func (m *lowerer) omitsRequired(t *tableModel, q *sqlir.Insert) string {
	if len(q.Columns) == 0 || q.Replace || q.HasOnConflict || q.OnConflictNothing || q.OrIgnore {
		return ""
	}
	st := m.schemaTable(t.name)
	if st == nil || m.hasTrigger(t.name) {
		return ""
	}
	named := map[string]bool{}
	for _, c := range q.Columns {
		named[strings.ToLower(c)] = true
	}
	for _, c := range st.Columns {
		if !named[strings.ToLower(c.Name)] && m.required(st, c) {
			return c.Name
		}
	}
	return ""
}

// required reports a column of st that has no value unless an INSERT
// gives one.
func (m *lowerer) required(st *sqlir.Table, c sqlir.Column) bool {
	switch {
	case !c.NotNull || c.NotNullByKey || c.HasDefault || c.Default != nil || c.AutoIncrement || c.Generated != "":
		return false
	case strings.EqualFold(c.Name, st.RowidAlias):
		return false
	case m.opt.Dialect == "mysql" && strings.Contains(c.Type, "timestamp"):
		return false
	}
	return true
}

// hasTrigger reports a trigger of the schema on table.
func (m *lowerer) hasTrigger(table string) bool {
	for _, tr := range m.opt.Schema.Triggers {
		if strings.EqualFold(tr.Table, table) {
			return true
		}
	}
	return false
}
