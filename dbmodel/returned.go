package dbmodel

import "github.com/dbverify/dbverify/ir"

// Whether a write with RETURNING returned a row, for a single-row Scan of
// it (ir.Exec.NoRow: none is ErrNoRows). An UPDATE or INSERT on a modelled
// table returns one row per row it wrote, so "no row" is "rows affected
// = 0" (as PostgreSQL counts them: the rows matched); elsewhere it stays
// arbitrary.

// returnedRows returns the variable counting the rows s writes: its rows
// affected, or, when the program reads only whether it returned a row, a
// ghost (nil: neither is read).
func (m *lowerer) returnedRows(s *ir.Exec) *ir.Var {
	if s.Affected != nil || s.NoRow == nil {
		return s.Affected
	}
	return m.p.NewVar("$returnedRows", ir.Int, ir.Ghost)
}

// noRow ties s.NoRow to the rows s wrote (affected).
func (m *lowerer) noRow(em *emitter, s *ir.Exec, affected *ir.Var) {
	if s.NoRow == nil || affected == nil {
		return
	}
	em.assume(ir.Eq(s.NoRow, ir.Eq(affected, ir.IntLit(0))))
}
