// Package vcgen builds the verification condition of one path of a lowered
// ir.Program and reads counterexamples off its models.
//
// Build puts a path (the ir edges of an abstract counterexample, from Entry
// to Error) into SSA form: every variable x gets versions x@0 (its value at
// entry), x@1, … as fresh ir variables. An Assign makes new versions equal
// to its right-hand sides over the old ones, a Havoc makes new
// unconstrained versions, an Assume contributes its condition. The result
// keeps one constraint per step, with the version map after each, so the
// caller can assert the steps one by one (push/check) and find the
// shortest infeasible prefix.
//
// A model of the formula is a concrete run. Validate re-evaluates every
// step under the model with ir.Eval, independently of the solver: no
// UNSAFE verdict is given for a model that fails it. report.BuildTrace
// turns the model into the counterexample a user reads (inputs, initial
// rows, source steps with the values they assign, the violating row), with
// FirstVersions and ReadVars; ApproxReads says whether the path rests on
// an over-approximated value.
package vcgen
