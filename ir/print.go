package ir

import (
	"fmt"
	"strings"
)

// Expressions print in Go-like infix syntax, fully parenthesised below the
// top level: (x + 1) <= y && b.

func (v *Var) String() string       { return v.Name }
func (c *IntConst) String() string  { return c.V.String() }
func (c *RealConst) String() string { return c.V.RatString() }
func (b BoolConst) String() string {
	if b {
		return "true"
	}
	return "false"
}
func (e *Unary) String() string {
	return e.Op.String() + paren(e.X)
}
func (e *Binary) String() string {
	return paren(e.X) + " " + e.Op.String() + " " + paren(e.Y)
}
func (e *Ite) String() string {
	return fmt.Sprintf("ite(%s, %s, %s)", e.Cond, e.Then, e.Else)
}
func (e *ToReal) String() string { return "real(" + e.X.String() + ")" }

func paren(e Expr) string {
	switch e.(type) {
	case *Binary:
		return "(" + e.String() + ")"
	}
	return e.String()
}

func (s *Assign) String() string {
	l := make([]string, len(s.Lhs))
	r := make([]string, len(s.Rhs))
	for i := range s.Lhs {
		l[i] = s.Lhs[i].Name
		r[i] = s.Rhs[i].String()
	}
	return strings.Join(l, ", ") + " := " + strings.Join(r, ", ")
}

func (s *Assume) String() string { return "assume " + s.Cond.String() }

func (s *Havoc) String() string {
	names := make([]string, len(s.Vars))
	for i, v := range s.Vars {
		names[i] = v.Name
	}
	return "havoc " + strings.Join(names, ", ")
}

func (s *Exec) String() string {
	return fmt.Sprintf("exec%s %q args(%s)%s", txSuffix(s.Tx), s.Text, exprList(s.Args), errSuffix(s.Err))
}

func (s *Select) String() string {
	t := make([]string, len(s.Targets))
	for i, v := range s.Targets {
		if v == nil {
			t[i] = "_"
		} else {
			t[i] = v.Name
		}
	}
	return fmt.Sprintf("select%s %q args(%s) into(%s)%s", txSuffix(s.Tx), s.Text, exprList(s.Args), strings.Join(t, ", "), errSuffix(s.Err))
}

func (s *TxOp) String() string {
	return fmt.Sprintf("%s tx%d%s", s.Op, s.Tx, errSuffix(s.Err))
}

func txSuffix(tx Tx) string {
	if tx == 0 {
		return ""
	}
	return fmt.Sprintf("[tx%d]", tx)
}

func errSuffix(v *Var) string {
	if v == nil {
		return ""
	}
	return " err " + v.Name
}

func exprList(es []Expr) string {
	s := make([]string, len(es))
	for i, e := range es {
		if e == nil {
			s[i] = "?"
		} else {
			s[i] = e.String()
		}
	}
	return strings.Join(s, ", ")
}

// String prints the program: its variables, then each location's outgoing
// edges in order.
func (p *Program) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "program %s\n", p.Name)
	for _, v := range p.Inputs {
		fmt.Fprintf(&b, "  input %s %s\n", v.Name, v.Type)
	}
	fmt.Fprintf(&b, "  entry L%d exit L%d error L%d\n", p.Entry, p.Exit, p.Error)
	for l := 0; l < p.NumLocs; l++ {
		for _, e := range p.Out[l] {
			pos := e.Stmt.Source().Position()
			if pos != "" {
				pos = "\t// " + pos
			}
			fmt.Fprintf(&b, "  L%d -> L%d: %s%s\n", e.From, e.To, e.Stmt, pos)
		}
	}
	for _, u := range p.Unsupported {
		fmt.Fprintf(&b, "  unsupported %s: %s\n", u.Position(), u.What)
	}
	return b.String()
}
