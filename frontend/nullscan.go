package frontend

import (
	"go/types"

	"github.com/dbverify/dbverify/frontend/dblib"
	"github.com/dbverify/dbverify/ir"
)

// Scanning into a library's nullable types (dblib.Nullable: sql.NullInt64,
// …, sql.Null[T]): the value field gets the column's value when Valid, its
// zero value otherwise; whether the column was NULL (Valid) is arbitrary.

// nullScan is one destination of a nullable type: the scanned value is
// read into tmp, then stored into the fields.
type nullScan struct {
	value, valid *cell
	tmp          *ir.Var
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
		valid := t.p.NewVar(n.valid.v.Name+"#scanned", ir.Bool, ir.Local)
		info := t.info(ir.KindSQL, "")
		t.emit(&ir.Havoc{Vars: []*ir.Var{valid}, Info: info})
		t.emit(&ir.Assign{
			Lhs: []*ir.Var{n.valid.v, n.value.v},
			Rhs: []ir.Expr{
				ir.IteOf(err, n.valid.v, valid),
				ir.IteOf(err, n.value.v, ir.IteOf(valid, n.tmp, ir.Zero(n.tmp.Type))),
			},
			Info: info,
		})
	}
}
