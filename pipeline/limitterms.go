package pipeline

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/dbverify/dbverify/interleave"
	"github.com/dbverify/dbverify/refine"
)

// The reasons of a concurrent UNKNOWN in terms a user can act on. The
// engine's reason names the limit of one product of requests ("predicate
// limit 80 reached"), a number no flag shows: the product's limits are
// the flags' scaled down (searchlimits.go). productLimitTerms says which
// flag raises it and at what value of the flag; planName says which
// schedule plan was undecided. Before, adv17 read "predicate limit 80
// reached … 2 of 25 plans" with no flag, plan, construct or line.

// productLimits are the limits of a product's engine run, each with the
// flag that raises it: the phrase of refine's reason, its product value
// and the flag's value under cfg.
var productLimits = []struct {
	phrase *regexp.Regexp
	flag   string
	value  func(Config) (product, flag int)
}{
	{regexp.MustCompile(`predicate limit (\d+) reached`), "--max-predicates", func(cfg Config) (int, int) {
		return productConfig(cfg, 1<<30).MaxPredicates, flagValue(cfg.MaxPredicates, refine.DefaultMaxPredicates)
	}},
	{regexp.MustCompile(`SMT query limit (\d+) reached`), "--max-queries", func(cfg Config) (int, int) {
		return raisedQueries(cfg, productMaxQueries), flagValue(cfg.MaxQueries, refine.DefaultMaxQueries)
	}},
	{regexp.MustCompile(`abstract state limit (\d+) reached`), "--max-states", func(cfg Config) (int, int) {
		return productConfig(cfg, 1<<30).MaxStates, flagValue(cfg.MaxStates, refine.DefaultMaxStates)
	}},
}

// flagValue is a limit's flag value (def when unset).
func flagValue(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

// productLimitTerms adds to the reason of a product's engine run, where
// it names a limit of the product, the flag that raises it: "predicate
// limit 80 reached (each product of requests stops at 80 at
// --max-predicates 150; raise --max-predicates: …)".
func productLimitTerms(cfg Config, reason string) string {
	for _, l := range productLimits {
		m := l.phrase.FindStringSubmatchIndex(reason)
		if m == nil {
			continue
		}
		n, err := strconv.Atoi(reason[m[2]:m[3]])
		product, flag := l.value(cfg)
		if err != nil || n != product {
			// Lowered to the budget the check had left: the
			// concurrent check's own --max-queries (its reason says so).
			note := fmt.Sprintf(" (the queries the concurrent check of the result had left under %s %d)", l.flag, flag)
			if l.flag != "--max-queries" {
				note = fmt.Sprintf(" (%s %d)", l.flag, flag)
			}
			return reason[:m[1]] + note + reason[m[1]:]
		}
		note := fmt.Sprintf(" (each product of requests stops at %d at %s %d; raise %s: above its default the products' limit grows in proportion)", product, l.flag, flag, l.flag)
		return reason[:m[1]] + note + reason[m[1]:]
	}
	return reason
}

// planName says what schedule plan i of total runs: "plan 3 of 25: A
// runs 1 database operation, then B 2, then A to its end, then B".
func planName(i, total int, plan []interleave.Segment) string {
	var parts []string
	for k, s := range plan {
		name := interleave.RequestName(s.Request)
		switch {
		case s.Ops < 0:
			parts = append(parts, name+" to its end")
		case k == 0 && s.Ops == 1:
			parts = append(parts, name+" runs 1 database operation")
		case k == 0:
			parts = append(parts, fmt.Sprintf("%s runs %d database operations", name, s.Ops))
		default:
			parts = append(parts, fmt.Sprintf("%s %d", name, s.Ops))
		}
	}
	return fmt.Sprintf("plan %d of %d: %s", i+1, total, strings.Join(parts, ", then "))
}
