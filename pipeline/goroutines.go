package pipeline

import (
	"fmt"

	"github.com/dbverify/dbverify/interleave"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// checkGoroutines decides, for each goroutine the frontend translated at
// its go statement (ir.Goroutine), whether the program's order (the
// goroutine first, then the rest of the entry) stands for every
// interleaving: it does where no operation of the goroutine conflicts
// with one of the rest that may run while it runs
// (interleave.GoroutineConflict), and the program then says so among
// its assumptions. Otherwise the program is unsupported (UNKNOWN),
// naming the two operations. A schema with triggers or views hides what
// a write touches: every goroutine that runs SQL is then unsupported.
func checkGoroutines(p *ir.Program, schema *sqlir.Schema) {
	if p == nil {
		return
	}
	opts := reduction(Config{}, schema)
	for _, g := range p.Goroutines {
		runsSQL := false
		for _, e := range g.Edges {
			if interleave.IsDBOp(e.Stmt) {
				runsSQL = true
			}
		}
		if runsSQL && !opts.Reduce {
			p.Unsupport(fmt.Sprintf("goroutine %s runs SQL, and the schema's triggers or views hide what it touches (its statements may not commute with the rest of the entry)", g.Name), g.Info)
			continue
		}
		c := interleave.GoroutineConflict(p, g, opts.Related)
		if c == nil {
			p.Assume(fmt.Sprintf("goroutine %s runs where its go statement is (%s), up to any point: its operations commute with the rest of the entry (no database cell or variable in common)", g.Name, g.Position()))
			continue
		}
		p.Unsupport(conflictText(g, c), g.Info)
	}
}

// conflictText describes a conflict of goroutine g.
func conflictText(g *ir.Goroutine, c *interleave.Conflict) string {
	a, b := c.Goroutine.Stmt.Source(), c.Other.Stmt.Source()
	other := "the rest of the entry, which may run while it runs"
	if c.Other == c.Goroutine || containsEdge(g.Edges, c.Other) {
		other = "another run of it (a go statement in a loop)"
	}
	if c.Var != nil {
		return fmt.Sprintf("goroutine %s shares memory with %s: %q (%s) and %q (%s) both use %s; their interleavings are not searched",
			g.Name, other, a.Text, a.Position(), b.Text, b.Position(), inputName(c.Var))
	}
	return fmt.Sprintf("goroutine %s may interleave with %s: %q (%s) and %q (%s) touch the same database cells or transaction; their interleavings are not searched",
		g.Name, other, a.Text, a.Position(), b.Text, b.Position())
}

// containsEdge reports whether e is one of edges.
func containsEdge(edges []*ir.Edge, e *ir.Edge) bool {
	for _, x := range edges {
		if x == e {
			return true
		}
	}
	return false
}

// goroutinesNotSearched says why concurrent requests of the entries of
// jobs are not decided ("" when they are): one starts a goroutine that
// runs SQL. Its program runs the goroutine at its go statement, which
// stands for every interleaving of that one request, not with the
// statements of another request.
func goroutinesNotSearched(jobs ...job) string {
	for _, q := range jobs {
		for _, g := range q.prog.Goroutines {
			for _, e := range g.Edges {
				if interleave.IsDBOp(e.Stmt) {
					return fmt.Sprintf("concurrent requests not checked: %s starts goroutine %s (%s), which runs SQL; concurrent requests with such goroutines are not searched", shortName(q.entry), g.Name, g.Position())
				}
			}
		}
	}
	return ""
}
