// Package schedule replays a schedule of two (or more) concurrent requests
// on a real database: the ground truth for `dbverify check --concurrent`.
//
// A request is one call of an entry point of the analysed program with its
// own database handles (its own *sql.DB or pgx pool: a replica of the
// application). The program is driven by a witness driver (package
// witness: generated with `go build -overlay` inside the program's module)
// whose runtime is extended with a gate (package gate): every database
// operation — BEGIN, a statement, COMMIT, ROLLBACK — of a request waits
// until the schedule grants it. A granted operation that does not return
// at once and whose session waits for a lock in the engine
// (pg_stat_activity, information_schema.innodb_trx) is marked blocked, and
// the schedule goes on with the other request's next step, as it says. On
// SQLite (a database file, each request's pool with a busy timeout) a
// statement waiting for the database lock sleeps in the busy handler and
// SQLite shows no waiters: a granted operation that does not return
// within Timing.Short is taken as blocked.
//
// A Schedule is the JSON the verifier emits for a concurrent
// counterexample: the requests with their inputs, the initial rows, the
// steps (request, k-th operation) and the isolation level. A hand-written
// schedule may give the steps as an order string ("A1 B1 A2 B2 A3 B3").
// Run seeds the rows, runs the steps, lets the requests finish, and
// reports per request its error and operations, the constraint checked
// after every commit and at the end, and the final rows. RunRandom runs
// requests under a random schedule instead (stress tests of SAFE
// programs); a schedule without steps runs the requests serially.
//
// A request's operations are numbered in the order they arrive. The
// goroutines of one request (a `go` statement that writes) arrive in an
// order the Go scheduler picks; a step is granted only once no operation
// has arrived for Timing.Settle, which makes that order stable unless the
// process is starved, and Outcome.Followed tells whether the run followed
// the schedule as written.
//
// corpus_truth_test.go establishes the verdicts of
// benchmarks/corpus/concurrent with this package: each UNSAFE schedule
// replays and breaks its constraint (and both serial orders keep it), each
// SAFE case survives random concurrent runs (the SQLite cases under the
// rollback journal and WAL); sqlite_stress_test.go runs the SQLite cases'
// requests without the gate, truly at once.
package schedule
