package dbmodel

import (
	"strings"

	"github.com/dbverify/dbverify/ir"
)

// readVars returns the variables that some statement of p reads: in a
// right-hand side, a condition or an SQL argument. A variable only ever
// assigned or havocked (the rows-affected count of an Exec whose Result
// the program discards) is not in it: what the model knows of its value
// constrains nothing else, and is left out (returnedRows).
func readVars(p *ir.Program) map[*ir.Var]bool {
	read := map[*ir.Var]bool{}
	for _, e := range p.Edges {
		switch s := e.Stmt.(type) {
		case *ir.Assign:
			for _, r := range s.Rhs {
				ir.CollectVars(r, read)
			}
		case *ir.Assume:
			ir.CollectVars(s.Cond, read)
		case *ir.Exec:
			collectArgs(s.Args, read)
		case *ir.Select:
			collectArgs(s.Args, read)
		}
	}
	return read
}

func collectArgs(args []ir.Expr, read map[*ir.Var]bool) {
	for _, a := range args {
		if a != nil {
			ir.CollectVars(a, read)
		}
	}
}

// selectedTables returns the tables (lower case) some SELECT of p reads.
func selectedTables(p *ir.Program) map[string]bool {
	out := map[string]bool{}
	for _, e := range p.Edges {
		if s, ok := e.Stmt.(*ir.Select); ok {
			for _, t := range s.SQL.Tables() {
				out[strings.ToLower(t)] = true
			}
		}
	}
	return out
}
