package report

import (
	"fmt"
	"slices"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/vcgen"
)

// The rows of other tables a SELECT reads, or a joined UPDATE joins,
// without a row symbol the model tracks (dbmodel's otherRow: ghosts
// whose ir.Var.Row is q1, q2, …): each time the path reads one (a havoc
// of its columns), the row as read, named by its symbol (a second read
// of the same SELECT, in a loop, q1#2). Such a read comes before any
// write of its table by the entry, so the row is one the database held
// on entry, which a replay seeds. (Not in a concurrent product, where
// another request may have written the table before the read.)

// readRowSymbols are the symbols of the read rows, in program order.
func readRowSymbols(vars []*ir.Var) []string {
	var symbols []string
	for _, v := range vars {
		if v.Kind == ir.Ghost && v.Row != "" && v.Col != "" && !slices.Contains(symbols, v.Row) {
			symbols = append(symbols, v.Row)
		}
	}
	return symbols
}

// readRows lists each read of a read row on the path (see above), but
// of the tables in tracked, whose rows the model tracks: such a read row
// may be one of them (the model keeps no key apart from theirs), and
// listed beside them a replay seeded two rows with one key, which the
// engine refused (fk/*_pets_*: "Duplicate entry '0' for key 'PRIMARY'").
// Their tracked rows are seeded; the read finds one of them or none.
func (b *traceBuilder) readRows(tracked map[string]bool) ([]Row, error) {
	var out []Row
	for _, sym := range b.readSymbols {
		n := 0
		for _, st := range b.pf.Steps {
			row, err := b.readRowAt(st, sym)
			if err != nil {
				return nil, err
			}
			if row == nil || tracked[row.Table] {
				continue
			}
			n++
			row.Symbol = sym
			if n > 1 {
				row.Symbol = fmt.Sprintf("%s#%d", sym, n)
			}
			out = append(out, *row)
		}
	}
	return out, nil
}

// readRowAt is row sym as step st reads it, or nil when st does not
// havoc its columns.
func (b *traceBuilder) readRowAt(st vcgen.Step, sym string) (*Row, error) {
	if _, ok := st.Edge.Stmt.(*ir.Havoc); !ok || st.Edge.Stmt.Source().Request != "" {
		// (A request's read under --concurrent may follow another
		// request's write of the table: not a row on entry.)
		return nil, nil
	}
	var row *Row
	for _, d := range st.Defs {
		o := b.pf.Origin[d].Orig
		if o.Kind != ir.Ghost || o.Row != sym {
			continue
		}
		if row == nil {
			row = &Row{Table: o.Table, Values: map[string]string{}}
		}
		s, err := b.value(d)
		if err != nil {
			return nil, err
		}
		row.Values[o.Col] = s
	}
	return row, nil
}
