// Package instrument turns a property (package spec) into what the row
// model (package dbmodel) checks: the watched rows it tracks, the
// conditions whose columns it must track, what holds of every row of the
// initial database, and the violation it branches to the Error location
// on at every commit point.
//
// The row model stays free of any property: it asks an Instrumentation,
// and gives it the watched rows in the committed state (Row) with a
// translator of SQL conditions over them. A new kind of property is a
// type in spec and an Instrumentation here (see For).
package instrument
