package boolprog

import (
	"fmt"
	"strconv"
	"strings"
)

// String prints the program in the seed paper's boolean-program syntax
// (Ball and Rajamani):
//
//	decl b0, b1; // b0 := {r.balance >= 1000}, b1 := {amt <= 10000}
//	void main() begin // withdraw
//	L0: skip; goto L3; // x := 1 (atm.go:10)
//	L3: goto L3a, L3b;
//	L3a: assume(b1); goto L4; // if amt <= 10000 (atm.go:12)
//	L3b: assume(!b1); goto EXIT; // else (atm.go:12)
//	L4: b0 := choose(b0 & b1, !b0); goto ERROR;
//	EXIT: return;
//	ERROR: assert(0);
//	end
//
// Locations are labelled L<n>, except Exit (EXIT) and Error (ERROR). A
// location with one out-edge prints its statement and goto on its own line;
// one with several prints a nondeterministic goto to one label per edge
// (L3a, L3b, …), each followed by that edge's statement. Edge labels are
// trailing comments. Entry comes first, then the other locations in
// increasing order, then EXIT and ERROR; locations without any edge are
// omitted. A location other than EXIT and ERROR without out-edges blocks
// and prints as assume(0).
func (p *Program) String() string {
	var b strings.Builder
	n := p.NumVars()
	if n == 0 {
		b.WriteString("// no predicates\n")
	} else {
		b.WriteString("decl ")
		for i := range n {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "b%d", i)
		}
		b.WriteString("; // ")
		for i := range n {
			if i > 0 {
				b.WriteString(", ")
			}
			text := "?"
			if i < len(p.Preds) {
				text = oneLine(p.Preds[i])
			}
			fmt.Fprintf(&b, "b%d := {%s}", i, text)
		}
		b.WriteString("\n")
	}
	b.WriteString("void main() begin")
	if p.Name != "" {
		b.WriteString(" // " + oneLine(p.Name))
	}
	b.WriteString("\n")

	nlocs := p.numLocs()
	out := p.outEdges()
	hasIn := make([]bool, nlocs)
	for _, e := range p.Edges {
		hasIn[e.To] = true
	}
	order := []int{p.Entry}
	for l := range nlocs {
		if l != p.Entry && l != p.Exit && l != p.Error {
			order = append(order, l)
		}
	}
	if p.Exit != p.Entry {
		order = append(order, p.Exit)
	}
	if p.Error != p.Entry && p.Error != p.Exit {
		order = append(order, p.Error)
	}
	for _, l := range order {
		es := out[l]
		name := p.locName(l)
		switch {
		case len(es) == 1:
			b.WriteString(name + ": ")
			p.writeEdge(&b, es[0])
		case len(es) > 1:
			fmt.Fprintf(&b, "%s: goto ", name)
			for i := range es {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(name + armName(i))
			}
			b.WriteString(";\n")
			for i, e := range es {
				b.WriteString(name + armName(i) + ": ")
				p.writeEdge(&b, e)
			}
		case l == p.Error:
			b.WriteString(name + ": assert(0);\n")
		case l == p.Exit:
			b.WriteString(name + ": return;\n")
		case hasIn[l] || l == p.Entry:
			b.WriteString(name + ": assume(0);\n")
		}
	}
	b.WriteString("end\n")
	return b.String()
}

// locName is the label of location l.
func (p *Program) locName(l int) string {
	switch l {
	case p.Error:
		return "ERROR"
	case p.Exit:
		return "EXIT"
	}
	return "L" + strconv.Itoa(l)
}

// armName is the suffix a, b, …, z, aa, ab, … of the i-th branch label.
func armName(i int) string {
	s := ""
	for i++; i > 0; i = (i - 1) / 26 {
		s = string(rune('a'+(i-1)%26)) + s
	}
	return s
}

func (p *Program) writeEdge(b *strings.Builder, e *Edge) {
	b.WriteString(StmtString(e.Stmt))
	b.WriteString(" goto " + p.locName(e.To) + ";")
	if e.Label != "" {
		b.WriteString(" // " + oneLine(e.Label))
	}
	b.WriteString("\n")
}

// oneLine replaces line breaks so a text fits in a // comment.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// StmtString prints one statement, with its terminating semicolon:
// "skip;", "assume(b1 & !b2);", "b0, b1 := choose(b2, b3), *;".
func StmtString(s Stmt) string {
	switch s := s.(type) {
	case nil, Skip, *Skip:
		return "skip;"
	case *Assume:
		if s.Cond == nil {
			return "assume(1);"
		}
		return "assume(" + ExprString(s.Cond) + ");"
	case *Assign:
		if len(s.Vars) == 0 {
			return "skip;"
		}
		var b strings.Builder
		for i, v := range s.Vars {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "b%d", v)
		}
		b.WriteString(" := ")
		for i, c := range s.Values {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(ChooseString(c))
		}
		b.WriteString(";")
		return b.String()
	}
	return fmt.Sprintf("/* %T */ skip;", s)
}

// ChooseString prints a choose: choose(1, 0) as 1, choose(0, 1) as 0,
// choose(0, 0) as *, choose(x, !x) as x, anything else as choose(pos, neg).
func ChooseString(c Choose) string {
	pos, neg := c.Pos, c.Neg
	if pos == nil {
		pos = Const(false)
	}
	if neg == nil {
		neg = Const(false)
	}
	if pos == Const(false) && neg == Const(false) {
		return "*"
	}
	if ExprEqual(neg, MkNot(pos)) {
		return ExprString(pos)
	}
	return "choose(" + ExprString(pos) + ", " + ExprString(neg) + ")"
}

// ExprString prints an expression with the operators !, &, | and the
// constants 0 and 1. A conjunction inside a disjunction (and vice versa) is
// parenthesised. A nil expression prints as 1.
func ExprString(e Expr) string {
	var b strings.Builder
	writeExpr(&b, e, false)
	return b.String()
}

// writeExpr prints e; nested says e is an operand of a binary operator or
// of !, so a compound e needs parentheses.
func writeExpr(b *strings.Builder, e Expr, nested bool) {
	switch e := e.(type) {
	case nil:
		b.WriteString("1")
	case Const:
		if e {
			b.WriteString("1")
		} else {
			b.WriteString("0")
		}
	case Var:
		fmt.Fprintf(b, "b%d", int(e))
	case *Not:
		b.WriteString("!")
		writeExpr(b, e.X, true)
	case *And:
		writeJunction(b, e.Xs, " & ", "1", nested)
	case *Or:
		writeJunction(b, e.Xs, " | ", "0", nested)
	}
}

func writeJunction(b *strings.Builder, xs []Expr, op, empty string, nested bool) {
	switch len(xs) {
	case 0:
		b.WriteString(empty)
		return
	case 1:
		writeExpr(b, xs[0], nested)
		return
	}
	if nested {
		b.WriteString("(")
	}
	for i, x := range xs {
		if i > 0 {
			b.WriteString(op)
		}
		writeExpr(b, x, true)
	}
	if nested {
		b.WriteString(")")
	}
}

// StateString prints an abstract state as "b0=1 b1=* b2=0".
func StateString(s []Value) string {
	var b strings.Builder
	for i, v := range s {
		if i > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "b%d=%s", i, v)
	}
	return b.String()
}
