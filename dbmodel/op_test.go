package dbmodel_test

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/dbmodel"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/refine"
	"github.com/dbverify/dbverify/smt"
	"github.com/dbverify/dbverify/spec"
	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
)

// An operator the row model does not know (no parser builds one; a future
// sqlir.Op would) is never a silent guess: the debit below, whose
// subtraction is replaced by it, is UNKNOWN with the operator named, not
// UNSAFE on an arbitrary value. With the real operator it is UNSAFE.
func TestUnknownOperatorIsUnknown(t *testing.T) {
	s, err := smt.NewSolver(10000)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c, err := spec.ParseRowCheck("accounts.balance >= 0", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		op   sqlir.Op
		want refine.Verdict
	}{
		{sqlir.OpSub, refine.Unsafe},
		{sqlir.OpInvalid, refine.Unknown},
		{sqlir.Op(999), refine.Unknown},
	} {
		t.Run(tt.op.String(), func(t *testing.T) {
			stmt, err := sqlparse.Parse(sqlparse.MySQL, "UPDATE accounts SET balance = balance - ? WHERE id = ?")
			if err != nil {
				t.Fatal(err)
			}
			stmt = sqlir.RewriteStatement(stmt, func(e sqlir.Expr) (sqlir.Expr, bool) {
				if b, ok := e.(*sqlir.Binary); ok && b.Op == sqlir.OpSub {
					return &sqlir.Binary{Op: tt.op, X: b.X, Y: b.Y}, true
				}
				return nil, false
			})
			p := ir.NewProgram("debit")
			amt := p.NewVar("amt", ir.Int, ir.Input)
			id := p.NewVar("id", ir.Int, ir.Input)
			p.Inputs = append(p.Inputs, amt, id)
			errV := p.NewVar("err", ir.Bool, ir.Local)
			mid := p.NewLoc()
			info := ir.Info{File: "debit.go", Line: 1, Kind: ir.KindSQL, Text: "UPDATE accounts …"}
			p.AddEdge(p.Entry, mid, &ir.Exec{SQL: stmt, Args: []ir.Expr{amt, id}, Err: errV, Info: info})
			p.AddEdge(mid, p.Exit, &ir.Assume{Cond: ir.True})
			low, err := dbmodel.Lower(p, c, dbmodel.Options{})
			if err != nil {
				t.Fatal(err)
			}
			res := refine.Check(context.Background(), low.Program, s, refine.Options{})
			if res.Verdict != tt.want {
				t.Fatalf("verdict %s (%s), want %s", res.Verdict, res.Reason, tt.want)
			}
			if tt.want == refine.Unknown && !strings.Contains(res.Reason, "the SQL operator "+tt.op.String()+" at debit.go:1") {
				t.Errorf("reason %q does not name the operator and its position", res.Reason)
			}
		})
	}
}
