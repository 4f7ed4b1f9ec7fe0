package dbmodel_test

import (
	"strings"
	"testing"

	"github.com/dbverify/dbverify/dbmodel"
	"github.com/dbverify/dbverify/frontend/sqlparse"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/refine"
	"github.com/dbverify/dbverify/smt"
	"github.com/dbverify/dbverify/sqlir"
)

// step is one statement of a straight-line test program.
type step struct {
	sql   string   // a statement (args name inputs), or "" for a guard
	args  []string // input names bound to the placeholders
	into  []string // SELECT: the variables the row is read into
	guard string   // "x >= y" over inputs and read variables: the path continues only if it holds
	tx    string   // "begin", "commit", "rollback"
}

// build makes an ir.Program: inputs a, b, … (Int), then the steps in order;
// a failing SQL call returns (its error branch jumps to exit).
func build(t *testing.T, d sqlparse.Dialect, inputs []string, steps []step) *ir.Program {
	t.Helper()
	p := ir.NewProgram("test")
	vars := map[string]*ir.Var{}
	for _, n := range inputs {
		v := p.NewVar(n, ir.Int, ir.Input)
		vars[n] = v
		p.Inputs = append(p.Inputs, v)
	}
	cur := p.Entry
	next := func(s ir.Stmt) {
		n := p.NewLoc()
		p.AddEdge(cur, n, s)
		cur = n
	}
	onErr := func(err *ir.Var) {
		p.AddEdge(cur, p.Exit, &ir.Assume{Cond: err})
		next(&ir.Assume{Cond: ir.Not(err)})
	}
	for i, s := range steps {
		info := ir.Info{File: "test.go", Line: i + 1, Kind: ir.KindSQL, Text: s.sql}
		switch {
		case s.tx != "":
			err := p.NewVar("err", ir.Bool, ir.Local)
			op := map[string]ir.TxOpKind{"begin": ir.Begin, "commit": ir.Commit, "rollback": ir.Rollback}[s.tx]
			next(&ir.TxOp{Op: op, Tx: 1, Err: err, Info: info})
			if op == ir.Begin {
				onErr(err)
			}
		case s.sql != "":
			stmt, err := sqlparse.Parse(d, s.sql)
			if err != nil {
				t.Fatalf("%s: %v", s.sql, err)
			}
			var args []ir.Expr
			for _, a := range s.args {
				args = append(args, vars[a])
			}
			errV := p.NewVar("err", ir.Bool, ir.Local)
			if sel, ok := stmt.(*sqlir.Select); ok {
				var targets []*ir.Var
				for _, n := range s.into {
					v := p.NewVar(n, ir.Int, ir.Local)
					vars[n] = v
					targets = append(targets, v)
				}
				next(&ir.Select{SQL: sel, Args: args, Targets: targets, Err: errV, Info: info})
			} else {
				var targets []*ir.Var
				for _, n := range s.into {
					v := p.NewVar(n, ir.Int, ir.Local)
					vars[n] = v
					targets = append(targets, v)
				}
				next(&ir.Exec{SQL: stmt, Args: args, Tx: txOf(steps[:i]), Err: errV, Targets: targets, Info: info})
			}
			onErr(errV)
		default:
			f := strings.Fields(s.guard) // "x op y" or "x op y + z"
			x := ir.Expr(vars[f[0]])
			var y ir.Expr = operand(f[2], vars)
			if len(f) == 5 {
				y = ir.Add(y, operand(f[4], vars))
			}
			op := map[string]ir.Op{">=": ir.OpGe, ">": ir.OpGt, "<=": ir.OpLe, "<": ir.OpLt}[f[1]]
			c := ir.Cmp(op, x, y)
			p.AddEdge(cur, p.Exit, &ir.Assume{Cond: ir.Not(c)})
			next(&ir.Assume{Cond: c})
		}
	}
	p.AddEdge(cur, p.Exit, &ir.Assume{Cond: ir.True})
	return p
}

func operand(s string, vars map[string]*ir.Var) ir.Expr {
	if v, ok := vars[s]; ok {
		return v
	}
	n := int64(0)
	for _, c := range s {
		n = n*10 + int64(c-'0')
	}
	return ir.IntLit(n)
}

// txOf returns 1 if a transaction is open after steps.
func txOf(steps []step) ir.Tx {
	open := false
	for _, s := range steps {
		switch s.tx {
		case "begin":
			open = true
		case "commit", "rollback":
			open = false
		}
	}
	if open {
		return 1
	}
	return 0
}

func TestRowModel(t *testing.T) {
	s, err := smt.NewSolver(10000)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const debit = "UPDATE accounts SET balance = balance - ? WHERE id = ?"
	tests := []struct {
		name   string
		d      sqlparse.Dialect
		opt    dbmodel.Options
		inputs []string
		steps  []step
		want   refine.Verdict
	}{
		{"unguarded debit", sqlparse.MySQL, dbmodel.Options{}, []string{"id", "amt"},
			[]step{{sql: debit, args: []string{"amt", "id"}}}, refine.Unsafe},
		{"guard in WHERE", sqlparse.MySQL, dbmodel.Options{}, []string{"id", "amt"},
			[]step{{sql: "UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?", args: []string{"amt", "id", "amt"}}}, refine.Safe},
		{"read, check, write the same key", sqlparse.MySQL, dbmodel.Options{}, []string{"id", "amt"},
			[]step{
				{sql: "SELECT balance FROM accounts WHERE id = ?", args: []string{"id"}, into: []string{"bal"}},
				{guard: "bal >= amt"},
				{sql: debit, args: []string{"amt", "id"}},
			}, refine.Safe},
		{"read, check, write without a known key", sqlparse.MySQL, dbmodel.Options{NoInferKey: true}, []string{"id", "amt"},
			[]step{
				{sql: "SELECT balance FROM accounts WHERE id = ?", args: []string{"id"}, into: []string{"bal"}},
				{guard: "bal >= amt"},
				{sql: debit, args: []string{"amt", "id"}},
			}, refine.Unsafe},
		{"read one row, write another", sqlparse.MySQL, dbmodel.Options{}, []string{"id", "other", "amt"},
			[]step{
				{sql: "SELECT balance FROM accounts WHERE id = ?", args: []string{"id"}, into: []string{"bal"}},
				{guard: "bal >= amt"},
				{sql: debit, args: []string{"amt", "other"}},
			}, refine.Unsafe},
		{"rolled back", sqlparse.MySQL, dbmodel.Options{}, []string{"id", "amt"},
			[]step{{tx: "begin"}, {sql: debit, args: []string{"amt", "id"}}, {tx: "rollback"}}, refine.Safe},
		{"committed", sqlparse.MySQL, dbmodel.Options{}, []string{"id", "amt"},
			[]step{{tx: "begin"}, {sql: debit, args: []string{"amt", "id"}}, {tx: "commit"}}, refine.Unsafe},
		{"checked inside the transaction before commit", sqlparse.MySQL, dbmodel.Options{}, []string{"id", "amt"},
			[]step{
				{tx: "begin"},
				{sql: debit, args: []string{"amt", "id"}},
				{sql: "SELECT balance FROM accounts WHERE id = ?", args: []string{"id"}, into: []string{"bal"}},
				{guard: "bal >= 0"},
				{tx: "commit"},
			}, refine.Safe},
		{"delete", sqlparse.MySQL, dbmodel.Options{}, []string{"id"},
			[]step{{sql: "DELETE FROM accounts WHERE id = ?", args: []string{"id"}}}, refine.Safe},
		{"insert unvalidated", sqlparse.MySQL, dbmodel.Options{}, []string{"id", "init"},
			[]step{{sql: "INSERT INTO accounts (id, balance) VALUES (?, ?)", args: []string{"id", "init"}}}, refine.Unsafe},
		{"insert validated", sqlparse.MySQL, dbmodel.Options{}, []string{"id", "init"},
			[]step{{guard: "init >= 0"}, {sql: "INSERT INTO accounts (id, balance) VALUES (?, ?)", args: []string{"id", "init"}}}, refine.Safe},
		{"upsert debits the existing row", sqlparse.Postgres, dbmodel.Options{}, []string{"id", "amt"},
			[]step{{guard: "amt >= 0"}, {sql: "INSERT INTO accounts (id, balance) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET balance = accounts.balance - $2", args: []string{"id", "amt"}}}, refine.Unsafe},
		{"insert or nothing", sqlparse.Postgres, dbmodel.Options{}, []string{"id", "amt"},
			[]step{{guard: "amt >= 0"}, {sql: "INSERT INTO accounts (id, balance) VALUES ($1, $2) ON CONFLICT DO NOTHING", args: []string{"id", "amt"}}}, refine.Safe},
		{"RETURNING the new balance, checked after the auto-commit", sqlparse.Postgres, dbmodel.Options{}, []string{"id", "amt"},
			[]step{{sql: "UPDATE accounts SET balance = balance - $1 WHERE id = $2 RETURNING balance", args: []string{"amt", "id"}, into: []string{"nb"}}}, refine.Unsafe},
		{"RETURNING in a transaction, rolled back when negative", sqlparse.Postgres, dbmodel.Options{}, []string{"id", "amt"},
			[]step{
				{tx: "begin"},
				{sql: "UPDATE accounts SET balance = balance - $1 WHERE id = $2 RETURNING balance", args: []string{"amt", "id"}, into: []string{"nb"}},
				{guard: "nb >= 0"},
				{tx: "commit"},
			}, refine.Safe},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := sqlparse.ParseConstraint("accounts.balance >= 0", "")
			if err != nil {
				t.Fatal(err)
			}
			p := build(t, tt.d, tt.inputs, tt.steps)
			low, err := dbmodel.Lower(p, c, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			res := refine.Check(low.Program, s, refine.Options{})
			if res.Verdict != tt.want {
				t.Fatalf("verdict %s (%s), want %s\n%s", res.Verdict, res.Reason, tt.want, low.Program)
			}
			if res.Verdict == refine.Unsafe && (res.Trace == nil || res.Trace.Violation.Values["balance"] == "") {
				t.Errorf("UNSAFE without a violating row: %+v", res.Trace)
			}
		})
	}
}
