package frontend

import (
	"fmt"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// Whether rows.Next() returns a row is arbitrary: the row model does not
// keep a table's set of rows from one query to the next. Two queries of
// the same table in one run may then disagree (independent tester adv16
// fu3: a first SELECT … FROM charges loop found no row and passed a
// funds check, the identical second one found a charge of 15 and took
// the balance to -15; no run has both). Where two query sites iterate
// the same table, their rows.Next() results are marked as
// approximations: a counterexample that depends on them is UNKNOWN, not
// an UNSAFE no engine reproduces.

// nextSite is one rows.Next() result and the rows object it reads.
type nextSite struct {
	v    *ir.Var
	rows *object
}

// noteNext records that v is the result of rows.Next() on rows (nil:
// not known).
func (t *translator) noteNext(rows *object, v *ir.Var) {
	if rows == nil {
		return
	}
	if _, ok := rows.sql.(*sqlir.Select); !ok {
		return
	}
	t.nexts = append(t.nexts, nextSite{v: v, rows: rows})
}

// markRereadRows marks the rows.Next() results of the query sites that
// iterate a table another query site iterates too (see above).
func (t *translator) markRereadRows() {
	sites := map[string]map[*object]bool{}
	for _, n := range t.nexts {
		for _, table := range n.rows.sql.(*sqlir.Select).Tables() {
			if sites[table] == nil {
				sites[table] = map[*object]bool{}
			}
			sites[table][n.rows] = true
		}
	}
	for _, n := range t.nexts {
		for _, table := range n.rows.sql.(*sqlir.Select).Tables() {
			if k := len(sites[table]); k > 1 && n.v.Approx == "" {
				n.v.Approx = fmt.Sprintf("whether rows.Next() of %q returns a row: %d queries of this entry iterate %s, "+
					"and the model does not keep its rows from one query to the next (two reads of the same rows may disagree)",
					strings.Join(strings.Fields(n.rows.text), " "), k, table)
			}
		}
	}
}
