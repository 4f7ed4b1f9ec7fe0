// Package crosscheck checks dbverify's verdicts on the corpus by
// execution: every case's entry functions are called on a real database
// of the case's dialect (PostgreSQL or MariaDB, started by groundtruth).
//
// A SAFE verdict is checked with random runs: initial rows satisfying the
// constraint (and the schema's CHECKs and --assume facts) and random
// inputs; a run that leaves a row breaking the constraint is a wrong SAFE.
// An UNSAFE verdict is checked by replaying its counterexample: its rows
// are seeded, the entry is called with its inputs, and the constraint must
// be broken afterwards; a counterexample that does not reproduce is
// classified (it needs a database call to fail, it depends on the result
// of an external call, or it is a false UNSAFE). UNKNOWN verdicts get
// random runs too, which may show the expected final UNSAFE.
//
// The execution core (driver generation, schema, seeding, checking) is
// package witness.
package crosscheck
