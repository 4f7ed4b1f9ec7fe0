package frontend

import (
	"go/types"
	"slices"
	"strings"

	"github.com/dbverify/dbverify/frontend/dblib"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// Scanning into a library's nullable types (dblib.Nullable: sql.NullInt64,
// …, sql.Null[T]): the value field gets the column's value when Valid, its
// zero value otherwise. Valid is the result of "item IS NOT NULL" for the
// SELECT's item (validItems), so the row model ties it to the row's
// NULL-ness (dbmodel/nulls.go), or marks it an approximation where it
// cannot; where the SELECT is not modelled, it is arbitrary.

// rejectsNull reports whether a Scan destination of type typ (the type
// pointed to) cannot hold NULL: a boolean, number or string (named or
// not) without a Scan method. database/sql ("converting NULL to int64 is
// unsupported"), sqlx (through it) and pgx ("cannot scan NULL into
// *int64") fail such a Scan when its column is NULL; a pointer, []byte,
// any, sql.NullInt64 or a type with a Scan… method take the NULL.
func rejectsNull(typ types.Type) bool {
	if typ == nil {
		return false
	}
	if _, ok := typ.Underlying().(*types.Basic); !ok {
		return false
	}
	// A Scan method (sql.Scanner) or pgx's ScanInt64, ScanText, …
	// decide themselves what a NULL becomes.
	ms := types.NewMethodSet(types.NewPointer(typ))
	for i := 0; i < ms.Len(); i++ {
		if strings.HasPrefix(ms.At(i).Obj().Name(), "Scan") {
			return false
		}
	}
	return true
}

// nullScan is one destination of a nullable type, the index-th of the
// Scan: the scanned value is read into tmp and its validity into
// tmpValid, then stored into the fields.
type nullScan struct {
	value, valid *cell
	tmp          *ir.Var
	index        int
	tmpValid     *ir.Var
	// bound: the SELECT sets tmpValid (validItems); else it is havocked.
	bound bool
}

// validItems returns sel with one item "item IS NOT NULL" added for each
// nullable destination (read into its tmpValid), and the targets to read
// them into; sel itself when there is none or its items are not one per
// destination (SELECT *: Valid stays arbitrary).
func validItems(sel *sqlir.Select, targets []*ir.Var, ns []nullScan) (*sqlir.Select, []*ir.Var) {
	if len(ns) == 0 || sel.Complex || len(sel.Columns) != len(targets) {
		return sel, targets
	}
	for _, it := range sel.Columns {
		if it.Star || it.Expr == nil {
			return sel, targets
		}
	}
	cp := *sel
	cp.Columns = slices.Clip(sel.Columns)
	targets = slices.Clip(targets)
	for i := range ns {
		n := &ns[i]
		cp.Columns = append(cp.Columns, sqlir.SelectItem{Expr: &sqlir.IsNull{X: sel.Columns[n.index].Expr, Not: true}})
		targets = append(targets, n.tmpValid)
		n.bound = true
	}
	return &cp, targets
}

// nullFields returns the value and validity field cells of c when c is a
// nullable scan destination whose value is a scalar the model tracks.
func (t *translator) nullFields(c *cell) (value, valid *cell) {
	validName, ok := dblib.Nullable(c.typ)
	if !ok {
		return nil, nil
	}
	st, ok := c.typ.Underlying().(*types.Struct)
	if !ok || st.NumFields() != 2 {
		return nil, nil
	}
	for i := 0; i < st.NumFields(); i++ {
		f := t.field(c, i)
		if f == nil || f.v == nil {
			return nil, nil
		}
		if st.Field(i).Name() == validName {
			valid = f
		} else {
			value = f
		}
	}
	if value == nil || valid == nil {
		return nil, nil
	}
	return value, valid
}

// storeNullScans stores the scanned values into their nullable
// destinations where the Scan succeeded (err false).
func (t *translator) storeNullScans(ns []nullScan, err *ir.Var) {
	for _, n := range ns {
		valid := n.tmpValid
		info := t.info(ir.KindSQL, "")
		if !n.bound {
			t.emit(&ir.Havoc{Vars: []*ir.Var{valid}, Info: info})
		}
		t.emit(&ir.Assign{
			Lhs: []*ir.Var{n.valid.v, n.value.v},
			Rhs: []ir.Expr{
				ir.IteOf(err, n.valid.v, valid),
				ir.IteOf(err, n.value.v, ir.IteOf(valid, n.tmp, t.zeroOf(n.value.v))),
			},
			Info: info,
		})
	}
}

// pointerScan is a Scan destination &p where p is a nil pointer to a
// scalar the model tracks (var limit *int64): the driver leaves p nil
// for NULL and points it at a new variable holding the value otherwise.
// It returns the nullable scan of the new variable (valid: p's
// nil-ness, false before the Scan, so a failed Scan leaves p nil) and
// the pointer to store into p's cell once the Scan is translated; false
// for any other destination. Before, p's nil-ness and its pointee were
// arbitrary values, unrelated to the column (adv13 m8: a NULL cap
// scanned into *int64 gave a false UNSAFE).
func (t *translator) pointerScan(c *cell, index int) (nullScan, value, bool) {
	pt, ok := c.typ.Underlying().(*types.Pointer)
	if !ok || c.v != nil || c.fields != nil || c.refSet && (c.ref.obj == nil || c.ref.obj.kind != objNil) {
		return nullScan{}, value{}, false
	}
	if _, ok := pt.Elem().Underlying().(*types.Basic); !ok {
		return nullScan{}, value{}, false
	}
	pointee := t.newCell(pt.Elem(), "*"+c.name, false)
	if pointee.v == nil {
		return nullScan{}, value{}, false
	}
	valid := &cell{typ: types.Typ[types.Bool], name: c.name + " != nil", v: t.p.NewVar(c.name+" != nil", ir.Bool, ir.Local)}
	t.emit(&ir.Assign{Lhs: []*ir.Var{valid.v, pointee.v}, Rhs: []ir.Expr{ir.False, t.zeroOf(pointee.v)}, Info: t.info(ir.KindModel, "")})
	n := nullScan{value: pointee, valid: valid, index: index,
		tmp:      t.p.NewVar(pointee.v.Name+"#scanned", pointee.v.Type, ir.Local),
		tmpValid: t.p.NewVar(valid.v.Name+"#scanned", ir.Bool, ir.Local)}
	return n, value{obj: &object{kind: objPtr, cell: pointee}, nonNil: valid.v}, true
}
