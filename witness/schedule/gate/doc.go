// Package gate holds requests' database operations until a schedule
// grants them: the scheduler of witness/schedule's driver.
//
// Each request calls Enter before an operation (BEGIN, a statement,
// COMMIT, ROLLBACK), which blocks until the scheduler grants it, and Exit
// after it. The scheduler (RunSteps for a given order, Drain or RunRandom
// for the rest) grants one operation at a time and waits until the
// request moves on to its next operation or returns; an operation that
// does not (it waits for a row lock another request holds) is marked
// blocked, and the schedule goes on with another request.
//
// The package has no dependencies beyond the standard library: its source
// (Source) is copied into the generated driver's runtime package.
package gate
