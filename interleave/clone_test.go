package interleave

import (
	"reflect"
	"testing"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// TestCloneKeepsEveryField guards the product against a statement field
// its copy forgets: every field of every statement kind is set to a
// non-zero value, and the request's copy must carry each one (variables
// and handles renamed, the rest equal). The copy once dropped
// Select.LockOnly, so a `rows, _ := tx.Query("… FOR UPDATE")` of a
// product read a row it never reads, and TxOp.Options.
func TestCloneKeepsEveryField(t *testing.T) {
	src := &ir.Program{}
	x := src.NewVar("x", ir.Int, ir.Local)
	e := src.NewVar("err", ir.Bool, ir.Local)
	out := &ir.Program{}
	q := newRequest(out, "A", src, 4)
	info := ir.Info{File: "f.go", Line: 3, Kind: ir.KindSQL, Text: "t"}
	stmts := []ir.Stmt{
		&ir.Assign{Lhs: []*ir.Var{x}, Rhs: []ir.Expr{x}, Info: info},
		&ir.Assume{Cond: e, Info: info},
		&ir.Havoc{Vars: []*ir.Var{x}, Info: info},
		&ir.Exec{SQL: &sqlir.Delete{Table: "t"}, Args: []ir.Expr{x}, Tx: 1, Err: e, Affected: x, Targets: []*ir.Var{x}, NoRow: e, Refuses64: []int{0}, IntParams: ir.IntParamsDriverRefuses, Info: info},
		&ir.Select{SQL: &sqlir.Select{Table: "t"}, Args: []ir.Expr{x}, Tx: 1, Targets: []*ir.Var{x}, Err: e, LockOnly: true, NoRow: e, RejectsNull: []bool{true}, ScanInto: []*ir.GoDest{{Bool: true}}, Refuses64: []int{0}, IntParams: ir.IntParamsDriverRefuses, Info: info},
		&ir.TxOp{Op: ir.Commit, Tx: 1, Err: e, Conn: true, Options: true, Level: "Serializable", ReadOnly: true, Info: info},
	}
	for _, s := range stmts {
		sv := reflect.ValueOf(s).Elem()
		for i := range sv.NumField() {
			if sv.Field(i).IsZero() {
				t.Fatalf("%T.%s is not set in the test: set every field", s, sv.Type().Field(i).Name)
			}
		}
		cv := reflect.ValueOf(q.stmt(s)).Elem()
		for i := range sv.NumField() {
			name := sv.Type().Field(i).Name
			got, want := cv.Field(i), sv.Field(i)
			switch name {
			case "Info":
				want := info
				want.Request = "A"
				gi := got.Interface().(ir.Info)
				site := gi.DB
				gi.DB = nil
				if gi != want {
					t.Errorf("%T.Info copied as %+v, want %+v", s, gi, want)
				}
				// A database operation's site is the copy's own: its
				// handle renamed (ir.WithDB of the copy).
				if IsDBOp(s) && (site == nil || site.Tx != ir.Tx(5)) {
					t.Errorf("%T.Info.DB copied as %+v, want the copy's site (handle 5)", s, site)
				}
			case "Tx":
				if got.Interface() != ir.Tx(5) {
					t.Errorf("%T.Tx copied as %v, want the renamed handle 5", s, got.Interface())
				}
			default:
				if got.IsZero() {
					t.Errorf("%T.%s is lost by the request's copy", s, name)
				} else if reflect.DeepEqual(got.Interface(), want.Interface()) && mentionsVar(want) {
					t.Errorf("%T.%s keeps the source's variables, want the request's", s, name)
				}
			}
		}
	}
}

// mentionsVar reports whether v holds a variable (or an expression over
// one) of the source program.
func mentionsVar(v reflect.Value) bool {
	switch v.Interface().(type) {
	case *ir.Var, []*ir.Var, ir.Expr, []ir.Expr:
		return true
	}
	return false
}
