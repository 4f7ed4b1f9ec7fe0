package dbmodel

// Concurrency configures the row model for concurrent requests (see
// package interleave and Options.Concurrency). With it:
//
//   - a locking read (SELECT … FOR UPDATE / FOR SHARE) in an open
//     transaction takes the lock of every row it matches, held until
//     COMMIT or ROLLBACK, as a write does (locks.go): a write or locking
//     read of another transaction that matches r while r is locked waits
//     (its success path is infeasible: the schedule in which the lock
//     holder ends first covers it);
//   - with Interference, other requests, unseen, may commit before each
//     database operation (interference.go): the stability check of the
//     "prove first" stage.
type Concurrency struct {
	// Interference havocs, before each database operation, the watched
	// row's committed state to any state satisfying the constraint (and
	// the schema's CHECKs) unless a transaction of the program holds its
	// row lock, and forgets the rows read so far (they may have changed):
	// the rely of a rely-guarantee proof in which every request's commits
	// keep the constraint. A program SAFE so is SAFE for any number of
	// concurrent requests.
	Interference bool
	// FirstUpdaterWins makes a write or locking read of r fail (40001)
	// where r changed since its transaction's snapshot (Postgres
	// REPEATABLE READ and SERIALIZABLE; see isolation.go).
	FirstUpdaterWins bool
	// ConsistentReads makes a transaction's first plain read take its
	// snapshot, which its later plain reads of r read (InnoDB's
	// REPEATABLE READ; see consistent.go).
	ConsistentReads bool
	// NextKeyLocks says that the engine's locking reads and writes also
	// lock the gaps between rows (InnoDB at REPEATABLE READ and
	// SERIALIZABLE): an INSERT waits for a DELETE or a locking read
	// that scanned its gap. The row model has no gap locks; a model that
	// needs them for its verdicts (a reference: refconcurrent.go) is
	// UNKNOWN under this flag.
	NextKeyLocks bool
}

// concurrent reports whether the model is of concurrent requests.
func (m *lowerer) concurrent() bool { return m.opt.Concurrency != nil }
