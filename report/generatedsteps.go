package report

import "maps"

// Steps of generated code. A query method sqlc generates runs a handful
// of Go lines around its statement (the Queries constructor's `return
// &Queries{db: tx}`, the Scan into the row struct, `return i, err` with
// every field of the result): about ten lines of noise per query call in
// a trace (independent tester adv17, sqlcpgx and sqlcstd). The text
// keeps the statements such code runs and folds its other steps into the
// call of the program that runs them, which shows the call's arguments
// and, where it assigns them, its results; -v shows them all.

// foldGenerated leaves out the steps of generated code that are not
// statements sent to the database, unless the path starts in generated
// code (a generated query checked as an entry of its own). A step of the
// program that the left-out steps split in two (fn(q.WithTx(tx)), with
// the constructor's return between its parts) is one step again.
func foldGenerated(steps []Step) []Step {
	if len(steps) == 0 || steps[0].Generated {
		return steps
	}
	out := make([]Step, 0, len(steps))
	folded := false // steps left out since the last one kept
	for _, s := range steps {
		if s.Generated && !isSQLStep(s) {
			folded = true
			continue
		}
		if n := len(out); folded && n > 0 && sameLine(out[n-1], s) {
			out[n-1] = joinedSteps(out[n-1], s)
		} else {
			out = append(out, s)
		}
		folded = false
	}
	return out
}

// sameLine reports whether two steps are the same Go line of one request.
func sameLine(a, b Step) bool {
	return a.Kind != "sql" && a.Kind == b.Kind && a.Position == b.Position && a.Text == b.Text && a.Request == b.Request
}

// joinedSteps is step a continued by b: b's outcome and values (the
// later ones) over a's.
func joinedSteps(a, b Step) Step {
	values := make(map[string]string, len(a.Values)+len(b.Values))
	maps.Copy(values, a.Values)
	maps.Copy(values, b.Values)
	a.Values = values
	if b.Outcome != "" {
		a.Outcome = b.Outcome
	}
	return a
}
