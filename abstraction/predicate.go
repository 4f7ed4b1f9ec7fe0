package abstraction

import (
	"sort"

	"github.com/dbverify/dbverify/ir"
)

// A Predicate is a boolean ir expression over program variables; the
// abstraction keeps one boolean variable b_i for the i-th predicate.
type Predicate struct {
	Expr ir.Expr
	Text string // Expr.String(): also the predicate's identity
	vars map[*ir.Var]bool
}

// NewPredicate returns the predicate of e in canonical form (see
// Canonical): ¬p gives the predicate p. A constant gives nil.
func NewPredicate(e ir.Expr) *Predicate {
	pos, _ := Canonical(e)
	if _, ok := pos.(ir.BoolConst); ok {
		return nil
	}
	vars := map[*ir.Var]bool{}
	ir.CollectVars(pos, vars)
	return &Predicate{Expr: pos, Text: pos.String(), vars: vars}
}

// Mentions reports whether the predicate uses a variable of set.
func (p *Predicate) Mentions(set map[*ir.Var]bool) bool {
	for v := range p.vars {
		if set[v] {
			return true
		}
	}
	return false
}

// shared returns the number of variables of p in set.
func (p *Predicate) shared(set map[*ir.Var]bool) int {
	n := 0
	for v := range p.vars {
		if set[v] {
			n++
		}
	}
	return n
}

// sharesOutside reports whether p and q share a variable not in set.
func (p *Predicate) sharesOutside(q *Predicate, set map[*ir.Var]bool) bool {
	for v := range p.vars {
		if q.vars[v] && !set[v] {
			return true
		}
	}
	return false
}

// relevant returns the indices of the predicates sharing a variable with
// vars: those in first, then those sharing most variables, then those with
// no variable outside vars (ties by index), at most max of them. Indices
// in skip are left out.
func relevant(preds []*Predicate, vars map[*ir.Var]bool, max int, skip, first map[int]bool) []int {
	type cand struct {
		i, n   int
		inside bool
	}
	var cs []cand
	for i, p := range preds {
		if skip[i] {
			continue
		}
		if n := p.shared(vars); n > 0 {
			cs = append(cs, cand{i, n, n == len(p.vars)})
		}
	}
	sort.SliceStable(cs, func(a, b int) bool {
		if first[cs[a].i] != first[cs[b].i] {
			return first[cs[a].i]
		}
		if cs[a].n != cs[b].n {
			return cs[a].n > cs[b].n
		}
		return cs[a].inside && !cs[b].inside
	})
	if len(cs) > max {
		cs = cs[:max]
	}
	out := make([]int, len(cs))
	for k, c := range cs {
		out[k] = c.i
	}
	return out
}
