package refine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dbverify/dbverify/ir"
)

// Where the large-block search grew. A limit of work (predicates,
// abstract states, queries) stops the search; the reason says where it
// spent them: the cut point — a loop head — that tracks the most
// predicates, as the source lines of the statements that leave it (in a
// product of requests, each request's, labelled). Before, a concurrent
// UNKNOWN named only the limit (independent tester adv17: "predicate
// limit 80 reached … 2 of 25 plans"), with no construct or line to act on.

// failAtLimit makes res UNKNOWN with reason, a limit of work, adding where
// the search grew and, when res names no position yet, the loop's.
func (le *loopEngine) failAtLimit(reason string) {
	where, pos := le.grewAt()
	if where != "" {
		reason += "; " + where
	}
	le.res.fail(reason)
	le.res.grew, le.res.grewAt = where, pos
	if le.res.Position == "" {
		le.res.Position = pos
	}
}

// withGrowth adds to res, the fixpoint engine's UNKNOWN after the
// large-block search gave up at a limit of work, where that search grew
// (grew, at pos), when res too is stopped by a limit of work.
func withGrowth(res *Result, grew, pos string) {
	if res.Verdict != Unknown || grew == "" || LimitOf(res.Reason) != LimitWork || strings.Contains(res.Reason, grew) {
		return
	}
	res.Reason += "; in the large-block search before it, " + grew
	if res.Position == "" {
		res.Position = pos
	}
}

// grewAt says where the search grew most ("" when no cut point but the
// entry tracks predicates: a program without loops) and the position of
// that loop's first statement.
func (le *loopEngine) grewAt() (where, pos string) {
	best, n := ir.Loc(-1), 0
	for l, lp := range le.at {
		if l == le.p.Entry || l == le.p.Error || lp.len() == 0 {
			continue
		}
		if lp.len() > n || (lp.len() == n && l < best) {
			best, n = l, lp.len()
		}
	}
	if best < 0 {
		return "", ""
	}
	lines := sourceLines(le.p, best)
	if len(lines) == 0 {
		return fmt.Sprintf("the most predicates (%d of %d) at a loop head of no source line (L%d)", n, le.preds.len(), best), ""
	}
	return fmt.Sprintf("the most predicates (%d of %d) at the loop at %s", n, le.preds.len(), strings.Join(lines, " and ")), positionOf(lines[0])
}

// sourceLines returns the source lines of the first statements with a
// position reached from loc, one per request of a product
// ("retry.go:23 (request A)"), or one without a label in a program of
// one request.
func sourceLines(p *ir.Program, loc ir.Loc) []string {
	seen := map[ir.Loc]bool{loc: true}
	found := map[string]bool{}
	var out []string
	queue := []ir.Loc{loc}
	for len(queue) > 0 && len(seen) < 10_000 {
		l := queue[0]
		queue = queue[1:]
		for _, e := range p.Out[l] {
			info := e.Stmt.Source()
			if pos := info.Position(); pos != "" {
				if !found[info.Request] {
					found[info.Request] = true
					line := pos
					if info.Request != "" {
						line += " (request " + info.Request + ")"
					}
					out = append(out, line)
				}
				continue
			}
			if !seen[e.To] {
				seen[e.To] = true
				queue = append(queue, e.To)
			}
		}
	}
	slices.Sort(out)
	return out
}

// positionOf is the "file:line" of a line sourceLines returns.
func positionOf(line string) string {
	pos, _, _ := strings.Cut(line, " ")
	return pos
}
