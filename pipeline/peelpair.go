package pipeline

import (
	"fmt"

	"github.com/dbverify/dbverify/interleave"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/report"
)

// The bounds of a pair's requests with their counted loops peeled
// (peeledRequests). Each of a request's database operations is a point
// where a schedule plan may switch requests, so unrolling a loop of T
// attempts multiplies the plans by about T² and makes every plan's
// product T times longer and loop-free: one formula over all its paths.
// levelparam/retry's Withdraw (5 attempts of BEGIN, SELECT, UPDATE,
// COMMIT, ROLLBACK) unrolled to 535 edges and 25 operations: 625 plans
// instead of 25, the first a product of 2,592 locations whose one
// formula Z3 did not answer in 62 s, the process past 7 GB (conc18,
// reverted). The corpus's retry loops unroll to at most 125 edges and 49
// plans.
const (
	// peelMaxPlans bounds the schedule plans of the peeled pair.
	peelMaxPlans = 64
	// peelMaxEdges bounds the edges of each peeled request.
	peelMaxEdges = 300
)

// peeledRequests returns the requests j and q of a pair with their
// counted loops peeled (ir.PeeledCopy; one copy when they are one
// program): a retry loop `for attempt := 0; attempt < 3; attempt++`
// around a request's statements becomes its attempts in sequence before
// the product is built. Peeling the product instead finds no counted
// loop where a schedule plan switches requests inside the loop's first
// iteration (the loop the product keeps is entered with the counter at
// 1, not at a literal), and every plan then abstracted both requests'
// loops at their heads: adv17's SpendRetrying, whose bug needs the
// second attempt, was UNKNOWN at the query limits.
//
// Where the peeled pair is past peelMaxPlans or peelMaxEdges, it
// returns j and q as they are (their loops abstracted at their heads, as
// before peeling) and says why (unpeeled; "" when peeled or nothing to
// peel).
func peeledRequests(j, q *ir.Program) (jp, qp *ir.Program, unpeeled string) {
	jp = ir.PeeledCopy(j, peelTrips, peelEdges(j))
	qp = jp
	if q != j {
		qp = ir.PeeledCopy(q, peelTrips, peelEdges(q))
	}
	if jp == j && qp == q {
		return j, q, ""
	}
	plans := len(interleave.Switches(jp == qp, interleave.MaxOps(jp), interleave.MaxOps(qp)))
	edges := max(len(jp.Edges), len(qp.Edges))
	if plans <= peelMaxPlans && edges <= peelMaxEdges {
		return jp, qp, ""
	}
	return j, q, fmt.Sprintf("the requests' counted loops were not unrolled: unrolled, a request has %d edges (at most %d unrolled) and the pair %d schedule plans (at most %d); each loop was searched at its head",
		edges, peelMaxEdges, plans, peelMaxPlans)
}

// noteUnpeeled adds to an UNKNOWN outcome of out why the requests' loops
// were not unrolled (unpeeled, from peeledRequests; "": they were).
func noteUnpeeled(out *pairSearch, unpeeled string) {
	if unpeeled == "" || out.res == nil || out.res.Verdict != report.Unknown {
		return
	}
	res := *out.res
	res.Reason += "; " + unpeeled
	out.res = &res
}
