package interleave

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// opSpec is one database operation of a test program: "U t.c" (UPDATE t
// SET c), "S t.c" (SELECT c FROM t), "X t.c" (SELECT c … FOR UPDATE),
// "I t" (INSERT), "B"/"C" (BEGIN/COMMIT of transaction 1), "Q t.c" (a
// SELECT whose WHERE has a subquery), "F t.c" (… a builtin function);
// "TU", "TS": U, S on transaction 1.
func opStmt(spec string, line int) ir.Stmt {
	info := ir.Info{File: "f.go", Line: line, Kind: ir.KindSQL, Text: spec}
	f := strings.Fields(spec)
	var tx ir.Tx
	if len(f[0]) == 2 && f[0][0] == 'T' {
		tx, f[0] = 1, f[0][1:]
	}
	var table, col string
	if len(f) > 1 {
		table, col, _ = strings.Cut(f[1], ".")
	}
	item := []sqlir.SelectItem{{Expr: &sqlir.ColRef{Name: col}}}
	where := &sqlir.Binary{Op: sqlir.OpEq, X: &sqlir.ColRef{Name: "id"}, Y: &sqlir.Param{Index: 1}}
	switch f[0] {
	case "U":
		return &ir.Exec{SQL: &sqlir.Update{Table: table, Set: []sqlir.Assignment{{Col: col, Value: &sqlir.Param{Index: 2}}}, Where: where}, Tx: tx, Info: info}
	case "S":
		return &ir.Select{SQL: &sqlir.Select{Table: table, Columns: item, Where: where}, Tx: tx, Info: info}
	case "Q": // WHERE with a subquery
		return &ir.Select{SQL: &sqlir.Select{Table: table, Columns: item, Where: &sqlir.Unknown{Text: "id IN (SELECT id FROM u)"}}, Info: info}
	case "F": // WHERE with a builtin function
		return &ir.Select{SQL: &sqlir.Select{Table: table, Columns: item, Where: &sqlir.Unknown{Text: "lower(name) = $1", Params: []int{1}}}, Info: info}
	case "X":
		return &ir.Select{SQL: &sqlir.Select{Table: table, Columns: item, Where: where, ForUpdate: true}, Info: info}
	case "I":
		return &ir.Exec{SQL: &sqlir.Insert{Table: table}, Info: info}
	case "B":
		return &ir.TxOp{Op: ir.Begin, Tx: 1, Info: info}
	case "C":
		return &ir.TxOp{Op: ir.Commit, Tx: 1, Info: info}
	}
	panic(spec)
}

// opsProgram runs the operations in order, each followed by Go code.
func opsProgram(name string, ops ...string) *ir.Program {
	p := ir.NewProgram(name)
	x := p.NewVar("x", ir.Int, ir.Local)
	l := p.Entry
	for i, op := range ops {
		mid, next := p.NewLoc(), p.NewLoc()
		if i == len(ops)-1 {
			next = p.Exit
		}
		p.AddEdge(l, mid, opStmt(op, i+1))
		p.AddEdge(mid, next, &ir.Assign{Lhs: []*ir.Var{x}, Rhs: []ir.Expr{ir.IntLit(int64(i))}, Info: ir.Info{File: "f.go", Line: 100 + i, Kind: ir.KindAssign}})
		l = next
	}
	return p
}

// classOf is the Mazurkiewicz class of an execution: the order of every
// pair of dependent operations of different requests.
func classOf(path []ir.Stmt, fa, fb *footprints, srcA, srcB map[int]ir.Stmt) (ops, class string) {
	type op struct {
		req  string
		line int
	}
	var seq []op
	for _, s := range path {
		if IsDBOp(s) {
			seq = append(seq, op{s.Source().Request, s.Source().Line})
		}
	}
	var words, pairs []string
	for i, x := range seq {
		words = append(words, fmt.Sprintf("%s%d", x.req, x.line))
		for _, y := range seq[i+1:] {
			if x.req == y.req {
				continue
			}
			sa, sb := srcA[x.line], srcB[y.line]
			if x.req == "B" {
				sa, sb = srcA[y.line], srcB[x.line]
			}
			if dependent(fa.of(sa), fb.of(sb)) {
				pairs = append(pairs, fmt.Sprintf("%s%d<%s%d", x.req, x.line, y.req, y.line))
			}
		}
	}
	sort.Strings(pairs)
	return strings.Join(words, " "), strings.Join(pairs, ",")
}

// TestReduce: the reduced product keeps exactly one execution of every
// class of equivalent executions of the full product (the same orders
// of dependent operations), and counts its interleavings. (Its states
// may be more: a deferred request splits a tuple of locations.)
func TestReduce(t *testing.T) {
	tests := []struct {
		name       string
		a, b       []string
		full, kept uint64
		snapshots  bool
	}{
		{"distinct tables", []string{"U t1.c", "U t2.c", "U t3.c", "U t4.c"}, []string{"U t1.c", "U t2.c", "U t3.c", "U t4.c"}, 70, 16, false},
		{"reads commute", []string{"S t.a", "S t.a", "S t.a"}, []string{"S t.a", "S t.a", "S t.a"}, 20, 1, false},
		{"columns", []string{"U t.a", "S t.b"}, []string{"S t.c", "U t.d"}, 6, 2, false}, // the UPDATEs lock the rows of t
		{"disjoint columns", []string{"U t.a", "S t.b"}, []string{"S t.c", "S t.d"}, 6, 1, false},
		{"same cell", []string{"S t.a", "U t.a"}, []string{"S t.a", "U t.a"}, 6, 4, false},
		{"locks", []string{"X t.a", "S u.a"}, []string{"X t.b", "S u.a"}, 6, 2, false},
		{"transaction", []string{"B", "S t.a", "U t.a", "C"}, []string{"B", "S t.a", "U t.a", "C"}, 70, 0, false},
		{"subquery", []string{"Q t.a"}, []string{"U u.c"}, 2, 2, false},
		{"builtin", []string{"F t.a"}, []string{"U u.c"}, 2, 1, false},
		{"insert", []string{"I t", "S u.a"}, []string{"S t.a", "S u.b"}, 6, 2, false},
		// At first-updater-wins a transaction's first statement takes its
		// snapshot of every table: it does not commute with the other's
		// COMMIT, whatever the tables.
		{"snapshot", []string{"B", "TS t.a", "C"}, []string{"U u.a"}, 4, 3, true},
		{"no snapshot", []string{"B", "TS t.a", "C"}, []string{"U u.a"}, 4, 2, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, b := opsProgram("a", tc.a...), opsProgram("b", tc.b...)
			full, err := Build(Options{}, a, b)
			if err != nil {
				t.Fatal(err)
			}
			red, err := Build(Options{Reduce: true, Snapshots: tc.snapshots}, a, b)
			if err != nil {
				t.Fatal(err)
			}
			srcA, srcB := map[int]ir.Stmt{}, map[int]ir.Stmt{}
			for _, e := range a.Edges {
				srcA[e.Stmt.Source().Line] = e.Stmt
			}
			for _, e := range b.Edges {
				srcB[e.Stmt.Source().Line] = e.Stmt
			}
			fa, fb := newFootprints(a, nil, tc.snapshots), newFootprints(b, nil, tc.snapshots)
			classes := map[string]string{}
			for _, p := range paths(full.Prog) {
				ops, c := classOf(p, fa, fb, srcA, srcB)
				classes[c] = ops
			}
			kept := map[string]int{}
			for _, p := range paths(red.Prog) {
				_, c := classOf(p, fa, fb, srcA, srcB)
				kept[c]++
			}
			for c, ops := range classes {
				if kept[c] != 1 {
					t.Errorf("class of %s kept %d times, want once", ops, kept[c])
				}
			}
			if len(kept) != len(classes) {
				t.Errorf("the reduced product has %d classes, the full one %d", len(kept), len(classes))
			}
			if full.Size.Interleavings != tc.full || red.Size.Interleavings != uint64(len(classes)) {
				t.Errorf("interleavings %d full, %d reduced; want %d and %d (the classes)", full.Size.Interleavings, red.Size.Interleavings, tc.full, len(classes))
			}
			if tc.kept != 0 && uint64(len(classes)) != tc.kept {
				t.Errorf("%d classes, want %d", len(classes), tc.kept)
			}
			t.Logf("%d interleavings, %d states → %d, %d", full.Size.Interleavings, full.Size.States, red.Size.Interleavings, red.Size.States)
		})
	}
}
