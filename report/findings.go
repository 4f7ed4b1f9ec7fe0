package report

// Classes of findings.
const (
	// FindingTxEscape: a statement runs on the pool (*sql.DB) while a
	// transaction of the same request is open, so it commits on its own,
	// outside the transaction (go-critic#552).
	FindingTxEscape = "tx-escape"
	// FindingLostUpdate: a request reads a cell without a lock, computes
	// a new value from it in Go and writes it back absolutely, at an
	// isolation level that lets two requests both read the old value: the
	// second write overwrites the first, and the final value differs from
	// both serial orders.
	FindingLostUpdate = "lost-update"
	// FindingCheckInsert: a request reads whether a row with a key exists
	// and, having found none, inserts one, with no lock that blocks a
	// concurrent insert of the key: two requests both insert (duplicate
	// rows without a UNIQUE key, else an unhandled unique violation).
	FindingCheckInsert = "check-then-insert"
	// FindingOrderDependence: two requests (two entries, or one entry on
	// other inputs) that both write a cell of a constrained table end
	// with a different value in it depending on which runs first, both
	// succeeding in either order.
	FindingOrderDependence = "order-dependence"
	// FindingDeadlock: a transaction locks rows by key in an order that
	// another request may reverse (x then y against y then x), or takes
	// the exclusive lock of a row it holds shared: two requests wait for
	// each other, and the engine fails one (PostgreSQL 40P01, MySQL 1213),
	// where the code does not retry on that error.
	FindingDeadlock = "deadlock"
)

// A Finding is a warning of a class of its own about the program, not a
// verdict of a constraint (with --concurrent: tx-escape, lost-update,
// check-then-insert, order-dependence, deadlock).
// Text output prints "pos: warning[class]: message", JSON lists them in
// "findings", SARIF gives each class its own rule.
type Finding struct {
	Class string `json:"class"`
	// Entry is the first verified entry that runs the statement.
	Entry string `json:"entry"`
	// Position is "file:line" of the statement; Related that of what it
	// relates to (tx-escape: the BEGIN of the open transaction;
	// lost-update: the read whose value is written back; check-then-insert:
	// the read that found no row; order-dependence: the other request's
	// write; deadlock: the lock taken first).
	Position string `json:"position"`
	Related  string `json:"related,omitempty"`
	Message  string `json:"message"`
}
