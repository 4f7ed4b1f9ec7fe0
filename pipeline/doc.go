// Package pipeline runs dbverify end to end: it loads the packages, finds
// the entry points, translates each into the IR, lowers it into the row
// model of each constraint and runs the CEGAR loop, on a pool of workers
// with one solver each. It returns results; it never prints (package
// cmd/dbverify does).
package pipeline
