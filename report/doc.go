// Package report is dbverify's output layer: one result schema and the
// writers that render it.
//
// The schema (Report, Result, Coverage, Stats and Counterexample) is what
// `dbverify check --format json` prints, field for field: the JSON tags
// are the contract with its consumers (the benchmark harness, the
// explore command, the witness replay, CI scripts). Package pipeline
// fills a Report; every writer reads the same one.
//
// A Writer renders a Report to an io.Writer; Format names the writers
// (text, json, sarif, github) and Format.Writer picks one with the
// Options of the run. Writers never print to the terminal themselves:
// the command gives them its standard output.
//
// BuildTrace reads a Counterexample off a model of a path formula
// (package vcgen): the entry's inputs, the initial rows, the source steps
// with the values they assign, and the row that breaks the constraint.
// It relies on the row model's naming of symbols (package dbmodel), kept
// in naming.go.
package report
