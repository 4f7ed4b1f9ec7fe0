// Package interleave builds the product of ir.Programs that run as
// concurrent requests: one ordinary ir.Program whose executions are the
// interleavings of the requests' executions, so that the row model
// (package dbmodel) and the CEGAR back end check it unchanged.
//
// Each request is a copy of its program with its own variables (prefixed
// with the request's name, "A.", "B.", …), its own transaction ids (the
// handles of one request are renumbered after those of the requests
// before it; the pool, handle 0, is shared) and its statements tagged
// with the request (ir.Info.Request), for traces.
//
// Requests switch only where the running request stands before a
// database operation (Exec, Select, TxOp) or has ended: the Go code
// between two database operations runs without a switch, as its effects
// are local to the request. A product location is a tuple of the
// requests' locations; at most one request is between database
// operations at any time (it runs), and where every request stands
// before a database operation or has ended, any request that has not
// ended may perform its next operation. The product has as many
// locations as there are reachable tuples, which grows with the number
// of database operations, not with the number of Go statements.
//
// Build with Options.Reduce applies a partial-order reduction (reduce.go):
// of two adjacent operations of different requests that commute (their
// footprints, footprint.go, do not conflict) only one order is kept. Size
// measures a product (states, interleavings), with and without it.
//
// Shared memory (package-level variables) is not part of the model: each
// request's Go state is its own. A goroutine inside a request is run at
// its go statement where that order stands for every interleaving of the
// two threads (GoroutineConflict, goroutine.go).
package interleave
