// Command dbverify proves that Go programs keep row-level database
// constraints, or shows a concrete run that breaks one.
//
//	dbverify check --constraint "accounts.balance >= 0" ./...
//
// Exit codes: 0 every result SAFE; 1 some result UNSAFE; 2 usage, load or
// parse error; 3 some result UNKNOWN and --fail-on-unknown.
//
// This package owns the command line and the output formats (text, json,
// sarif); everything else happens in package pipeline and below, which
// never print.
package main
