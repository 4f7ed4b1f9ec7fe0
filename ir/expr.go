package ir

import (
	"math/big"
)

// Sort is the type of an expression.
type Sort uint8

const (
	Int Sort = iota
	Bool
	Real
)

func (s Sort) String() string {
	switch s {
	case Int:
		return "int"
	case Bool:
		return "bool"
	case Real:
		return "real"
	}
	return "?"
}

// VarKind says what a variable stands for; it decides how a trace shows it.
type VarKind uint8

const (
	Local  VarKind = iota // a Go value (SSA value or memory cell) of the program
	Input                 // an argument of the entry point (or a value read from one)
	Column                // the current value of a row symbol's column
	Ghost                 // bookkeeping of the model (flags, snapshots, choices)
)

// A Var is a program variable. Vars are compared by pointer; Name is unique
// within a Program.
type Var struct {
	Name string
	Type Sort
	Kind VarKind

	// For Kind == Column: the row symbol, its table and the column.
	Row, Table, Col string

	// Str: the integer is a string's code (ir.StringCode): a Go string,
	// or a column the schema declares as text. Traces print it as the
	// string.
	Str bool
	// Internal: an unexported field of a type declared outside the
	// analysed module (time.Time's wall, sync.Mutex's sema) or part of
	// one: traces leave it out unless a branch of the path tests it.
	Internal bool

	// ConvOf, when set, makes the variable the value of a Go conversion
	// the source writes (int32(bal), float64(n), string(b)), named as
	// written: traces show it, and ConvOf is the variable converted (nil
	// when the operand is no single variable), whose value a trace shows
	// beside it where the conversion changes it (a wrap, a truncation).
	// Conv is set on every such variable; ConvAny when the model does
	// not evaluate the conversion (string(b) of a []byte): its value is
	// any value of its type, which a trace says.
	Conv    bool
	ConvAny bool
	ConvOf  *Var

	// Approx, when set, says why the variable's arbitrary value
	// over-approximates what the program can hold (an element of a slice
	// the program filled, with its position): a counterexample that reads
	// it may be spurious.
	Approx string

	// Named: the name is one the source gives (a local variable, a
	// parameter, a field of one), not an SSA register's. A trace shows
	// it whatever its shape: a user's t1 is not the temporary t1.
	Named bool
	// Scope is the prefix the frontend gives the names of an inlined
	// function's locals ("feeOf.", "Withdraw$func." for a closure), so
	// that they do not clash with the caller's; "" for the entry's own.
	// A trace shows the name without it: the name the function writes.
	Scope string
	// Err: the variable holds a Go error (false: nil); traces print it
	// as nil or an error.
	Err bool
	// SQLErr: the variable is the error result of a database operation
	// (ir.Exec, ir.Select, ir.TxOp: a statement, BEGIN, COMMIT or
	// ROLLBACK), true where the operation failed. The frontend marks it
	// whatever the program names the error (err, e, dbErr, or none: `_`);
	// a counterexample's failing steps are keyed on it (report.Step.Fails).
	SQLErr bool
	// HTTP, when set, says the variable holds a value of the HTTP
	// request the entry handles, or a value parsed from one: a trace
	// shows it as the request's parameter (see HTTPSource).
	HTTP *HTTPSource
	// Time: the variable stands for a Go time.Time bound to a statement
	// (the model orders times as numbers): traces print its value as a
	// timestamp, as the engine reads it.
	Time bool
	// Rows, when set, marks a variable a query's result set is read
	// through (rows.go).
	Rows *RowsMark
	// TimeOf, set on a Time variable that stands for an entry's input of
	// type time.Time bound as it came in (a parameter, a field reached
	// from one), is that input's wall field (newEnd.wall): a trace lists
	// the time among the inputs as the input (newEnd), so that a replay
	// passes it.
	TimeOf *Var
	// Clock: the variable is the instant a time.Now() call reads
	// (nanoseconds since 1970 UTC), an input of the run that a replay
	// sets (the frontend's clock.go).
	Clock bool
}

// Op is an operator of Unary or Binary.
type Op uint8

const (
	OpAdd Op = iota
	OpSub
	OpMul
	OpDiv // integer division truncated toward zero (Go semantics), or real division
	OpMod // remainder with the sign of the dividend (Go semantics)
	OpEq
	OpNe
	OpLt
	OpLe
	OpGt
	OpGe
	OpAnd
	OpOr
	OpImplies
	OpNot
	OpNeg
)

var opText = [...]string{
	OpAdd: "+", OpSub: "-", OpMul: "*", OpDiv: "/", OpMod: "%",
	OpEq: "==", OpNe: "!=", OpLt: "<", OpLe: "<=", OpGt: ">", OpGe: ">=",
	OpAnd: "&&", OpOr: "||", OpImplies: "=>", OpNot: "!", OpNeg: "-",
}

func (op Op) String() string { return opText[op] }

// IsComparison reports whether op relates two numbers (or booleans for == and !=).
func (op Op) IsComparison() bool { return op >= OpEq && op <= OpGe }

// Expr is an expression of the IR. The concrete types are *Var, *IntConst,
// *RealConst, BoolConst, *Unary, *Binary, *Ite and *ToReal.
type Expr interface {
	Sort() Sort
	String() string
	exprNode()
}

// IntConst is an integer literal.
type IntConst struct{ V *big.Int }

// RealConst is a rational literal.
type RealConst struct{ V *big.Rat }

// BoolConst is true or false.
type BoolConst bool

// Unary is !X or -X.
type Unary struct {
	Op Op
	X  Expr
}

// Binary is X Op Y.
type Binary struct {
	Op   Op
	X, Y Expr
}

// Ite is "if Cond then Then else Else".
type Ite struct {
	Cond, Then, Else Expr
}

// ToReal converts an Int expression to Real.
type ToReal struct{ X Expr }

func (v *Var) Sort() Sort     { return v.Type }
func (*IntConst) Sort() Sort  { return Int }
func (*RealConst) Sort() Sort { return Real }
func (BoolConst) Sort() Sort  { return Bool }
func (*ToReal) Sort() Sort    { return Real }
func (e *Ite) Sort() Sort     { return e.Then.Sort() }
func (e *Unary) Sort() Sort {
	if e.Op == OpNot {
		return Bool
	}
	return e.X.Sort()
}
func (e *Binary) Sort() Sort {
	switch e.Op {
	case OpAdd, OpSub, OpMul, OpDiv, OpMod:
		return e.X.Sort()
	}
	return Bool
}

func (*Var) exprNode()       {}
func (*IntConst) exprNode()  {}
func (*RealConst) exprNode() {}
func (BoolConst) exprNode()  {}
func (*Unary) exprNode()     {}
func (*Binary) exprNode()    {}
func (*Ite) exprNode()       {}
func (*ToReal) exprNode()    {}
