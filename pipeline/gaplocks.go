package pipeline

import (
	"fmt"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// gapLocks says why the 2-request search of progs is not exact under
// InnoDB's next-key locks ("" where it is). At REPEATABLE READ (and
// SERIALIZABLE) a locking read (FOR UPDATE, FOR SHARE) in a transaction
// that finds no row locks the gap where the row would be: another
// transaction's INSERT into the gap waits for it, and two transactions
// that both hold the gap and both insert deadlock (one is rolled back,
// 1213). The row model locks the rows a statement finds, not gaps, so it
// lets both inserts run: a schedule it finds may be one the gap lock
// prevents (adv17's mysqlgap Book: SELECT … FOR UPDATE of a missing day,
// then INSERT … ON DUPLICATE KEY UPDATE, retried on 1213; SAFE on
// MariaDB 10.11, whose second insert is the deadlock victim), and the
// victim's error path is not explored either. pos is the locking read's
// position.
func gapLocks(level, dialect string, progs ...*ir.Program) (why, pos string) {
	if !nextKeyLocks(level, dialect) {
		return "", ""
	}
	for _, p := range progs {
		for _, e := range p.Edges {
			s, ok := e.Stmt.(*ir.Select)
			if !ok || s.Tx == 0 || !s.SQL.ForUpdate && !s.SQL.ForShare {
				continue
			}
			if at := insertInto(s.SQL.Table, progs...); at != "" {
				return fmt.Sprintf("gap locks not modelled: the locking read at %s takes an InnoDB gap lock where it finds no row (%s), which blocks the INSERT into %s at %s (or makes it a deadlock victim); the model lets the INSERT run",
					s.Info.Position(), level, s.SQL.Table, at), s.Info.Position()
			}
		}
	}
	return "", ""
}

// insertInto returns the position of an INSERT into table in progs ("":
// none).
func insertInto(table string, progs ...*ir.Program) string {
	for _, p := range progs {
		for _, e := range p.Edges {
			x, ok := e.Stmt.(*ir.Exec)
			if !ok {
				continue
			}
			if q, ok := x.SQL.(*sqlir.Insert); ok && strings.EqualFold(q.Table, table) {
				return x.Info.Position()
			}
		}
	}
	return ""
}
