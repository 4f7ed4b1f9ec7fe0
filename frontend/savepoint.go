package frontend

import (
	"go/types"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
)

// savepoint translates SAVEPOINT, RELEASE and ROLLBACK TO sent as SQL on
// a transaction object or a connection: an ir.Exec of the statement on
// that handle, whose meaning is the row model's (dbmodel/savepoint.go).
//
// Not modelled (UNKNOWN): a savepoint on the pool (each statement may
// run on another connection), a second savepoint name on one handle (the
// model keeps one savepoint stack per handle), and SQLite's SAVEPOINT on
// a connection, which outside BEGIN starts a transaction that RELEASE
// commits.
func (t *translator) savepoint(tc *sqlir.TxControl, tx ir.Tx, info ir.Info, results *types.Tuple) value {
	switch {
	case tx == 0:
		t.unsupported("%s sent as SQL on a connection pool (each statement may run on another connection)", tc.Kind)
		return t.freshResults("sql()", results)
	case t.conns[tx] && t.dialect == sqlparse.SQLite:
		t.unsupported("SQLite %s on a connection (outside BEGIN, SAVEPOINT starts a transaction that RELEASE commits)", tc.Kind)
		return t.freshResults("sql()", results)
	}
	if t.savepoints == nil {
		t.savepoints = map[ir.Tx]string{}
	}
	if name, ok := t.savepoints[tx]; ok && name != tc.Name {
		t.unsupported("a second savepoint name %q on one transaction (savepoint %q is modelled, one name per transaction)", tc.Name, name)
		return t.freshResults("sql()", results)
	}
	t.savepoints[tx] = tc.Name
	errV := t.errVar()
	aff := t.p.NewVar("rowsAffected", ir.Int, ir.Local)
	t.emit(&ir.Exec{SQL: tc, Tx: tx, Err: errV, Affected: aff, Info: info})
	if results == nil || results.Len() != 2 {
		return t.freshResults("sql()", results)
	}
	return value{tuple: []value{{obj: &object{kind: objResult, affected: aff}}, {expr: errV}}}
}
