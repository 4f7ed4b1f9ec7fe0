package rules

import (
	"math/big"

	"github.com/dbverify/dbverify/sqlir"
)

// The scalar functions and expression forms that are plain conditionals,
// rewritten into searched CASE with the same three-valued meaning. Each
// adapter recognises the form in its own AST, translates the operands and
// calls one of these; none of them shares a subtree between its operands.

// SearchedCase is CASE subject WHEN v1 THEN r1 … ELSE els END: with a
// subject (simple CASE) each when's condition v becomes "subject = v";
// without one (subject nil) the whens are kept as they are.
func SearchedCase(subject sqlir.Expr, whens []sqlir.When, els sqlir.Expr) *sqlir.Case {
	out := &sqlir.Case{Else: els}
	for i, w := range whens {
		if subject != nil {
			s := subject
			if i > 0 {
				s = Clone(subject)
			}
			w.Cond = &sqlir.Binary{Op: sqlir.OpEq, X: s, Y: w.Cond}
		}
		out.Whens = append(out.Whens, w)
	}
	return out
}

// If is IF(cond, then, els) (SQLite: iif): then when cond is TRUE, else els.
func If(cond, then, els sqlir.Expr) *sqlir.Case {
	return &sqlir.Case{Whens: []sqlir.When{{Cond: cond, Val: then}}, Else: els}
}

// Coalesce is COALESCE(args…) (IFNULL with two): the first argument that
// is not NULL, else NULL. nil without arguments.
func Coalesce(args []sqlir.Expr) sqlir.Expr {
	n := len(args)
	switch n {
	case 0:
		return nil
	case 1:
		return args[0]
	}
	c := &sqlir.Case{Else: args[n-1]}
	for _, a := range args[:n-1] {
		c.Whens = append(c.Whens, sqlir.When{Cond: &sqlir.IsNull{X: a, Not: true}, Val: Clone(a)})
	}
	return c
}

// NullIf is NULLIF(x, y): NULL when x = y, else x.
func NullIf(x, y sqlir.Expr) *sqlir.Case {
	return If(&sqlir.Binary{Op: sqlir.OpEq, X: x, Y: y}, &sqlir.Null{}, Clone(x))
}

// Abs is ABS(x): -x when x < 0, else x (NULL for NULL).
func Abs(x sqlir.Expr) *sqlir.Case {
	return If(&sqlir.Binary{Op: sqlir.OpLt, X: x, Y: &sqlir.Num{Val: new(big.Rat), IsInt: true}},
		&sqlir.Unary{Op: sqlir.OpNeg, X: Clone(x)}, Clone(x))
}

// NullPolicy is how a dialect's GREATEST and LEAST treat NULL arguments.
type NullPolicy int

const (
	// NullIfAnyNull: the result is NULL when any argument is NULL (MySQL's
	// GREATEST/LEAST, SQLite's scalar max/min).
	NullIfAnyNull NullPolicy = iota
	// IgnoreNulls: NULL arguments are skipped, and the result is NULL only
	// when all are (Postgres's GREATEST/LEAST).
	IgnoreNulls
)

// MaxGreatestArgs bounds the arguments of GREATEST/LEAST that are
// rewritten: the CASE grows quickly with their number.
const MaxGreatestArgs = 4

// GreatestLeast is GREATEST(args…) (LEAST when least) under policy. nil
// without arguments or with more than MaxGreatestArgs (the caller then
// keeps the call Unknown).
func GreatestLeast(least bool, args []sqlir.Expr, policy NullPolicy) sqlir.Expr {
	if len(args) == 0 || len(args) > MaxGreatestArgs {
		return nil
	}
	op := sqlir.OpGe
	if least {
		op = sqlir.OpLe
	}
	acc := args[0]
	for _, b := range args[1:] {
		c := &sqlir.Case{}
		switch policy {
		case NullIfAnyNull:
			if nc := Or(isNullUnlessLiteral(acc), isNullUnlessLiteral(b)); nc != nil {
				c.Whens = append(c.Whens, sqlir.When{Cond: nc, Val: &sqlir.Null{}})
			}
		case IgnoreNulls:
			if !IsLiteral(acc) {
				c.Whens = append(c.Whens, sqlir.When{Cond: &sqlir.IsNull{X: Clone(acc)}, Val: Clone(b)})
			}
			if !IsLiteral(b) {
				c.Whens = append(c.Whens, sqlir.When{Cond: &sqlir.IsNull{X: Clone(b)}, Val: Clone(acc)})
			}
		}
		c.Whens = append(c.Whens, sqlir.When{Cond: &sqlir.Binary{Op: op, X: Clone(acc), Y: Clone(b)}, Val: Clone(acc)})
		c.Else = Clone(b)
		acc = c
	}
	return acc
}

// isNullUnlessLiteral is "e IS NULL", or nil when e is a literal that is
// never NULL.
func isNullUnlessLiteral(e sqlir.Expr) sqlir.Expr {
	if IsLiteral(e) {
		return nil
	}
	return &sqlir.IsNull{X: Clone(e)}
}

// TruthTest is "v IS [NOT] TRUE" (want true) or "v IS [NOT] FALSE" (want
// false), negated when not: never NULL (NULL IS TRUE is false).
func TruthTest(v sqlir.Expr, want, not bool) *sqlir.Case {
	cond := v
	if !want {
		cond = Not(v)
	}
	return If(cond, Bool(!not), Bool(not))
}

// Between is "x BETWEEN lo AND hi": x >= lo AND x <= hi.
func Between(x, lo, hi sqlir.Expr) sqlir.Expr {
	return And(&sqlir.Binary{Op: sqlir.OpGe, X: x, Y: lo}, &sqlir.Binary{Op: sqlir.OpLe, X: Clone(x), Y: hi})
}
