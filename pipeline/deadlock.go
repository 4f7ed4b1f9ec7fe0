package pipeline

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/dbverify/dbverify/dbmodel"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/report"
)

// Deadlocks (issue 11): two requests that lock rows in opposite orders
// (A locks x then y, B y then x) wait for each other, and the engine
// fails one waiting statement (PostgreSQL 40P01, aborting the
// transaction and releasing its locks at once; MySQL/MariaDB 1213,
// rolling the transaction back, its later statements in autocommit).
//
// The search of two requests explores both victims (dbmodel/deadlock.go).
// The stability proof does not: it keeps a lock until its transaction
// ends, so where the request itself may be a deadlock victim (it locks
// rows by key in an order another request may reverse,
// dbmodel.LockOrders), its SAFE is not trusted and the pair is searched.
// A deadlock is no violation by itself; it is reported as a finding of
// its own class (deadlock-prone lock order), unless the code handles
// the deadlock error (a retry).

// deadlockOrders returns the lock orders by which prog's request may be a
// deadlock victim (nil where the engine has no row locks: SQLite).
func deadlockOrders(cfg Config, in *inputs, prog *ir.Program) []dbmodel.LockOrder {
	d := progDialect(cfg, prog)
	if d != "postgres" && d != "mysql" {
		return nil
	}
	return dbmodel.LockOrders(prog, dbmodel.Options{Schema: in.schema, NoInferKey: cfg.NoInferKey, Dialect: d})
}

// deadlockGap is the reason a stability proof of prog is not trusted
// ("" if it is): a deadlock victim's error path runs without the locks
// the proof relies on.
func deadlockGap(cfg Config, in *inputs, prog *ir.Program) string {
	d := progDialect(cfg, prog)
	for _, o := range deadlockOrders(cfg, in, prog) {
		if w := victimWindowWrite(prog, o, d); w != nil {
			return fmt.Sprintf("a deadlock victim's error path is not covered by the stability proof (the request locks %s at %s and then at %s, an order another request may reverse; where that statement fails, %q at %s runs while the locks are released)",
				o.Table, o.First.Position(), o.Second.Position(), w.Text, w.Position())
		}
	}
	return ""
}

// victimWindowWrite returns a write that may run after o's second
// statement failed as a deadlock victim and before its transaction ends
// in the code (a COMMIT, ROLLBACK or BEGIN of it), where the engine has
// released the transaction's locks already: on PostgreSQL a write on
// another handle (the aborted transaction's own statements fail), on
// MySQL any write (the transaction's own run in autocommit). Nil if
// none: then the victim's path ends its transaction before writing, as
// the stability proof's model of a failed statement does, and the proof
// stands. The error path is the one where the statement's error flag is
// true: a branch on it being false is not taken until it is assigned.
func victimWindowWrite(prog *ir.Program, o dbmodel.LockOrder, dialect string) *ir.Info {
	errVar := stmtErrVar(o.SecondStmt)
	type state struct {
		l     ir.Loc
		known bool
	}
	seen := map[state]bool{}
	var work []state
	for _, e := range prog.Edges {
		if e.Stmt == o.SecondStmt {
			work = append(work, state{e.To, errVar != nil})
		}
	}
	for len(work) > 0 {
		s := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[s] {
			continue
		}
		seen[s] = true
		for _, e := range prog.Out[s.l] {
			known := s.known
			switch st := e.Stmt.(type) {
			case *ir.TxOp:
				if st.Tx == o.Tx {
					continue // the window ends
				}
			case *ir.Exec:
				if dialect == "mysql" || st.Tx != o.Tx {
					info := st.Info
					return &info
				}
			case *ir.Assume:
				if known && isNot(st.Cond, errVar) {
					continue // the error is not nil here
				}
			}
			if known {
				for _, v := range assignedVars(e.Stmt) {
					if v == errVar {
						known = false
					}
				}
			}
			work = append(work, state{e.To, known})
		}
	}
	return nil
}

// stmtErrVar is the error flag of a database statement (nil if none).
func stmtErrVar(s ir.Stmt) *ir.Var {
	switch s := s.(type) {
	case *ir.Exec:
		return s.Err
	case *ir.Select:
		return s.Err
	}
	return nil
}

// isNot reports whether c is !v.
func isNot(c ir.Expr, v *ir.Var) bool {
	u, ok := c.(*ir.Unary)
	return ok && v != nil && u.Op == ir.OpNot && u.X == ir.Expr(v)
}

// deadlockFindings returns the deadlock-prone lock order findings of the
// jobs' programs: one per pair of statements, with the first entry that
// runs them.
func deadlockFindings(jobs []job, cfg Config, in *inputs) []report.Finding {
	var out []report.Finding
	seen := map[string]bool{}
	done := map[*ir.Program]bool{}
	marks := newDeadlockMarks(cfg.Dir)
	for _, j := range jobs {
		if done[j.prog] {
			continue
		}
		done[j.prog] = true
		d := progDialect(cfg, j.prog)
		for _, o := range deadlockOrders(cfg, in, j.prog) {
			k := o.First.Position() + "|" + o.Second.Position()
			if seen[k] {
				continue
			}
			seen[k] = true
			if marks.retried(o.Second) != "" {
				continue
			}
			out = append(out, report.Finding{Class: report.FindingDeadlock, Entry: j.entry, Position: o.Second.Position(),
				Related: o.First.Position(), Message: deadlockMessage(o, d)})
		}
	}
	return out
}

// deadlockMessage words the finding of lock order o on dialect d.
func deadlockMessage(o dbmodel.LockOrder, d string) string {
	key := strings.Join(o.Key, ", ")
	engine := "PostgreSQL fails one of them with 40P01 (deadlock_detected) and aborts its transaction"
	if d == "mysql" {
		engine = "InnoDB fails one of them with 1213 (ER_LOCK_DEADLOCK) and rolls its whole transaction back; its later statements run in autocommit"
	}
	if o.FirstKey == o.SecondKey {
		return fmt.Sprintf("%q takes the exclusive lock of the %s row (%s = %s) whose shared lock the transaction took at %s (%q): two requests that "+
			"both hold the shared lock wait for each other to upgrade it, a deadlock; %s. Take the exclusive lock at once (FOR UPDATE), or retry the "+
			"transaction on the deadlock error", o.Second.Text, o.Table, key, o.SecondKey, o.First.Position(), o.First.Text, engine)
	}
	return fmt.Sprintf("deadlock-prone lock order: the transaction locks the %s row with %s = %s at %s (%q), then the one with %s = %s here (%q); "+
		"two requests with the values swapped each hold one lock and wait for the other's, a deadlock; %s. Lock the rows in one order "+
		"(by key: one locking read of both, ORDER BY %s), or retry the transaction on the deadlock error",
		o.Table, key, o.FirstKey, o.First.Position(), o.First.Text, key, o.SecondKey, o.Second.Text, engine, key)
}

// deadlockMarks finds where the code tests an error for a deadlock.
type deadlockMarks struct {
	dir   string
	fset  *token.FileSet
	files map[string]string // file → the position of a mark ("" none)
}

func newDeadlockMarks(dir string) *deadlockMarks {
	return &deadlockMarks{dir: dir, fset: token.NewFileSet(), files: map[string]string{}}
}

// retried returns where the file of statement s tests an error for a
// deadlock ("" if nowhere): a literal "40P01" or 1213, a string with
// "deadlock", a name with DeadlockDetected or LockDeadlock. The whole
// file is read: a retry helper beside the entry counts.
func (d *deadlockMarks) retried(s ir.Info) string {
	if at, ok := d.files[s.File]; ok {
		return at
	}
	path := s.File
	if !filepath.IsAbs(path) && d.dir != "" {
		path = filepath.Join(d.dir, path)
	}
	at := ""
	if f, err := parser.ParseFile(d.fset, path, nil, parser.SkipObjectResolution); err == nil {
		ast.Inspect(f, func(n ast.Node) bool {
			if at != "" || n == nil {
				return at == ""
			}
			if deadlockMark(n) {
				p := d.fset.Position(n.Pos())
				at = filepath.Base(p.Filename) + ":" + strconv.Itoa(p.Line)
			}
			return at == ""
		})
	}
	d.files[s.File] = at
	return at
}

// deadlockMark reports a literal or a name that stands for a deadlock
// error.
func deadlockMark(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.BasicLit:
		v := strings.ToLower(strings.Trim(n.Value, "`\""))
		return v == "40p01" || v == "1213" || (n.Kind == token.STRING && strings.Contains(v, "deadlock"))
	case *ast.Ident:
		name := strings.ToLower(n.Name)
		return strings.Contains(name, "deadlockdetected") || strings.Contains(name, "lockdeadlock")
	}
	return false
}
