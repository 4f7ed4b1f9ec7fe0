package pipeline

import (
	"testing"

	"github.com/dbverify/dbverify/refine"
)

// TestSearchLimitsFollowFlags: the work limits of the concurrent search
// are the constants at the default --max-queries / --max-predicates (and
// below them), and rise in proportion when the user raises the flags, so
// that the limit a concurrent UNKNOWN names is one a flag reaches
// (independent tester adv17: --max-queries 1000000 still stopped at "SMT
// query limit 20000").
func TestSearchLimitsFollowFlags(t *testing.T) {
	tests := []struct {
		name                                    string
		maxQueries, maxPredicates               int
		wantProductQueries, wantPredicates      int
		wantPairQueries, wantFullProductQueries int
	}{
		{"defaults", refine.DefaultMaxQueries, refine.DefaultMaxPredicates, productMaxQueries, productMaxPredicates, pairMaxQueries, fullProductMaxQueries},
		{"unset (library use)", 0, 0, productMaxQueries, productMaxPredicates, pairMaxQueries, fullProductMaxQueries},
		{"lowered", 1000, 20, 1000, 20, pairMaxQueries, fullProductMaxQueries},
		{"ten times the queries", 10 * refine.DefaultMaxQueries, refine.DefaultMaxPredicates, 10 * productMaxQueries, productMaxPredicates, 10 * pairMaxQueries, 10 * fullProductMaxQueries},
		{"twice the predicates", refine.DefaultMaxQueries, 2 * refine.DefaultMaxPredicates, productMaxQueries, 2 * productMaxPredicates, pairMaxQueries, fullProductMaxQueries},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Config{MaxQueries: tt.maxQueries, MaxPredicates: tt.maxPredicates}
			got := productConfig(cfg, 1<<30)
			if got.MaxQueries != tt.wantProductQueries || got.MaxPredicates != tt.wantPredicates {
				t.Errorf("product limits: %d queries, %d predicates; want %d, %d", got.MaxQueries, got.MaxPredicates, tt.wantProductQueries, tt.wantPredicates)
			}
			if q := raisedQueries(cfg, pairMaxQueries); q != tt.wantPairQueries {
				t.Errorf("pair queries %d, want %d", q, tt.wantPairQueries)
			}
			if q := raisedQueries(cfg, fullProductMaxQueries); q != tt.wantFullProductQueries {
				t.Errorf("full product queries %d, want %d", q, tt.wantFullProductQueries)
			}
		})
	}
}
