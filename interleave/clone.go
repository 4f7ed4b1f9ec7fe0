package interleave

import (
	"github.com/dbverify/dbverify/ir"
)

// request is one program's copy in a product: its variables and handles
// renamed.
type request struct {
	name  string
	src   *ir.Program
	vars  map[*ir.Var]ir.Expr
	txOff ir.Tx
	// copies: the copy of each source edge's statement.
	copies map[*ir.Edge]copied
}

// newRequest adds the variables of src, renamed with the request's name,
// to out.
func newRequest(out *ir.Program, name string, src *ir.Program, txOff ir.Tx) *request {
	q := &request{name: name, src: src, vars: map[*ir.Var]ir.Expr{}, txOff: txOff, copies: map[*ir.Edge]copied{}}
	for _, v := range src.Vars {
		nv := out.NewVar(name+"."+v.Name, v.Type, v.Kind)
		nv.Row, nv.Table, nv.Col, nv.Approx, nv.Str, nv.Internal = v.Row, v.Table, v.Col, v.Approx, v.Str, v.Internal
		nv.Conv, nv.ConvAny, nv.Named, nv.Err, nv.SQLErr, nv.Scope = v.Conv, v.ConvAny, v.Named, v.Err, v.SQLErr, v.Scope
		nv.Time = v.Time
		q.vars[v] = nv
	}
	sites := map[*ir.RowsSite]*ir.RowsSite{}
	for _, v := range src.Vars {
		if v.ConvOf != nil {
			q.v(v).ConvOf = q.v(v.ConvOf)
		}
		if v.Rows != nil {
			site, ok := sites[v.Rows.Site]
			if !ok {
				site = &ir.RowsSite{Text: v.Rows.Site.Text, Tables: v.Rows.Site.Tables, Rows: v.Rows.Site.Rows, Args: q.es(v.Rows.Site.Args)}
				sites[v.Rows.Site] = site
			}
			q.v(v).Rows = &ir.RowsMark{Site: site, Role: v.Rows.Role, Index: v.Rows.Index, Err: q.v(v.Rows.Err), Column: v.Rows.Column}
		}
		if v.TimeOf != nil {
			q.v(v).TimeOf = q.v(v.TimeOf)
		}
		if v.HTTP != nil {
			h := *v.HTTP
			if h.Raw != nil {
				h.Raw = q.v(h.Raw)
			}
			q.v(v).HTTP = &h
		}
	}
	return q
}

// v returns the copy of variable x (nil stays nil).
func (q *request) v(x *ir.Var) *ir.Var {
	if x == nil {
		return nil
	}
	if nv, ok := q.vars[x]; ok {
		return nv.(*ir.Var)
	}
	return x
}

func (q *request) vs(xs []*ir.Var) []*ir.Var {
	if xs == nil {
		return nil
	}
	out := make([]*ir.Var, len(xs))
	for i, x := range xs {
		out[i] = q.v(x)
	}
	return out
}

func (q *request) e(x ir.Expr) ir.Expr {
	if x == nil {
		return nil
	}
	return ir.Substitute(x, q.vars)
}

func (q *request) es(xs []ir.Expr) []ir.Expr {
	if xs == nil {
		return nil
	}
	out := make([]ir.Expr, len(xs))
	for i, x := range xs {
		out[i] = q.e(x)
	}
	return out
}

// tx renames a handle: the pool (0) is shared.
func (q *request) tx(t ir.Tx) ir.Tx {
	if t == 0 {
		return 0
	}
	return t + q.txOff
}

func (q *request) info(i ir.Info) ir.Info {
	i.Request = q.name
	return i
}

// stmt returns the copy of s in the request.
func (q *request) stmt(s ir.Stmt) ir.Stmt {
	return ir.WithDB(q.copyStmt(s))
}

// copyStmt returns the copy of s in the request, its Info's DBSite still
// the source's.
func (q *request) copyStmt(s ir.Stmt) ir.Stmt {
	switch s := s.(type) {
	case *ir.Assign:
		return &ir.Assign{Lhs: q.vs(s.Lhs), Rhs: q.es(s.Rhs), Info: q.info(s.Info)}
	case *ir.Assume:
		return &ir.Assume{Cond: q.e(s.Cond), Info: q.info(s.Info)}
	case *ir.Havoc:
		return &ir.Havoc{Vars: q.vs(s.Vars), Info: q.info(s.Info)}
	case *ir.Exec:
		return &ir.Exec{SQL: s.SQL, Args: q.es(s.Args), Tx: q.tx(s.Tx), Err: q.v(s.Err),
			Affected: q.v(s.Affected), Targets: q.vs(s.Targets), NoRow: q.v(s.NoRow), Refuses64: s.Refuses64, IntParams: s.IntParams, Info: q.info(s.Info)}
	case *ir.Select:
		return &ir.Select{SQL: s.SQL, Args: q.es(s.Args), Tx: q.tx(s.Tx), Targets: q.vs(s.Targets),
			Err: q.v(s.Err), LockOnly: s.LockOnly, NoRow: q.v(s.NoRow), RejectsNull: s.RejectsNull, ScanInto: s.ScanInto, Refuses64: s.Refuses64, IntParams: s.IntParams, Info: q.info(s.Info)}
	case *ir.TxOp:
		return &ir.TxOp{Op: s.Op, Tx: q.tx(s.Tx), Err: q.v(s.Err), Conn: s.Conn, Options: s.Options, Level: s.Level, ReadOnly: s.ReadOnly, Info: q.info(s.Info)}
	}
	return s
}

// maxTx returns the largest handle p uses.
func maxTx(p *ir.Program) ir.Tx {
	var m ir.Tx
	for _, e := range p.Edges {
		var t ir.Tx
		switch s := e.Stmt.(type) {
		case *ir.Exec:
			t = s.Tx
		case *ir.Select:
			t = s.Tx
		case *ir.TxOp:
			t = s.Tx
		}
		if t > m {
			m = t
		}
	}
	return m
}

// IsDBOp reports whether s is a database operation: a point where
// another request may run first.
func IsDBOp(s ir.Stmt) bool {
	switch s.(type) {
	case *ir.Exec, *ir.Select, *ir.TxOp:
		return true
	}
	return false
}
