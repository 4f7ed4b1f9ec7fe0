package frontend

// A helper that returns the row of one of several handles:
//
//	func (r *Repo) row(ctx context.Context, sql string, args ...any) pgx.Row {
//		if r.tx != nil {
//			return r.tx.QueryRow(ctx, sql, args...)
//		}
//		return r.pool.QueryRow(ctx, sql, args...)
//	}
//
// Its result is the row (the rows, the statement) of whichever return
// ran: an object with one alternative per return, selected by a ghost
// variable each return assigns, as a φ of rows is (choicePhi). The two
// rows merged into an opaque value, and the caller's Scan was an outside
// call whose destinations took any value: a false UNSAFE scanned an
// "outside" balance where the row held 0 (adv18 m1-rowhelper).

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/frontend/dblib"
	"github.com/dbverify/dbverify/ir"
)

// rowsChoice is what the returns of a frame give for one result that may
// be a database row, rows or statement.
type rowsChoice struct {
	sel   *ir.Var   // which of alts the last return gave
	alts  []*object // the distinct objects the returns gave
	other bool      // some return gave something else (not nil)
}

// setupRowsResults makes the selectors of fn's results that may hold
// rows, when fn has several returns. Not in a loop (as resultTypes): a
// value kept from an earlier round would read the last round's choice.
func (t *translator) setupRowsResults(f *frame, fn *ssa.Function) {
	res := fn.Signature.Results()
	f.rowsRes = make([]*rowsChoice, res.Len())
	if returnCount(fn) < 2 || t.stackInLoop() {
		return
	}
	for i := 0; i < res.Len(); i++ {
		if k, ok := dbObjectKind(res.At(i).Type()); ok && isRowsKind(k) {
			sel := t.p.NewVar(fmt.Sprintf("%s.ret%d$which", fn.Name(), i), ir.Int, ir.Ghost)
			f.rowsRes[i] = &rowsChoice{sel: sel}
		}
	}
}

// returnCount is the number of return statements of fn.
func returnCount(fn *ssa.Function) int {
	n := 0
	for _, b := range fn.Blocks {
		if len(b.Instrs) > 0 {
			if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
				n++
			}
		}
	}
	return n
}

func isRowsKind(k objKind) bool { return k == objRow || k == objRows || k == objStmt }

// returnRows records the object a return gives for result i and adds
// the assignment of its number to the selector to lhs, rhs.
func (f *frame) returnRows(i int, v value, lhs []*ir.Var, rhs []ir.Expr) ([]*ir.Var, []ir.Expr) {
	c := f.rowsRes[i]
	if c == nil {
		return lhs, rhs
	}
	o := v.obj
	if o == nil || o.alts != nil || !isRowsKind(o.kind) || (len(c.alts) > 0 && c.alts[0].kind != o.kind) {
		if o == nil || o.kind != objNil {
			c.other = true
		}
		return lhs, rhs
	}
	k := len(c.alts)
	for j, a := range c.alts {
		if a == o {
			k = j
		}
	}
	if k == len(c.alts) {
		c.alts = append(c.alts, o)
	}
	return append(lhs, c.sel), append(rhs, ir.IntLit(int64(k)))
}

// rowsResult sets result i to the choice among the objects the returns
// gave, when there are several and nothing else.
func (f *frame) rowsResult(i int) {
	c := f.rowsRes[i]
	if c == nil || c.other || len(c.alts) < 2 {
		return
	}
	o := &object{kind: c.alts[0].kind}
	for k, a := range c.alts {
		o.alts = append(o.alts, a)
		o.altConds = append(o.altConds, ir.Eq(c.sel, ir.IntLit(int64(k))))
	}
	f.objRes[i] = value{obj: o}
}

// lostRowsRead is Scan (or StructScan) on a row or rows interface value
// the model lost track of (merged with other values): the query is not
// known, so the scanned values are unknown (UNKNOWN naming the call),
// never the arbitrary results of outside code, which a counterexample
// may use.
func (t *translator) lostRowsRead(c *ssa.CallCommon, recv value, args []value, results *types.Tuple) (value, bool) {
	k, ok := dbObjectKind(c.Value.Type())
	if !ok || (k != objRow && k != objRows) || recv.obj != nil || recv.dyn != nil {
		return value{}, false
	}
	if op := dblib.OnHandle(dblib.Kind(k), c.Method, c.Signature(), 0, 1).Op; op != dblib.Scan && op != dblib.StructScan {
		return value{}, false
	}
	t.unsupported("%s on a %s whose query the analysis cannot trace (a value merged from several sources)", c.Method.Name(), types.TypeString(c.Value.Type(), nil))
	t.escape(args)
	return t.fresh(c.Method.Name()+"()", results), true
}
