// Package witness checks a verdict by execution: it runs an entry point of
// the analysed program itself against a real database seeded with chosen
// rows and checks the constraint on every row afterwards.
//
// It has three parts, shared by the corpus cross-check
// (benchmarks/crosscheck) and `dbverify replay` (Replay, which also writes
// a counterexample's regression test: ReplayResult.TestFile):
//
//   - a driver generator (GenerateDriver): a small Go program, built with
//     `go build -overlay` inside the analysed module, that calls each entry
//     with its parameters and receiver filled from named inputs (database
//     handles from one open database, context.Context from a context,
//     numbers, strings and decimals from the input values) and serves SQL
//     for the harness over JSON lines on stdin/stdout (Driver);
//   - the schema of the database the run uses: the program's own DDL when
//     it has one, otherwise tables synthesised from the SQL the program
//     runs (Synthesize), with the key dbverify assumes (a column named id);
//   - seeding and checking: the initial rows of a counterexample (row
//     symbols with equal keys are one row) or random rows that satisfy the
//     constraint, and the violation query run after the call (Check).
package witness
