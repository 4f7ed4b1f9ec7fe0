package dbmodel

import (
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// A multi-row upsert (INSERT … VALUES (…), (…) ON CONFLICT / ON DUPLICATE
// KEY) runs its rows in order, each against the table as the earlier
// ones left it, with its own EXCLUDED values (sqlir.Insert.OnConflictRows).
// On the arbiter key (the conflict target, or the table's only key):
//   - a row with an earlier row's key conflicts (the earlier row inserted
//     that key or updated the row holding it, and assignments that leave
//     the key alone keep it): its insert path never has that key;
//   - PostgreSQL fails the statement when a DO UPDATE would change a row
//     a second time ("ON CONFLICT DO UPDATE command cannot affect row a
//     second time", the row an earlier row inserted or updated), so where
//     the statement succeeds and every conflict updates, the rows' keys
//     are distinct. SQLite and MySQL update that row again.

// conflictSet returns the DO UPDATE assignments row ri of q runs on a
// conflict.
func conflictSet(q *sqlir.Insert, ri int) []sqlir.Assignment {
	if ri < len(q.OnConflictRows) {
		return q.OnConflictRows[ri]
	}
	return q.OnConflict
}

// arbiterKey returns the lower-cased columns of the key the rows of the
// multi-row upsert q conflict on, nil when it is not one known key or
// when a conflict may leave the conflicting row with another key (an
// assignment to a key column; a partial unique index).
func (m *lowerer) arbiterKey(t *tableModel, q *sqlir.Insert) []string {
	if q.FromSelect || q.Replace || len(q.Rows) < 2 || q.ConflictWhere != nil ||
		!q.HasOnConflict && !q.OnConflictNothing || m.conflictFree(t, q) {
		// (conflictFree: the rows are plain inserts of fresh keys.)
		return nil
	}
	key := q.ConflictColumns
	if len(key) == 0 {
		if len(t.allKeys) != 1 || m.opt.Dialect == "mysql" {
			// MySQL's ON DUPLICATE KEY conflicts on any unique key,
			// including one the schema names that the model does not.
			return nil
		}
		key = t.allKeys[0]
	}
	var out []string
	for _, c := range key {
		c = strings.ToLower(c)
		if _, ok := t.sorts[c]; !ok || t.nullableKey[c] {
			return nil
		}
		out = append(out, c)
	}
	for _, a := range q.OnConflict {
		for _, c := range out {
			if strings.EqualFold(a.Col, c) {
				return nil
			}
		}
	}
	return out
}

// distinctRows states, on em's path (a plain multi-row INSERT's, or a
// multi-row upsert's insert path), that newRow has no key of an earlier
// row of the statement (a plain INSERT: none of the table's keys; an
// upsert: the arbiter key), and returns earlier with newRow.
func (t *tableModel) distinctRows(em *emitter, multi bool, arbiter []string, newRow *symbol, earlier []*symbol) []*symbol {
	switch {
	case multi:
		for _, y := range earlier {
			em.assume(ir.Not(t.sameRow(newRow, y)))
		}
	case arbiter != nil:
		em.assume(t.arbiterDiffers(arbiter, newRow, earlier))
	default:
		return earlier
	}
	return append(earlier, newRow)
}

// arbiterDiffers is the condition that newRow's arbiter key differs
// from each earlier row's.
func (t *tableModel) arbiterDiffers(key []string, newRow *symbol, earlier []*symbol) ir.Expr {
	var out []ir.Expr
	for _, y := range earlier {
		out = append(out, ir.Not(t.keyEq(newRow, key, t.symKey(y, key))))
	}
	return ir.And(out...)
}

// failsOnSecondUpdate reports whether the multi-row upsert q fails where
// two of its rows have one arbiter key (PostgreSQL's DO UPDATE without
// a WHERE: every conflict updates the row).
func (m *lowerer) failsOnSecondUpdate(q *sqlir.Insert) bool {
	return m.opt.Dialect == "postgres" && q.HasOnConflict && !q.OnConflictNothing && !q.ConflictGuarded
}
