package report

// Classes of findings.
const (
	// FindingTxEscape: a statement runs on the pool (*sql.DB) while a
	// transaction of the same request is open, so it commits on its own,
	// outside the transaction (go-critic#552).
	FindingTxEscape = "tx-escape"
)

// A Finding is a warning of a class of its own about the program, not a
// verdict of a constraint (with --concurrent: tx-escape). Text output
// prints "pos: warning[class]: message", JSON lists them in "findings",
// SARIF gives each class its own rule.
type Finding struct {
	Class string `json:"class"`
	// Entry is the first verified entry that runs the statement.
	Entry string `json:"entry"`
	// Position is "file:line" of the statement; Related that of what it
	// relates to (tx-escape: the BEGIN of the open transaction).
	Position string `json:"position"`
	Related  string `json:"related,omitempty"`
	Message  string `json:"message"`
}
