package rules

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/xwb1989/sqlparser"

	"github.com/dbverify/dbverify/sqlir"
)

// Binding strength of operators, loosest first (MySQL precedence).
const (
	precOr = iota + 1
	precAnd
	precNot
	precCmp // = <> < <= > >= IS
	precAdd // + -
	precMul // * / % DIV
	precNeg // unary minus
	precAtom
)

// Format prints e as SQL (MySQL flavour) with the fewest parentheses that
// keep its tree shape, so that parsing the text again gives the same
// expression. Placeholders print as $1, $2, … (Index+1) so that a reader
// can tell them apart; identifiers are backquoted when needed. A nil
// expression prints as "TRUE" (an absent WHERE).
func Format(e sqlir.Expr) string {
	if e == nil {
		return "TRUE"
	}
	var b strings.Builder
	format(&b, e)
	return b.String()
}

func prec(e sqlir.Expr) int {
	switch x := e.(type) {
	case *sqlir.Binary:
		switch x.Op {
		case sqlir.OpOr:
			return precOr
		case sqlir.OpAnd:
			return precAnd
		case sqlir.OpAdd, sqlir.OpSub:
			return precAdd
		case sqlir.OpMul, sqlir.OpDiv, sqlir.OpMod, sqlir.OpDivInt:
			return precMul
		}
		return precCmp
	case *sqlir.Unary:
		if x.Op == sqlir.OpNot {
			return precNot
		}
		return precNeg
	case *sqlir.IsNull:
		return precCmp
	case *sqlir.Num:
		if x.Val != nil && x.Val.Sign() < 0 {
			return precNeg
		}
		if x.Val != nil && !x.IsInt && !isDecimal(x.Val) {
			return precMul // printed as a quotient
		}
	case *sqlir.Unknown:
		if !atomicText(x.Text) {
			return precCmp
		}
	}
	return precAtom
}

func formatOperand(b *strings.Builder, e sqlir.Expr, parens bool) {
	if parens {
		b.WriteByte('(')
		format(b, e)
		b.WriteByte(')')
		return
	}
	format(b, e)
}

func format(b *strings.Builder, e sqlir.Expr) {
	switch x := e.(type) {
	case nil:
		b.WriteString("NULL")
	case *sqlir.ColRef:
		if x.Table != "" {
			b.WriteString(ident(x.Table))
			b.WriteByte('.')
		}
		if x.Name == "*" {
			b.WriteByte('*')
		} else {
			b.WriteString(ident(x.Name))
		}
	case *sqlir.Param:
		fmt.Fprintf(b, "$%d", x.Index+1)
	case *sqlir.Num:
		b.WriteString(formatNum(x))
	case *sqlir.Str:
		b.WriteString(quoteString(x.Val))
	case *sqlir.BoolLit:
		if x.Val {
			b.WriteString("TRUE")
		} else {
			b.WriteString("FALSE")
		}
	case *sqlir.Null:
		b.WriteString("NULL")
	case *sqlir.Binary:
		p := prec(x)
		switch p {
		case precCmp: // non-associative
			formatOperand(b, x.X, prec(x.X) <= p)
		default: // left-associative
			formatOperand(b, x.X, prec(x.X) < p)
		}
		b.WriteByte(' ')
		b.WriteString(x.Op.String())
		b.WriteByte(' ')
		formatOperand(b, x.Y, prec(x.Y) <= p)
	case *sqlir.Unary:
		if x.Op == sqlir.OpNot {
			b.WriteString("NOT ")
			formatOperand(b, x.X, prec(x.X) < precNot)
			return
		}
		b.WriteString(x.Op.String())
		var inner strings.Builder
		format(&inner, x.X)
		s := inner.String()
		formatOperand(b, x.X, prec(x.X) < precNeg || strings.HasPrefix(s, "-"))
	case *sqlir.IsNull:
		formatOperand(b, x.X, prec(x.X) <= precCmp)
		if x.Not {
			b.WriteString(" IS NOT NULL")
		} else {
			b.WriteString(" IS NULL")
		}
	case *sqlir.Case:
		b.WriteString("CASE")
		for _, w := range x.Whens {
			b.WriteString(" WHEN ")
			format(b, w.Cond)
			b.WriteString(" THEN ")
			format(b, w.Val)
		}
		if x.Else != nil {
			b.WriteString(" ELSE ")
			format(b, x.Else)
		}
		b.WriteString(" END")
	case *sqlir.Unknown:
		b.WriteString(x.Text)
	default:
		fmt.Fprintf(b, "/* %T */", e)
	}
}

// ident quotes a name with backquotes when it is not a plain identifier
// or is a keyword.
func ident(name string) string {
	return sqlparser.String(sqlparser.NewColIdent(name))
}

func quoteString(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'':
			b.WriteString("''")
		case '\\':
			b.WriteString(`\\`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// decimalDigits returns how many decimal digits represent a fraction with
// denominator d exactly, and whether that is possible at all (d = 2^a 5^b).
func decimalDigits(d *big.Int) (int, bool) {
	d = new(big.Int).Set(d)
	e2, e5 := 0, 0
	for d.Sign() > 0 && d.Bit(0) == 0 {
		d.Rsh(d, 1)
		e2++
	}
	five, q, r := big.NewInt(5), new(big.Int), new(big.Int)
	for {
		q.QuoRem(d, five, r)
		if r.Sign() != 0 {
			break
		}
		d.Set(q)
		e5++
	}
	return max(e2, e5), d.Cmp(big.NewInt(1)) == 0
}

func isDecimal(r *big.Rat) bool {
	_, ok := decimalDigits(r.Denom())
	return ok
}

func formatNum(n *sqlir.Num) string {
	if n.Val == nil {
		return "NULL"
	}
	if n.Val.IsInt() {
		s := n.Val.Num().String()
		if !n.IsInt {
			s += ".0"
		}
		return s
	}
	digits, ok := decimalDigits(n.Val.Denom())
	if !ok {
		return n.Val.Num().String() + " / " + n.Val.Denom().String()
	}
	return n.Val.FloatString(digits)
}

// atomicText reports whether an Unknown's text is a single operand
// (identifier, literal or function call) that needs no parentheses.
func atomicText(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return false
	}
	i := 0
	for i < len(s) && (IsWordByte(s[i]) || s[i] == '.' || s[i] == '@') {
		i++
	}
	if i == len(s) {
		return true
	}
	if s[i] != '(' {
		return false
	}
	// The parenthesis opened at i must close at the very end.
	depth := 0
	var quote byte
	for j := i; j < len(s); j++ {
		c := s[j]
		switch {
		case quote != 0:
			if c == '\\' {
				j++
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				return j == len(s)-1
			}
		}
	}
	return false
}
