package refine

import (
	"strings"

	"github.com/dbverify/dbverify/smt"
)

// Kinds of limit that can stop a check (Result.Limit, report's "limit").
const (
	// LimitWork: a limit counted in work (Z3 resource units per query,
	// queries, predicates, abstract states, refinements, paths per
	// result). The same input stops at the same point on every machine.
	LimitWork = "work"
	// LimitWallClock: a wall-clock limit the user opted into (--timeout,
	// --time-limit, --deadline). The verdict may differ on a faster or a
	// less busy machine.
	LimitWallClock = "wall-clock"
)

// LimitOf returns the kind of limit an UNKNOWN's reason names: LimitWork,
// LimitWallClock, or "" when no limit stopped the check (an unsupported
// construct, a spurious counterexample …). A reason that names both is
// LimitWallClock: a clock took part, so the verdict is not reproducible.
// The phrases are those of the limits' reasons in this package, boolprog,
// smt and the pipeline's search of concurrent schedules.
func LimitOf(reason string) string {
	for _, p := range []string{smt.ReasonTimeout, "time limit"} {
		if strings.Contains(reason, p) {
			return LimitWallClock
		}
	}
	for _, p := range []string{
		smt.ReasonWorkLimit, "SMT query limit", "predicate limit", "refinement limit",
		"abstract state limit", "path enumeration stopped",
	} {
		if strings.Contains(reason, p) {
			return LimitWork
		}
	}
	return ""
}
