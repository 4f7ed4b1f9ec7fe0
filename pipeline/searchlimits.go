package pipeline

import (
	"fmt"

	"github.com/dbverify/dbverify/refine"
)

// The work limits of the 2-request search of one result. A product runs
// the engine on a program whose size is the product of the requests',
// and a request with a loop around its transaction (a retry loop) makes
// the boolean programs of every product grow to the engine's own limits
// (a million abstract states, 150 predicates), each schedule plan taking
// minutes and gigabytes: the independent tester's cpg15 (SERIALIZABLE +
// retry) ran 14 minutes and 13 GB before answering UNKNOWN. These limits
// are work, not wall clock: the same input gets the same verdict however
// busy the machine is.
const (
	// productMaxStates bounds the abstract states of one search of a
	// product's boolean program (the engine's default is 1,000,000).
	productMaxStates = 150_000
	// productMaxPredicates bounds the predicates of a product's
	// abstraction (default 150).
	productMaxPredicates = 80
	// productMaxQueries bounds the SMT queries of the check of one
	// product (default 100,000).
	productMaxQueries = 20_000
	// pairMaxQueries bounds the SMT queries of the whole search of one
	// pair: the product of every interleaving and the schedule plans.
	pairMaxQueries = 60_000
	// tripleMaxStates bounds the locations of the product of every
	// interleaving of three requests that the 3-request search checks;
	// past it only the schedule plans of interleave.SwitchesOf3 are
	// searched. A 25-line entry with a transaction (adv8 p68: begin,
	// read, write, commit) makes a product of 24,354 locations and
	// 864,053 interleavings, whose one formula took minutes and
	// gigabytes; the corpus's three-request cases are far below.
	tripleMaxStates = 4_000
	// maxUndecidedPlans is how many undecided schedule plans end the
	// search of a pair's plans (searchPlans): a SAFE is out of reach
	// then, and the plans after them, larger, are as hard.
	maxUndecidedPlans = 2
	// fullProductMaxQueries bounds the SMT queries of the product of
	// every interleaving of a pair, searched after its schedule plans
	// (searchPair): past it the plans' outcome stands.
	fullProductMaxQueries = 5_000
)

// raisedQueries returns the search's query limit n raised in proportion
// when the user raised --max-queries above its default, and
// raisedPredicates the product's predicate limit for --max-predicates:
// the limits a concurrent UNKNOWN names are then ones the flags reach
// (independent tester adv17: --max-queries 1000000 gave the same "SMT
// query limit 20000", and no flag could buy a verdict with time). At the
// defaults, or below them, the limits are the constants above.
func raisedQueries(cfg Config, n int) int {
	if cfg.MaxQueries > refine.DefaultMaxQueries {
		return int(int64(n) * int64(cfg.MaxQueries) / int64(refine.DefaultMaxQueries))
	}
	return n
}

func raisedPredicates(cfg Config) int {
	if cfg.MaxPredicates > refine.DefaultMaxPredicates {
		return productMaxPredicates * cfg.MaxPredicates / refine.DefaultMaxPredicates
	}
	return productMaxPredicates
}

// raisedStates is the product's abstract state limit for --max-states,
// raised in proportion as the others (before, no flag raised it).
func raisedStates(cfg Config) int {
	if cfg.MaxStates > refine.DefaultMaxStates {
		return int(int64(productMaxStates) * int64(cfg.MaxStates) / int64(refine.DefaultMaxStates))
	}
	return productMaxStates
}

// productConfig returns cfg with the engine's work limits lowered to the
// product's, and its SMT queries to at most left.
func productConfig(cfg Config, left int) Config {
	lower := func(v *int, limit int) {
		if *v <= 0 || *v > limit {
			*v = limit
		}
	}
	queries, predicates := raisedQueries(cfg, productMaxQueries), raisedPredicates(cfg)
	lower(&cfg.MaxStates, raisedStates(cfg))
	lower(&cfg.MaxPredicates, predicates)
	lower(&cfg.MaxQueries, min(queries, max(left, 1)))
	return cfg
}

// pairLimitReason says that the search of a pair (of three requests:
// three) ran out of its SMT queries after plans of total schedule plans
// ("SMT query limit" makes refine.LimitOf call it a work limit).
func pairLimitReason(three bool, queries, plans, total, limit int) string {
	n := 2
	if three {
		n = 3
	}
	return fmt.Sprintf("SMT query limit of the %d-request search reached: %d queries over the product of every interleaving and %d of %d schedule plans (limit %d; --max-queries raises it)",
		n, queries, plans, total, limit)
}
