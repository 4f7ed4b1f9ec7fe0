package ir

import "fmt"

// Sanity checks the invariants of a program: every edge joins existing
// locations, expressions are well sorted, assignments have matching sides,
// and every variable used belongs to the program. It returns the first
// violation found.
func Sanity(p *Program) error {
	known := map[*Var]bool{}
	for _, v := range p.Vars {
		known[v] = true
	}
	if len(p.Out) != p.NumLocs {
		return fmt.Errorf("%s: %d locations but %d out-lists", p.Name, p.NumLocs, len(p.Out))
	}
	for i, e := range p.Edges {
		if e.ID != i {
			return fmt.Errorf("edge %d has ID %d", i, e.ID)
		}
		if int(e.From) >= p.NumLocs || int(e.To) >= p.NumLocs || e.From < 0 || e.To < 0 {
			return fmt.Errorf("edge %d: L%d -> L%d out of range", i, e.From, e.To)
		}
		if e.From == p.Error || e.From == p.Exit {
			return fmt.Errorf("edge %d leaves the %s location", i, map[bool]string{true: "error", false: "exit"}[e.From == p.Error])
		}
		if err := sanityStmt(e.Stmt, known); err != nil {
			return fmt.Errorf("edge L%d -> L%d (%s): %v", e.From, e.To, e.Stmt, err)
		}
	}
	return nil
}

func sanityStmt(s Stmt, known map[*Var]bool) error {
	switch s := s.(type) {
	case *Assign:
		if len(s.Lhs) != len(s.Rhs) {
			return fmt.Errorf("%d variables, %d values", len(s.Lhs), len(s.Rhs))
		}
		for i, v := range s.Lhs {
			if !known[v] {
				return fmt.Errorf("unknown variable %s", v.Name)
			}
			if err := sanityExpr(s.Rhs[i], known); err != nil {
				return err
			}
			if v.Type != s.Rhs[i].Sort() {
				return fmt.Errorf("%s is %s but assigned %s %s", v.Name, v.Type, s.Rhs[i].Sort(), s.Rhs[i])
			}
		}
	case *Assume:
		if err := sanityExpr(s.Cond, known); err != nil {
			return err
		}
		if s.Cond.Sort() != Bool {
			return fmt.Errorf("assume of %s expression", s.Cond.Sort())
		}
	case *Havoc:
		for _, v := range s.Vars {
			if !known[v] {
				return fmt.Errorf("unknown variable %s", v.Name)
			}
		}
	}
	return nil
}

func sanityExpr(e Expr, known map[*Var]bool) error {
	switch e := e.(type) {
	case *Var:
		if !known[e] {
			return fmt.Errorf("unknown variable %s", e.Name)
		}
	case *Unary:
		if err := sanityExpr(e.X, known); err != nil {
			return err
		}
		if (e.Op == OpNot) != (e.X.Sort() == Bool) {
			return fmt.Errorf("%s applied to %s", e.Op, e.X.Sort())
		}
	case *Binary:
		if err := sanityExpr(e.X, known); err != nil {
			return err
		}
		if err := sanityExpr(e.Y, known); err != nil {
			return err
		}
		if e.X.Sort() != e.Y.Sort() {
			return fmt.Errorf("%s: operands of sorts %s and %s", e, e.X.Sort(), e.Y.Sort())
		}
		switch e.Op {
		case OpAnd, OpOr, OpImplies:
			if e.X.Sort() != Bool {
				return fmt.Errorf("%s on %s", e.Op, e.X.Sort())
			}
		case OpAdd, OpSub, OpMul, OpDiv, OpMod, OpLt, OpLe, OpGt, OpGe:
			if e.X.Sort() == Bool {
				return fmt.Errorf("%s on bool", e.Op)
			}
		}
	case *Ite:
		for _, x := range []Expr{e.Cond, e.Then, e.Else} {
			if err := sanityExpr(x, known); err != nil {
				return err
			}
		}
		if e.Cond.Sort() != Bool || e.Then.Sort() != e.Else.Sort() {
			return fmt.Errorf("ill-sorted %s", e)
		}
	case *ToReal:
		if e.X.Sort() != Int {
			return fmt.Errorf("real() of %s", e.X.Sort())
		}
		return sanityExpr(e.X, known)
	}
	return nil
}
