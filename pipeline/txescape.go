package pipeline

import (
	"fmt"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/report"
)

// The tx-escape finding (issue 11 §4, go-critic#552): a statement run on
// the pool (*sql.DB, pgxpool: handle 0) while a transaction of the same
// request is open. It commits on its own, on another connection: outside
// the transaction's atomicity (a rollback does not undo it) and isolation
// (it does not see the transaction's uncommitted writes, and a lock it
// takes is released at once), and it may wait for the transaction's own
// row locks.
//
// The finding claims only what holds on every path to the statement: the
// transaction was begun, its BEGIN's error was checked and was nil, and
// no COMMIT or ROLLBACK of it ran since (a must-analysis over the
// program's control flow). A BEGIN whose error is not checked, or a
// transaction ended on some path, gives no finding.

// txEscape is a statement on the pool while the transaction begun at
// Begin is open.
type txEscape struct {
	Stmt, Begin ir.Info
}

// txFact is what holds of a transaction at a location on every path:
// begun (its BEGIN ran, and its error flag is err) or open (also err was
// checked false).
type txFact struct {
	open  bool
	err   *ir.Var
	begin ir.Info
}

// txFacts maps the transactions known begun or open at a location.
type txFacts map[ir.Tx]txFact

// txEscapes returns the statements of prog that run on the pool where a
// transaction of prog is surely open, in edge order.
func txEscapes(prog *ir.Program) []txEscape {
	in := surelyOpen(prog)
	var out []txEscape
	for _, e := range prog.Edges {
		var h ir.Tx
		var info ir.Info
		switch s := e.Stmt.(type) {
		case *ir.Exec:
			h, info = s.Tx, s.Info
		case *ir.Select:
			if s.LockOnly {
				continue
			}
			h, info = s.Tx, s.Info
		default:
			continue
		}
		if h != 0 || in[e.From] == nil {
			continue
		}
		for _, f := range in[e.From] {
			if f.open {
				out = append(out, txEscape{Stmt: info, Begin: f.begin})
				break
			}
		}
	}
	return out
}

// surelyOpen computes, for each location of prog, the transactions begun
// (or open) on every path from the entry (nil: the location is not
// reached).
func surelyOpen(prog *ir.Program) []txFacts {
	in := make([]txFacts, prog.NumLocs)
	in[prog.Entry] = txFacts{}
	work := []ir.Loc{prog.Entry}
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		for _, e := range prog.Out[l] {
			out := transferTx(in[l], e.Stmt)
			if in[e.To] == nil {
				in[e.To] = out
				work = append(work, e.To)
				continue
			}
			if met, changed := meetTx(in[e.To], out); changed {
				in[e.To] = met
				work = append(work, e.To)
			}
		}
	}
	return in
}

// transferTx returns the facts after statement s.
func transferTx(in txFacts, s ir.Stmt) txFacts {
	out := txFacts{}
	for t, f := range in {
		out[t] = f
	}
	switch s := s.(type) {
	case *ir.TxOp:
		if s.Op == ir.Begin {
			out[s.Tx] = txFact{err: s.Err, begin: s.Info}
			return out
		}
		delete(out, s.Tx)
		return out
	case *ir.Assume:
		for t, f := range out {
			if f.open || f.err == nil {
				continue
			}
			switch c := s.Cond.(type) {
			case *ir.Var:
				if c == f.err {
					delete(out, t) // the BEGIN failed on this path
				}
			case *ir.Unary:
				if v, ok := c.X.(*ir.Var); ok && c.Op == ir.OpNot && v == f.err {
					f.open = true
					out[t] = f
				}
			}
		}
		return out
	}
	for _, v := range assignedVars(s) {
		for t, f := range out {
			if !f.open && f.err == v {
				delete(out, t) // the BEGIN's error is no longer known
			}
		}
	}
	return out
}

// meetTx returns what holds on both a's and b's paths, and whether it
// differs from a.
func meetTx(a, b txFacts) (txFacts, bool) {
	out := txFacts{}
	changed := false
	for t, fa := range a {
		fb, ok := b[t]
		switch {
		case !ok || (!fa.open && !fb.open && fa.err != fb.err) || (fa.open != fb.open && fa.err != fb.err):
			changed = true
		case fa.open && !fb.open:
			fb.begin = fa.begin
			out[t] = fb
			changed = true
		default:
			out[t] = fa
		}
	}
	return out, changed
}

// assignedVars returns the variables statement s assigns.
func assignedVars(s ir.Stmt) []*ir.Var {
	switch s := s.(type) {
	case *ir.Assign:
		return s.Lhs
	case *ir.Havoc:
		return s.Vars
	case *ir.Exec:
		return append([]*ir.Var{s.Err, s.Affected, s.NoRow}, s.Targets...)
	case *ir.Select:
		return append([]*ir.Var{s.Err, s.NoRow}, s.Targets...)
	}
	return nil
}

// txEscapeFindings returns the tx-escape findings of the jobs' programs:
// one per statement position, with the first entry that runs it.
func txEscapeFindings(jobs []job) []report.Finding {
	var out []report.Finding
	seen := map[string]bool{}
	done := map[*ir.Program]bool{}
	for _, j := range jobs {
		if done[j.prog] {
			continue
		}
		done[j.prog] = true
		for _, x := range txEscapes(j.prog) {
			pos := x.Stmt.Position()
			if seen[pos] {
				continue
			}
			seen[pos] = true
			out = append(out, report.Finding{Class: report.FindingTxEscape, Entry: j.entry, Position: pos, Related: x.Begin.Position(),
				Message: fmt.Sprintf("%q runs on the pool while the transaction begun at %s is open: it commits on its own, outside the transaction "+
					"(its rollback does not undo it, it does not see the transaction's uncommitted writes, a lock it takes ends with the statement, "+
					"and it may wait for the transaction's own locks); run it on the transaction", x.Stmt.Text, x.Begin.Position())})
		}
	}
	return out
}
