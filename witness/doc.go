// Package witness checks a verdict by execution: it runs an entry point of
// the analysed program itself against a real database (SQLite embedded,
// PostgreSQL, MySQL/MariaDB) seeded with chosen rows and checks the
// constraint at every commit point and on every row afterwards.
//
// It has three parts, shared by the corpus cross-check
// (benchmarks/crosscheck) and `dbverify replay` (Replay, which also writes
// a counterexample's regression test: ReplayResult.TestFile):
//
//   - a driver generator (GenerateDriver): a small Go program, built with
//     `go build -overlay` inside the analysed module, that calls each entry
//     with its parameters and receiver filled from named inputs (database
//     handles from one open database, an open transaction begun before
//     the call and committed after it, context.Context from a context,
//     numbers, strings, decimals and time.Time timestamps from the input
//     values, an HTTP
//     request or a gin/echo context built from the "$http.…" inputs, its
//     JSON body marshalled from the Go type the handler decodes into), a
//     closure its function returns or registers on a router, a struct of
//     another package from its New… constructor or with its database
//     handles filled by reflection, a generic entry instantiated with
//     struct{} (or its constraint's first type), and serves
//     SQL for the harness over JSON lines on stdin/stdout (Driver), with
//     the statements each call ran and their bound arguments; a call
//     waits (at most five seconds) for the goroutines the entry started
//     (found by a runtime/pprof label they inherit), whose statements
//     are part of the call;
//   - the schema of the database the run uses: the program's own DDL when
//     it has one, otherwise tables synthesised from the SQL the program
//     runs (Synthesize), with the key dbverify assumes (a column named id);
//   - seeding and checking: the initial rows of a counterexample (row
//     symbols with equal keys are one row; ReplayRun), completed with the
//     rows its trace's writes matched without listing them, learnt from
//     the statements an execution ran (ReplayExecute, OmittedRows; a
//     write … RETURNING's row holds what its Scan read), the rows the
//     trace's SELECTs read seeded first, with the smallest key values
//     when the trace leaves them free, so that the engine returns the
//     row the model read (orderReads; Run.Unordered when it cannot), the
//     rows a SELECT's OFFSET skips seeded before the row it read (copies
//     of it, earlier in the read's order: skippedRows), an
//     INSERT the trace makes fail left to fail on the seeded key with the
//     engine's own error (naturalRun), or
//     random rows that satisfy the constraint, and the violation query run
//     after the call.
//
// A replay names the counterexample's inputs its call cannot set (a
// closure's captured variables, values left at their zero value:
// unsetInputs).
//
// The emitted regression test reuses the driver's call; a gin or echo
// handler is served through a new router of its framework (routedCall).
package witness
