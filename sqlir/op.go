package sqlir

import "fmt"

// Op is the operator of a Binary expression. The zero value is not an
// operator: a parser never builds it, and a consumer that meets it (or any
// value it does not know) must treat the expression as unknown, never
// guess.
type Op int

// The binary operators.
const (
	OpInvalid Op = iota

	// Arithmetic.
	OpAdd    // +
	OpSub    // -
	OpMul    // *
	OpDiv    // / (exact division; for integer operands see the dialect)
	OpMod    // %
	OpDivInt // MySQL DIV: the quotient truncated toward zero

	// Comparisons (three-valued: NULL when an operand is NULL).
	OpEq // =
	OpNe // <>
	OpLt // <
	OpLe // <=
	OpGt // >
	OpGe // >=

	// Boolean connectives (three-valued).
	OpAnd // AND
	OpOr  // OR

	numOps
)

var opText = [numOps]string{
	OpAdd: "+", OpSub: "-", OpMul: "*", OpDiv: "/", OpMod: "%", OpDivInt: "DIV",
	OpEq: "=", OpNe: "<>", OpLt: "<", OpLe: "<=", OpGt: ">", OpGe: ">=",
	OpAnd: "AND", OpOr: "OR",
}

// String returns the operator's SQL spelling ("+", "DIV", "<>", "AND").
func (o Op) String() string {
	if o > OpInvalid && o < numOps {
		return opText[o]
	}
	return fmt.Sprintf("Op(%d)", int(o))
}

// Valid reports whether o is one of the operators above.
func (o Op) Valid() bool { return o > OpInvalid && o < numOps }

// IsArith reports + - * / % DIV.
func (o Op) IsArith() bool { return o >= OpAdd && o <= OpDivInt }

// IsComparison reports = <> < <= > >=.
func (o Op) IsComparison() bool { return o >= OpEq && o <= OpGe }

// IsLogical reports AND and OR.
func (o Op) IsLogical() bool { return o == OpAnd || o == OpOr }

// UnaryOp is the operator of a Unary expression; the zero value is not an
// operator.
type UnaryOp int

// The unary operators.
const (
	UnaryInvalid UnaryOp = iota
	OpNot                // NOT (three-valued)
	OpNeg                // - (arithmetic negation)
)

// String returns the operator's SQL spelling ("NOT" or "-").
func (o UnaryOp) String() string {
	switch o {
	case OpNot:
		return "NOT"
	case OpNeg:
		return "-"
	}
	return fmt.Sprintf("UnaryOp(%d)", int(o))
}
