package dbmodel

import (
	"slices"
	"strings"

	"github.com/dbverify/dbverify/sqlir"
)

// freshKey reports whether an INSERT that omits column col of table t
// gets a value no row of t holds, in the program's dialect:
//   - MySQL/MariaDB AUTO_INCREMENT: the counter is above every id, an
//     explicit id advancing it;
//   - SQLite's rowid alias (INTEGER PRIMARY KEY, with or without
//     AUTOINCREMENT): one more than the largest rowid (or than any ever
//     used).
//
// Not PostgreSQL: an explicit id does not advance a sequence (SERIAL,
// IDENTITY), so its next value may be an existing row's.
func (m *lowerer) freshKey(t *sqlir.Table, col string) bool {
	if t == nil {
		return false
	}
	switch m.opt.Dialect {
	case "postgres":
		return false
	case "sqlite":
		return strings.EqualFold(t.RowidAlias, col)
	}
	for _, sc := range t.Columns {
		if strings.EqualFold(sc.Name, col) {
			return sc.AutoIncrement
		}
	}
	return false
}

// omitsFresh reports whether the INSERT q omits a column of key cols
// whose value is then fresh (see freshKey): no row conflicts on that key.
func (m *lowerer) omitsFresh(t *sqlir.Table, cols []string, q *sqlir.Insert) bool {
	for _, k := range cols {
		if slices.ContainsFunc(q.Columns, func(c string) bool { return strings.EqualFold(c, k) }) {
			continue
		}
		if m.freshKey(t, k) {
			return true
		}
	}
	return false
}

// conflictFree reports whether the upsert (or REPLACE) q cannot conflict
// with an existing row: every key it may conflict on (the conflict
// target's, else each unique key of the table) has a column q omits whose
// value is fresh. The new row is then simply inserted.
func (m *lowerer) conflictFree(t *tableModel, q *sqlir.Insert) bool {
	if t.schema == nil || q.FromSelect || len(q.Columns) == 0 {
		return false
	}
	keys := t.allKeys
	if len(q.ConflictColumns) > 0 {
		keys = [][]string{q.ConflictColumns}
	}
	if len(keys) == 0 {
		return false
	}
	for _, k := range keys {
		if !m.omitsFresh(t.schema, k, q) {
			return false
		}
	}
	return true
}
