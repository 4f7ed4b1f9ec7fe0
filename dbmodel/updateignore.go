package dbmodel

import (
	"fmt"

	"github.com/dbverify/dbverify/ir"
)

// MySQL's UPDATE IGNORE (sqlir.Update.Ignore) stores a value out of an
// integer column's range clipped to the nearest bound and a NULL for a
// NOT NULL column as the column's implicit default, as INSERT IGNORE does
// (insertignore.go, updateSpec.ignore), and BIGINT arithmetic that
// overflows still fails the statement; but a row that would break a
// CHECK, or whose new key would duplicate another row's, is left as it
// was, without an error (checked on MariaDB 10.11: groundtruth
// TestIgnoreWrites). Whether a row's new key duplicates another's
// depends on rows the model may not track, so where the UPDATE sets a
// key column, or the table has CHECKs, each row's "left as it was" is an
// approximated choice (the rows it changes satisfy the CHECKs, as any
// UPDATE's), and a counterexample that depends on it is not reported as
// certain.

// notSkipped is "UPDATE IGNORE u does not leave row x as it was" (true
// unless u.skips).
func (m *lowerer) notSkipped(u updateSpec, x *symbol) ir.Expr {
	if !u.skips {
		return ir.True
	}
	why := fmt.Sprintf("whether the UPDATE IGNORE leaves row %s as it was (a duplicate key or a broken CHECK)", x.name)
	return ir.Not(m.approxVar("$ignore_skipped", ir.Bool, why))
}
