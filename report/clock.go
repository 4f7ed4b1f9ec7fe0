package report

import (
	"fmt"

	"github.com/dbverify/dbverify/ir"
)

// clock lists the instants the path's time.Now() calls read
// (ir.Var.Clock), in nanoseconds since 1970 UTC, in the order the path
// makes the calls: a replay sets the program's clock to them, call by
// call (Counterexample.Clock).
func (b *traceBuilder) clock() ([]string, error) {
	var out []string
	for _, st := range b.pf.Steps {
		if _, ok := st.Edge.Stmt.(*ir.Havoc); !ok {
			continue
		}
		for _, r := range st.Defs {
			if !b.pf.Origin[r].Orig.Clock {
				continue
			}
			x, err := ir.Eval(r, b.m.Value)
			if err != nil {
				return nil, fmt.Errorf("report: trace: the clock: %w", err)
			}
			if x.R == nil || !x.R.IsInt() {
				return nil, fmt.Errorf("report: trace: the clock %s is no integer", r.Name)
			}
			out = append(out, x.R.Num().String())
		}
	}
	return out, nil
}
