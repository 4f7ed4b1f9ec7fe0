package dbmodel

import (
	"fmt"
	"strings"

	"github.com/dbverify/dbverify/ir"
)

// Reads of a table the property does not watch return arbitrary rows:
// any initial state of that table is possible, so a counterexample that
// picks one is a run. Not once the entry has written that table: the row
// read back may be the one it wrote, whose values the model does not
// keep. An upsert of streaks (days = 1) then SELECT days gave any days,
// and a false UNSAFE (independent tester adv10 m2). Such a read's results
// are marked as approximations: a counterexample that depends on them is
// UNKNOWN, never UNSAFE.

// ownWrite returns the position of a write of one of tables by the
// entry from which location l of the source program is reachable (""
// when there is none).
func (m *lowerer) ownWrite(l ir.Loc, tables []string) string {
	if m.writtenBefore == nil {
		m.writtenBefore = m.unwatchedWrites()
	}
	for _, t := range tables {
		if w, ok := m.writtenBefore[strings.ToLower(t)]; ok && w.reach[l] {
			return w.at
		}
	}
	return ""
}

// tableWrites are the locations a table's writes reach, and the first
// write's position.
type tableWrites struct {
	reach []bool
	at    string
}

// unwatchedWrites returns, for each table the program writes that no
// model watches, the locations its writes reach.
func (m *lowerer) unwatchedWrites() map[string]*tableWrites {
	out := map[string]*tableWrites{}
	for _, e := range m.src.Edges {
		s, ok := e.Stmt.(*ir.Exec)
		if !ok {
			continue
		}
		table := strings.ToLower(writtenTable(s.SQL))
		if table == "" || m.model(table) != nil {
			continue
		}
		w := out[table]
		if w == nil {
			w = &tableWrites{reach: make([]bool, m.src.NumLocs), at: s.Info.Position()}
			out[table] = w
		}
		stack := []ir.Loc{e.To}
		for len(stack) > 0 {
			l := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if w.reach[l] {
				continue
			}
			w.reach[l] = true
			for _, o := range m.src.Out[l] {
				stack = append(stack, o.To)
			}
		}
	}
	return out
}

// ownWriteSelect lowers a SELECT that may read back rows the entry wrote
// (at) to a table no model watches: its results are arbitrary values
// marked as approximations.
func (m *lowerer) ownWriteSelect(e *ir.Edge, s *ir.Select, at string) {
	m.approxResults(e, s, "$readBack", s.NoRow, func(col int) string {
		return fmt.Sprintf("result column %d of the SELECT at %s, which may read back the row the entry wrote at %s (a table the constraint does not watch: its values are not kept)", col, s.Info.Position(), at)
	})
}
