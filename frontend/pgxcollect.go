package frontend

import (
	"go/types"
	"reflect"
	"strings"

	"github.com/dbverify/dbverify/frontend/dblib"
	"github.com/dbverify/dbverify/ir"
)

// pgx v5's CollectOneRow(rows, fn) and CollectExactlyOneRow(rows, fn)
// read the first row of rows with fn. With fn one of pgx's own mappers —
// RowTo[T] (rows.Scan(&value)), RowToStructByPos[T] (the exported fields
// in order) or RowToStructByName[T] (each column into the exported field
// its `db` tag names, or, untagged, whose name equals it case-folded
// with '_' removed; every column and every exported field paired, else
// the call always fails) — the call is the single-row Scan it performs,
// through the same Scan as database/sql's (scan), so a collected value
// is a row's value within its Go destination's domain (scandest.go).
// Any other mapper, or a pairing the analysis cannot make exactly,
// leaves the result an approximation (dblib pgxCollect).

// pgxMappers are pgx v5's row mappers collectOne models.
var pgxMappers = map[string]bool{"RowTo": true, "RowToStructByPos": true, "RowToStructByName": true}

// collectOne translates CollectOneRow (exactly: CollectExactlyOneRow)
// of rows with mapper; false when it is not modelled.
func (b *libCall) CollectOne(rows, mapper dblib.Value, exactly bool) (dblib.Value, bool) {
	t := b.t
	src, fn := asValue(rows).obj, asValue(mapper).obj
	if src == nil || src.kind != objRows || src.alts != nil || fn == nil || fn.kind != objFunc || fn.fn == nil ||
		b.results == nil || b.results.Len() != 2 {
		return nil, false
	}
	origin := fn.fn.Origin()
	if origin == nil || origin.Pkg == nil || origin.Pkg.Pkg.Path() != "github.com/jackc/pgx/v5" || !pgxMappers[origin.Name()] {
		return nil, false
	}
	one := *src
	one.kind = objRow
	t.expandStar(&one)
	c := t.newCell(b.results.At(0).Type(), "collected", false)
	var dests []value
	switch origin.Name() {
	case "RowTo":
		if c.v == nil {
			return nil, false
		}
		dests = []value{{obj: &object{kind: objPtr, cell: c}}}
	default:
		var ok bool
		if dests, ok = t.pgxStructDests(&one, c, origin.Name() == "RowToStructByName"); !ok {
			return nil, false
		}
	}
	res := t.scan(&one, dests, false)
	if res.err != nil {
		res.err.noRowsName = noRowsErrorOf(origin.Pkg.Pkg.Path())
	}
	if exactly {
		// A second row fails the call (ErrTooManyRows).
		tooMany := t.freshVar("tooManyRows", ir.Bool, ir.KindSQL)
		res.expr = ir.Or(res.expr, tooMany)
	}
	return value{tuple: []value{t.load(c, "collected"), res}}, true
}

// pgxStructDests pairs the columns of src with the exported fields of
// struct cell c, by position or (byName) as RowToStructByName does; false
// when the pairing is not exact (a column or an exported field left over,
// an embedded struct, a column name unknown).
func (t *translator) pgxStructDests(src *object, c *cell, byName bool) ([]value, bool) {
	st, ok := c.typ.Underlying().(*types.Struct)
	if !ok || c.fields == nil {
		return nil, false
	}
	cols := t.resultColumns(src)
	for _, col := range cols {
		if col == "" || col == "*" {
			return nil, false
		}
	}
	dests := make([]value, len(cols))
	pos := 0
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if f.Embedded() {
			return nil, false
		}
		tag, tagged := reflect.StructTag(st.Tag(i)).Lookup("db")
		tag, _, _ = strings.Cut(tag, ",")
		if !f.Exported() || tag == "-" {
			continue
		}
		j := pos
		if byName {
			j = pgxColumnOf(cols, f.Name(), tag, tagged)
		}
		pos++
		fc := t.field(c, i)
		if j < 0 || j >= len(cols) || dests[j].obj != nil || fc == nil || fc.v == nil {
			return nil, false
		}
		dests[j] = value{obj: &object{kind: objPtr, cell: fc}}
	}
	for _, d := range dests {
		if d.obj == nil {
			return nil, false
		}
	}
	return dests, true
}

// pgxColumnOf returns the index of the first of cols (lower-case) that
// pgx pairs with the field named name: its tag when tagged (compared
// case-folded), else its name compared case-folded with '_' removed on
// both sides; -1 when none.
func pgxColumnOf(cols []string, name, tag string, tagged bool) int {
	want := strings.ToLower(tag)
	if !tagged {
		want = strings.ToLower(strings.ReplaceAll(name, "_", ""))
	}
	for i, col := range cols {
		if !tagged {
			col = strings.ReplaceAll(col, "_", "")
		}
		if col == want {
			return i
		}
	}
	return -1
}
