package rules

import (
	"fmt"
	"strings"
)

// ParseError is a syntax error in a query or constraint. Offset is the
// 0-based byte offset within Query of the token the parser stopped at
// (len(Query) when the input ended too early).
type ParseError struct {
	Query  string
	Offset int
	Msg    string // e.g. "syntax error"
	Near   string // the offending token as the parser saw it, if any
}

// Position returns the 1-based line and byte column of Offset within Query,
// so a caller can add them to the position of the string literal.
func (e *ParseError) Position() (line, col int) {
	off := e.Offset
	if off > len(e.Query) {
		off = len(e.Query)
	}
	if off < 0 {
		off = 0
	}
	before := e.Query[:off]
	line = 1 + strings.Count(before, "\n")
	col = off - (strings.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// AtEnd reports whether the error is at the end of the input.
func (e *ParseError) AtEnd() bool {
	return e.Offset >= len(strings.TrimRight(e.Query, " \t\r\n;"))
}

// Describe describes the error without its position.
func (e *ParseError) Describe() string {
	msg := e.Msg
	if msg == "" {
		msg = "syntax error"
	}
	switch {
	case e.AtEnd():
		return msg + " (unexpected end of input)"
	case e.Near != "":
		return fmt.Sprintf("%s near %q", msg, e.Near)
	}
	return msg
}

// Error renders e.g. `syntax error at column 8 near "frm"`, with a line
// number for multi-line queries.
func (e *ParseError) Error() string {
	var b strings.Builder
	msg := e.Msg
	if msg == "" {
		msg = "syntax error"
	}
	b.WriteString(msg)
	line, col := e.Position()
	if strings.Contains(e.Query, "\n") {
		fmt.Fprintf(&b, " at line %d, column %d", line, col)
	} else {
		fmt.Fprintf(&b, " at column %d", col)
	}
	switch {
	case e.AtEnd():
		b.WriteString(" (unexpected end of input)")
	case e.Near != "":
		fmt.Fprintf(&b, " near %q", e.Near)
	}
	return b.String()
}

// UnsupportedError reports a statement that may change rows in a way the
// IR cannot express (CALL, WITH, a multi-table
// UPDATE assigning several tables, …). Callers must not ignore it: the
// verdict for code that runs it is UNKNOWN.
type UnsupportedError struct {
	Query  string
	Reason string
	// Tables lists the tables the statement writes, when known.
	Tables []string
}

func (e *UnsupportedError) Error() string {
	return "unsupported SQL: " + e.Reason
}

// ErrNotOneRow is matched (errors.Is) by the error of a constraint that
// is not over one row: it has a subquery or an aggregate.
var ErrNotOneRow = notOneRow("the constraint is not over one row")

// NotOneRow returns the error msg of a constraint that is not over one
// row (errors.Is(err, ErrNotOneRow)).
func NotOneRow(msg string) error { return notOneRow(msg) }

type notOneRow string

func (e notOneRow) Error() string { return string(e) }

// Is makes every such error match ErrNotOneRow.
func (notOneRow) Is(target error) bool {
	_, ok := target.(notOneRow)
	return ok
}
