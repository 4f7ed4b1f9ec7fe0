// Package spec holds what dbverify is asked to prove and what it may
// assume, as types: properties (Property: RowCheck, a row-level
// invariant ∀ r ∈ T : ψ(r), and Reference, "T.c IN (SELECT k FROM U)" or
// its EXISTS form with k a declared key of U) and facts
// (Fact: TableFact, true of every row of a table in the initial database,
// and ParamFact, true of an entry's parameters).
//
// It parses them from the command line (Resolve, ParseFacts), turns the
// schema's CHECK constraints into properties (FromSchema) and facts
// (CheckFacts) by one rule each, and checks their names against the
// schema and the program's SQL (CheckNames) so that a typo is a usage
// error rather than a vacuous SAFE. Nothing here loads Go: the program is
// seen through the Program interface.
//
// The row model (package dbmodel) gives a property its meaning; package
// instrument turns it into watched rows and checks.
package spec
