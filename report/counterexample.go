package report

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// A Counterexample is a concrete run that breaks the constraint, as a
// user reads it: the entry's arguments, the rows of the database
// involved, the source steps taken and the row state that breaks the
// constraint. BuildTrace makes one; its maps and slices are never nil.
type Counterexample struct {
	Entry  string `json:"-"` // the entry's IR name (Result.Entry is the one to show)
	Inputs Inputs `json:"inputs"`
	// Outside are the values the path reads from calls outside the
	// analysed code (a decoded request body, a parsed number, a clock),
	// each as first read: inputs too, though not parameters.
	Outside Inputs `json:"outside,omitempty"`
	// Clock are the instants the path's time.Now() calls read, in
	// nanoseconds since 1970 UTC, in the order of the calls: inputs of
	// the run that a replay sets (the calls are also among Outside).
	Clock []string `json:"clock,omitempty"`
	// HTTP are the values of the HTTP request the path depends on, as a
	// client sends them: each parameter (or JSON body field) with its
	// text and the value the program parsed from it. Each stands for
	// the inputs (or outside values) its Vars name, which the text
	// report does not repeat.
	HTTP      []HTTPInput `json:"http,omitempty"`
	Rows      []Row       `json:"rows"`
	Steps     []Step      `json:"steps"`
	Violation *Row        `json:"violation"`
	// Errors name the values (of the steps and the inputs) that are Go
	// errors: "false" is nil, "true" an error; the text report prints
	// them so (StepValues).
	Errors []string `json:"errors,omitempty"`
	// Notes explain names the values use (str1: a string no literal of
	// the program spells).
	Notes []string `json:"notes,omitempty"`
}

// Inputs are the values of the entry's inputs, the parameters first, in
// program order. In JSON they are one object, name to value (so a name
// given twice keeps its last value, and decoding gives them in name
// order).
type Inputs []Binding

// A Binding is the value of one input.
type Binding struct {
	Name  string
	Value string
}

// MarshalJSON writes the inputs as one object with sorted keys.
func (in Inputs) MarshalJSON() ([]byte, error) {
	m := make(map[string]string, len(in))
	for _, b := range in {
		m[b.Name] = b.Value
	}
	return json.Marshal(m)
}

// UnmarshalJSON reads an object of inputs, in name order.
func (in *Inputs) UnmarshalJSON(data []byte) error {
	var m map[string]string
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	out := Inputs{}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, Binding{Name: k, Value: m[k]})
	}
	*in = out
	return nil
}

// Map returns the inputs as a map from name to value.
func (in Inputs) Map() map[string]string {
	m := make(map[string]string, len(in))
	for _, b := range in {
		m[b.Name] = b.Value
	}
	return m
}

// A Row is the column values of one row symbol ("r" is the watched row,
// "s1" the row of the first SELECT, …). The violation has no symbol.
type Row struct {
	Symbol string            `json:"symbol,omitempty"`
	Table  string            `json:"table"`
	Values map[string]string `json:"values"` // column → value
}

// A Step is one source statement of the path.
type Step struct {
	Position string            `json:"position"` // file:line
	Kind     string            `json:"kind"`     // sql, branch, assign, call, return
	Text     string            `json:"text"`
	Values   map[string]string `json:"values"` // variable → new value
	// Request names the request that took the step in a counterexample
	// of concurrent requests ("A", "B"); "" otherwise.
	Request string `json:"request,omitempty"`
	// NoRows is set on a sql step whose query failed because no row
	// matched (the program's Scan gets sql.ErrNoRows, pgx.ErrNoRows), not
	// with a server error: a replay makes the query return no row.
	NoRows bool `json:"no_rows,omitempty"`
	// Fails is set on a sql step whose database operation failed: its
	// error result (the variable the frontend marks, ir.Var.SQLErr, which
	// the program may name as it likes) is non-nil. A replay makes it fail.
	Fails bool `json:"fails,omitempty"`
	// Outcome is, on a branch step, the value its condition (as the
	// source writes it) has on the path: "true" (into the body of the
	// if, the loop, the case) or "false"; "" when the step decides none.
	Outcome string `json:"outcome,omitempty"`
	// SQL is, on a sql step, the statement as the database ran it: Text
	// with each placeholder replaced by the value bound to it (one whose
	// value is not known stays); Args are those values by placeholder
	// index ("" where not known). Both empty for a statement without
	// placeholders.
	SQL  string   `json:"sql,omitempty"`
	Args []string `json:"args,omitempty"`
	// Note explains the step where its text alone misleads: a statement
	// on the pool while a transaction is open runs outside it.
	Note string `json:"note,omitempty"`
	// Generated: the step is in a file of generated code (sqlc's
	// queries); the text folds it into the call that runs it unless it
	// is a statement (ShownSteps).
	Generated bool `json:"generated,omitempty"`
}

// Statement is the step's text as a reader should see it: a SQL
// statement with its bound values (SQL) where known, else Text.
func (s Step) Statement() string {
	if s.SQL != "" {
		return s.SQL
	}
	return s.Text
}

// String prints the counterexample as the text report does, headed by
// the entry's name.
func (c *Counterexample) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "entry %s\n", c.Entry)
	writeCounterexample(&b, c, nil, false)
	return b.String()
}

// StepValues lists a step's values by name as JoinValues does, an error
// (c.Errors) as nil or non-nil.
func (c *Counterexample) StepValues(m map[string]string) string {
	if len(c.Errors) == 0 {
		return JoinValues(m)
	}
	shown := make(map[string]string, len(m))
	for k, v := range m {
		shown[k] = c.errorValue(k, v)
	}
	return JoinValues(shown)
}

// errorValue is value v of name k, "nil" or "non-nil" if k is an error.
func (c *Counterexample) errorValue(k, v string) string {
	if !slices.Contains(c.Errors, k) {
		return v
	}
	switch v {
	case "false":
		return "nil"
	case "true":
		return "non-nil"
	}
	return v
}

// JoinValues lists a row's or a step's values by name: "a = 1, b = 2".
func JoinValues(m map[string]string) string {
	keys := slices.Sorted(maps.Keys(m))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + " = " + m[k]
	}
	return strings.Join(parts, ", ")
}
