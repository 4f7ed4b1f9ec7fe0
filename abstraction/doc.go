// Package abstraction turns a lowered ir.Program and a set of predicates
// into a boolean program (package boolprog): predicate abstraction in the
// style of Ball, Majumdar, Millstein and Rajamani (2001), as the seed paper
// uses it.
//
// Each predicate p_i (a boolean ir expression, kept in the canonical form
// of Canonical so that p and ¬p are one predicate) gets a boolean variable
// b_i. The boolean program has the ir program's control-flow graph: the
// same Entry, Exit and Error, one location per ir location, plus one extra
// location for each ir edge that needs two boolean edges (a havoc and its
// consistency assume, an assume and its strengthening). Edge.Orig is the
// ID of the ir edge an edge abstracts; Abstraction.Path maps an abstract
// trace back to ir edges, skipping the second edges.
//
// # F(φ)
//
// Everything rests on F(φ), the weakest boolean formula over the
// predicates relevant to φ that implies φ: a valuation v of them satisfies
// F(φ) iff γ(v) ⇒ φ, where γ(v) is the conjunction of the predicates
// (negated where v says false). The relevant predicates are those sharing
// a variable with φ, at most Options.MaxRelevant: the atoms of φ first,
// then those sharing most variables. F is computed with the solver by
// AllSAT (enumerate the valuations of the models of ¬φ, blocking each; F
// excludes exactly those, so inconsistent valuations are in F and states
// holding them are dropped by the checker), or, beyond six relevant
// predicates, by a Shannon expansion that stops as soon as φ is decided
// (exact on consistent valuations), with AllSAT as the fallback when its
// query budget runs out. Unknown answers and exhausted budgets give the
// sound F = 0. Results are cached by the text of φ and of the relevant
// predicates, across builds (one Abstractor serves a whole CEGAR run).
//
// # Statements
//
//   - Assign x̄ := ē: for each predicate p that mentions an assigned
//     variable, b_p := choose(F(WP(s, p)), F(WP(s, ¬p))) where WP is the
//     simultaneous substitution of ē for x̄; the other variables keep their
//     values. No such predicate: skip.
//   - Assume c: assume(¬F(¬c)); skip when that is 1. Then, on a second
//     edge, the strengthening b_p := choose(b_p ∨ F(c → p), ¬b_p ∨
//     F(c → ¬p)) for the predicates p sharing most variables with c
//     (Options.MaxStrengthen; not the atoms of c): the abstract state
//     learns at the assume what c forces on them, and drops the states
//     that contradict it. Left out when it adds nothing.
//   - Havoc x̄: every predicate mentioning x̄ becomes * (choose(0, 0)); then
//     an extra edge assume(enforce), the consistency of the havoced
//     predicates with each other and with the rest: for each havoced
//     predicate h, the clauses excluding the inconsistent valuations
//     (AllSAT of true projected on the group) of a few groups — h with the
//     predicates over its variables only, h with the predicates sharing
//     most variables with it, and triangles {h, n1, n2} closing a cycle of
//     shared variables — plus the substitution clauses e₁ ∧ … ∧ eₖ ⇒
//     (h ⇔ q) where equality predicates eᵢ turn h into the predicate q
//     (r.id == s.id ∧ r.b == s.b ⇒ (s.b >= k ⇔ r.b >= k)). This keeps the
//     correlations among the predicates over a freshly read row and those
//     linking it to the rows it may alias.
//
// Any other statement is an error: the program must be lowered (package
// dbmodel) first.
//
// Canonical, Key, Solve and Combine are the linear-arithmetic helpers
// package refine uses to normalise and derive predicates.
package abstraction
