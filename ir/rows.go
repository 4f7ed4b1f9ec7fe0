package ir

// Rows read twice. Whether rows.Next() returns a row, and the values a
// rows.Scan reads, are arbitrary at each call: the row model keeps no
// result set of a query from one execution to the next. Two executions
// of one query with the same arguments, with no write to its tables
// between them, read the same rows in a real run, but may disagree in
// the model (independent tester adv16 fu3: a first loop over SELECT
// amount FROM charges found no row and passed a funds check, the
// identical second found a charge of 15). The front end marks the
// variables a result set is read through (Var.Rows), so that a
// counterexample can be checked for such a disagreement
// (vcgen.PathFormula.RereadRows): one that has it is not reported as
// certain. One execution, or two on exclusive branches, is unaffected.

// A RowsSite is a query whose rows a program iterates (one Query call).
type RowsSite struct {
	// Text is the statement as written (compact); Tables are the tables
	// it reads.
	Text   string
	Tables []string
	// Rows names the rows it returns, whatever columns it selects: its
	// tables, WHERE, ORDER BY and LIMIT (its Text where the model does
	// not read them: a join, an OFFSET). Two executions with the same
	// Rows and arguments return the same rows.
	Rows string
	// Args are the values bound to its placeholders, over the program's
	// variables where the query runs (nil entries: not known).
	Args []Expr
}

// RowsRole is what a variable marked with a RowsSite holds.
type RowsRole int

// The RowsRole values.
const (
	// RowsStart: the query's error, havocked where the query runs (a new
	// result set).
	RowsStart RowsRole = iota
	// RowsNext: the result of rows.Next().
	RowsNext
	// RowsScan: a copy of result column Index that rows.Scan read.
	RowsScan
)

// RowsMark marks a variable a result set is read through.
type RowsMark struct {
	Site  *RowsSite
	Role  RowsRole
	Index int
	// Err, for RowsScan, is the Scan's error: where it failed, the copy
	// holds no value read. Column is the result column read, as the model
	// reads it (its expression; "#i" where it is not known).
	Err    *Var
	Column string
}
