package pipeline

import (
	"github.com/dbverify/dbverify/ir"
)

// Retry attempts that start afresh. The serializable proof (serialProof)
// takes each committed transaction of a request to be a serial run of the
// request: true of a request whose transaction, begun in a retry loop,
// reads nothing an earlier attempt left behind. An attempt aborted with
// 40001 read a state that a concurrent commit has since changed; a value
// it computed (a balance it read, a flag it set on a branch over one, the
// attempt number that says whether to read at all) and the next attempt
// uses makes that attempt's transaction depend on a stale state that no
// serial order shows: SSI does not see the dependency (it went through Go
// memory, not the database), and the sequential check, in which nothing
// changes between attempts, cannot tell. Retry loops that run the whole
// transaction again (pgx.BeginTxFunc with its closure, a loop around
// BeginTx … Commit whose variables are set in the attempt) keep nothing.
//
// carriedRead finds the first read of such a value: a forward may-analysis
// of the variables written since the last BEGIN (written) and of those
// written in an earlier attempt and not written since (carried). A BEGIN
// that may run after another moves written into carried. Writes before
// the first BEGIN (the request's own set-up, the same in every attempt)
// count in neither. Any read of a carried variable — in a condition, an
// assignment or a statement's arguments — is reported: implicit flows (a
// variable set on a branch over a read) are caught with the explicit
// ones, as the variable set on the branch is written in the attempt. The
// front end's defer flags, cleared to false on each call's entry, are
// not carried where every path clears them.

// attemptState is the analysis's fact at a location.
type attemptState struct {
	begun            bool // a BEGIN may have run
	written, carried map[*ir.Var]bool
}

func (s *attemptState) clone() *attemptState {
	out := &attemptState{begun: s.begun, written: map[*ir.Var]bool{}, carried: map[*ir.Var]bool{}}
	for v := range s.written {
		out.written[v] = true
	}
	for v := range s.carried {
		out.carried[v] = true
	}
	return out
}

// join adds o to s and reports whether s grew.
func (s *attemptState) join(o *attemptState) bool {
	grew := false
	if o.begun && !s.begun {
		s.begun, grew = true, true
	}
	for v := range o.written {
		if !s.written[v] {
			s.written[v], grew = true, true
		}
	}
	for v := range o.carried {
		if !s.carried[v] {
			s.carried[v], grew = true, true
		}
	}
	return grew
}

// write records that v is set in the current attempt.
func (s *attemptState) write(vs ...*ir.Var) {
	for _, v := range vs {
		if v == nil {
			continue
		}
		delete(s.carried, v)
		if s.begun {
			s.written[v] = true
		}
	}
}

// step returns the fact after st, from s.
func (s *attemptState) step(st ir.Stmt) *attemptState {
	out := s.clone()
	switch st := st.(type) {
	case *ir.Assign:
		for i, v := range st.Lhs {
			if i < len(st.Rhs) && v != nil && v.Kind == ir.Ghost && st.Rhs[i] == ir.False {
				// The front end's bookkeeping of the Go call it is in (a
				// defer flag cleared on the call's entry): false whatever
				// an earlier attempt did. (Only false: where every path
				// clears it, its value says nothing of the path taken;
				// a path that sets it otherwise keeps it written.)
				delete(out.carried, v)
				delete(out.written, v)
				continue
			}
			out.write(v)
		}
	case *ir.Havoc:
		out.write(st.Vars...)
	case *ir.Select:
		out.write(st.Targets...)
		out.write(st.Err, st.NoRow)
	case *ir.Exec:
		out.write(st.Targets...)
		out.write(st.Err, st.Affected, st.NoRow)
	case *ir.TxOp:
		if st.Op == ir.Begin {
			if out.begun {
				for v := range out.written {
					out.carried[v] = true
				}
			}
			out.written, out.begun = map[*ir.Var]bool{}, true
		}
		out.write(st.Err)
	}
	return out
}

// stmtReads returns the expressions st reads.
func stmtReads(st ir.Stmt) []ir.Expr {
	switch st := st.(type) {
	case *ir.Assign:
		return st.Rhs
	case *ir.Assume:
		return []ir.Expr{st.Cond}
	case *ir.Select:
		return st.Args
	case *ir.Exec:
		return st.Args
	}
	return nil
}

// carriedRead returns the statement of p that may read a value an earlier
// attempt of its transaction set (nil: none; see above).
func carriedRead(p *ir.Program) ir.Stmt {
	in := make([]*attemptState, p.NumLocs)
	in[p.Entry] = &attemptState{written: map[*ir.Var]bool{}, carried: map[*ir.Var]bool{}}
	work := []ir.Loc{p.Entry}
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		for _, e := range p.Out[l] {
			out := in[l].step(e.Stmt)
			if in[e.To] == nil {
				in[e.To] = out
				work = append(work, e.To)
			} else if in[e.To].join(out) {
				work = append(work, e.To)
			}
		}
	}
	live := txAhead(p)
	for _, e := range p.Edges {
		s := in[e.From]
		if s == nil || !live[e.From] || len(s.carried) == 0 {
			continue
		}
		for _, x := range stmtReads(e.Stmt) {
			if x != nil && ir.Mentions(x, s.carried) {
				return e.Stmt
			}
		}
	}
	return nil
}

// txAhead marks the locations of p from which a statement or a COMMIT is
// reachable without passing a BEGIN, COMMIT or ROLLBACK: where a value
// read may still shape what a transaction writes (not, say, the retry
// loop's counter between two attempts).
func txAhead(p *ir.Program) []bool {
	in := make([][]*ir.Edge, p.NumLocs)
	live := make([]bool, p.NumLocs)
	var work []ir.Loc
	for _, e := range p.Edges {
		in[e.To] = append(in[e.To], e)
		switch st := e.Stmt.(type) {
		case *ir.Select, *ir.Exec:
		case *ir.TxOp:
			if st.Op != ir.Commit {
				continue
			}
		default:
			continue
		}
		if !live[e.From] {
			live[e.From] = true
			work = append(work, e.From)
		}
	}
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		for _, e := range in[l] {
			if _, ok := e.Stmt.(*ir.TxOp); ok || live[e.From] {
				continue
			}
			live[e.From] = true
			work = append(work, e.From)
		}
	}
	return live
}
