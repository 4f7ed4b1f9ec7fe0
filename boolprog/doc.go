// Package boolprog represents, prints and model-checks boolean programs:
// the abstraction of a Go+SQL program over a set of predicates, one boolean
// variable b_i per predicate (Ball and Rajamani's boolean programs, as used
// by the seed paper).
//
// A Program is a control-flow graph whose edges carry one statement each:
// Skip, *Assume (block unless the condition holds) or *Assign (a parallel
// assignment b_i, b_j := choose(p, n), ...; all right-hand sides are read in
// the pre-state). choose(p, n) is true if p holds, false if n holds, and
// nondeterministic ('*') if neither; if both hold the state is inconsistent
// and has no successor.
//
// Reach decides whether the Error location is reachable by an explicit-state
// breadth-first fixpoint over three-valued abstract states (Top stands for
// "either value, independently"), splitting lazily on the unknown variables
// an expression actually reads, and projecting every state onto the
// variables live at its location. The state space is finite, so Reach always
// terminates; its trace is a shortest one.
//
// Paths is the seed paper's baseline: it enumerates the CFG paths from Entry
// to Error, shortest first, up to a limit.
//
// String prints a program in the seed paper's (Ball and Rajamani) syntax.
package boolprog
