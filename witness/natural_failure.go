package witness

import (
	"context"
	"fmt"
	"strings"

	"github.com/dbverify/dbverify/sqlparse"
)

// naturalRun is run without the injected failures of its INSERTs (nil
// when it injects none): a trace whose INSERT fails usually means a key
// the seeded rows already hold, and the engine's own error for it (MySQL
// 1062, PostgreSQL 23505, SQLite's UNIQUE constraint failed) is what the
// program tests for (errors.As(err, &mysqlErr) && mysqlErr.Number ==
// 1062), which an injected error is not.
func naturalRun(run *Run) (*Run, []Failure) {
	var keep, natural []Failure
	for _, f := range run.Fail {
		if isInsert(f.Text) {
			natural = append(natural, f)
			continue
		}
		keep = append(keep, f)
	}
	if len(natural) == 0 {
		return nil, nil
	}
	return &Run{Rows: run.Rows, Inputs: run.Inputs, Fail: keep, Prune: run.Prune, Facts: run.Facts}, natural
}

func isInsert(q string) bool {
	f := strings.Fields(q)
	return len(f) > 0 && strings.EqualFold(f[0], "INSERT")
}

// executeNatural executes the run with its INSERTs left to fail by
// themselves; it returns the outcome when that broke the constraint with
// each such INSERT failing on the engine (its N-th run is not among the
// statements the call ran successfully), nil otherwise. executed says
// whether it called the entry.
func executeNatural(ctx context.Context, ex Executor, d sqlparse.Dialect, s *Schema, c *Constraint, pkg, entry string, run *Run) (r *Replayed, executed bool) {
	nat, failures := naturalRun(run)
	if nat == nil {
		return nil, false
	}
	out, err := Execute(ctx, ex, d, s, c, pkg, entry, nat)
	if err != nil || out.Call == nil || !out.Broken() {
		return nil, true
	}
	ran := map[string]int{}
	for _, st := range out.Call.Statements {
		ran[normSQL(st.SQL)]++
	}
	var notes []string
	for _, f := range failures {
		if ran[normSQL(f.Text)] >= f.N {
			return nil, true
		}
		notes = append(notes, fmt.Sprintf("run %d of %s failed on the engine by itself (the seeded rows hold its key), as the trace's failure: not injected", f.N, strings.Join(strings.Fields(f.Text), " ")))
	}
	return &Replayed{Outcome: out, Run: nat, Added: notes, Executions: 1}, true
}

func isSelect(q string) bool {
	f := strings.Fields(q)
	return len(f) > 0 && (strings.EqualFold(f[0], "SELECT") || strings.EqualFold(f[0], "WITH"))
}
