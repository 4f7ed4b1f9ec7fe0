// Package refine is dbverify's CEGAR loop (docs/design.md §3): it decides
// whether the Error location of a lowered ir.Program is reachable, by
// predicate abstraction (package abstraction), reachability of the boolean
// program (package boolprog), feasibility of the abstract counterexample
// on the concrete program (package vcgen and the solver), and refinement.
//
// The initial predicates are the atoms of the conditions on the edges into
// Error (the constraint ψ(r) that a check tests) and the caller's seeds.
// When an abstract counterexample is spurious, its steps are asserted one
// solver scope each, checking after every assume, so the shortest
// infeasible prefix is found; the new predicates are the atoms of the
// weakest-precondition chain of that prefix's last condition back to the
// entry, together with the atoms of the prefix's assumes (NewPredicates).
// Where the chain crosses a havoc (a row read, a call's result) the
// havoced variable is eliminated rather than forgotten: through an
// equality atom that defines it (s.id == k and r.id == s.id give
// r.id == k), else by combining its bounds pairwise (Fourier-Motzkin).
// Atoms are canonical (abstraction.Canonical): p and ¬p, x < y and
// x >= y, x + 1 <= 10 and x <= 9 are one predicate.
//
// Verdicts: SAFE when the boolean program cannot reach Error (Result.
// Predicates lists the predicates of the proof); UNSAFE only for a path
// the solver finds feasible and whose model vcgen.Validate re-checks
// without the solver (Result.Trace is the counterexample); UNKNOWN
// otherwise, always with a reason: unsupported construct, solver unknown,
// refinement, predicate, abstract-state or time limit, a refinement that finds
// no new predicate, or an internal error. Check never panics and never
// prints.
//
// CheckLBE is the large-block engine (--engine lbe; Beyer et al., FMCAD
// 2009/2010): the part of the program that can reach Error is cut at its
// loop heads only, and every loop-free block between cut points is one
// formula (buildDAG: edge selectors, a fresh version per assignment and
// per join). A loop-free program is decided by one query (SAFE without
// predicates, Result.Proof; or a model whose path vcgen validates); with
// loops, abstract states are cubes over the predicates at cut points, a
// block's abstract post is computed by AllSAT, and refinement adds the
// assumed atoms, then the weakest-precondition atoms at the cut points, of
// a spurious block path. The formula states each edge exactly as
// vcgen.Build does, so the two engines decide the same semantics.
package refine
