package pipeline

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/report"
	"github.com/dbverify/dbverify/smt"
	"github.com/dbverify/dbverify/spec"
	"github.com/dbverify/dbverify/sqlir"
)

// orderDep is a pair of requests whose two serial orders end differently
// (see orderdep.go), with the values that show it.
type orderDep struct {
	a, b       string // the entries of requests A and B
	table, col string // the cell ("" col: the row's existence)
	at, other  ir.Info
	// inputs are the requests' inputs (A's, then B's): name → value as a
	// trace shows it (strings quoted).
	inputs [2][]report.Input
	// shown: the inputs as the message lists them (report.RequestInputs:
	// a request's values as it sends them).
	shown [2][]string
	row   map[string]string // the initial row: column → value
	// ab and ba are the cell's final value when A runs first and when B
	// does ("no row" where the row was deleted).
	ab, ba string
}

// odEntry is an entry with its writing paths.
type odEntry struct {
	entry  string
	prog   *ir.Program
	paths  []*orderPath
	merged *orderPath // the paths as one (merge)
}

// orderDepFinder decides the pairs of paths of a run.
type orderDepFinder struct {
	s       *smt.Solver
	cols    *odColumns
	checks  map[string]ir.Expr // a constrained table's row check, as written
	queries int
	cut     []string
}

// orderDependences returns the order dependences of the jobs' entries
// on the constrained tables, and why the search was cut ("": it was
// not).
func orderDependences(jobs []job, cfg Config, schema *sqlir.Schema, s *smt.Solver) ([]orderDep, string, error) {
	f := &orderDepFinder{s: s, cols: newODColumns(schema), checks: map[string]ir.Expr{}}
	watched := map[string]bool{}
	for _, j := range jobs {
		for _, t := range j.c.Tables() {
			watched[strings.ToLower(t)] = true
		}
	}
	if schema != nil {
		for _, tr := range schema.Triggers {
			if watched[strings.ToLower(tr.Table)] {
				return nil, "", nil // a write runs code the model does not see
			}
		}
	}
	var entries []*odEntry
	seen := map[*ir.Program]bool{}
	for _, j := range jobs {
		if seen[j.prog] {
			continue
		}
		seen[j.prog] = true
		if len(j.prog.Unsupported) > 0 {
			continue // the frontend could not model it: its paths are not its executions
		}
		paths, cut := orderPaths(j.prog, f.cols, watched, progDialect(cfg, j.prog))
		if cut {
			f.cut = append(f.cut, fmt.Sprintf("%s: more than %d writing paths or %d steps", shortName(j.entry), orderDepMaxPaths, lostUpdateMaxSteps))
		} else if j.prog.HasCycle() {
			f.cut = append(f.cut, fmt.Sprintf("%s: loops taken at most once", shortName(j.entry)))
		}
		if len(paths) > 0 {
			entries = append(entries, &odEntry{entry: j.entry, prog: j.prog, paths: paths, merged: f.merge(paths)})
		}
	}
	f.rowChecks(jobs)
	var out []orderDep
	for i, a := range entries {
		for _, b := range entries[i:] {
			d, err := f.pair(a, b)
			if err != nil {
				return nil, "", err
			}
			if d != nil {
				out = append(out, *d)
			}
		}
	}
	return out, strings.Join(dedupe(f.cut), "; "), nil
}

// rowChecks keeps each constrained table's row constraint, as written,
// and the schema's CHECKs: the initial row satisfies them.
func (f *orderDepFinder) rowChecks(jobs []job) {
	for _, j := range jobs {
		rc, ok := j.c.(*spec.RowCheck)
		if !ok {
			continue
		}
		f.addCheck(strings.ToLower(rc.Table), rc.Written())
	}
	for t, ks := range f.cols.checks {
		for _, k := range ks {
			f.addCheck(t, k)
		}
	}
}

// addCheck adds condition k to the initial row of table's (where the
// model follows it).
func (f *orderDepFinder) addCheck(table string, k sqlir.Expr) {
	st := &odState{pathState: &pathState{env: map[*ir.Var]ir.Expr{}}, cols: f.cols, rows: map[string]*odRow{}}
	if c, ok := st.sqlValue(k, table, nil, ir.Bool); ok && c.Sort() == ir.Bool {
		f.checks[table] = ir.And(f.checkOf(table), c)
	}
}

// pair decides entries a and b with one query over their merged paths
// (nil: their orders end alike).
func (f *orderDepFinder) pair(a, b *odEntry) (*orderDep, error) {
	cells := f.readModifyWrite(commonCells(a.merged, b.merged), a.merged, b.merged)
	if len(cells) == 0 || interfere(a.merged, b.merged) {
		return nil, nil
	}
	if f.queries >= orderDepMaxQueries {
		f.cut = append(f.cut, fmt.Sprintf("the budget of %d solver checks", orderDepMaxQueries))
		return nil, nil
	}
	f.queries++
	d, err := f.query(a, b, cells)
	if d != nil {
		d.a, d.b = a.entry, b.entry
	}
	return d, err
}

// merge is one path standing for all of paths (which exclude each
// other: the program is deterministic given its inputs and the values
// it reads): its condition is that one of them runs, its final rows and
// its writes those of the one that runs.
func (f *orderDepFinder) merge(paths []*orderPath) *orderPath {
	out := &orderPath{prog: paths[0].prog, rows: map[string]*odRow{}, reads: map[string]bool{}, written: map[string]bool{}}
	var defs, any []ir.Expr
	cols := map[string]map[string]bool{}
	seen := map[*ir.Var]bool{}
	for i, p := range paths {
		sel := &ir.Var{Name: fmt.Sprintf("odsel.%s.%d", p.prog.Name, i), Type: ir.Bool, Kind: ir.Ghost}
		out.selectors = append(out.selectors, sel)
		defs, any = append(defs, ir.Eq(sel, p.pc)), append(any, sel)
		for t, r := range p.rows {
			if cols[t] == nil {
				cols[t] = map[string]bool{}
			}
			for c := range r.cols {
				cols[t][c] = true
			}
		}
		for _, w := range p.writes {
			w.cond = ir.And(sel, w.cond)
			out.writes = append(out.writes, w)
		}
		maps.Copy(out.reads, p.reads)
		maps.Copy(out.written, p.written)
		for _, v := range p.inputs {
			if !seen[v] {
				seen[v] = true
				out.inputs = append(out.inputs, v)
			}
		}
	}
	out.pc = ir.And(append(defs, ir.Or(any...))...)
	for t, cs := range cols {
		r := &odRow{cols: map[string]ir.Expr{}}
		r.exists = pick(paths, out.selectors, func(p *orderPath) ir.Expr {
			if pr := p.rows[t]; pr != nil {
				return pr.exists
			}
			return f.cols.exists(t)
		})
		for c := range cs {
			r.cols[c] = pick(paths, out.selectors, func(p *orderPath) ir.Expr { return f.cell(p.rows, t, c) })
		}
		out.rows[t] = r
	}
	return out
}

// pick is the value of the path that runs: ite(sel1, v1, ite(sel2, v2,
// … vn)).
func pick(paths []*orderPath, sels []*ir.Var, val func(*orderPath) ir.Expr) ir.Expr {
	out := val(paths[len(paths)-1])
	for i := len(paths) - 2; i >= 0; i-- {
		out = ir.IteOf(sels[i], val(paths[i]), out)
	}
	return out
}

// commonCells are the cells (table, column; column "" for a deleted row)
// both paths write.
func commonCells(pa, pb *orderPath) [][2]string {
	in := map[[2]string]bool{}
	for _, w := range pa.writes {
		in[[2]string{w.table, w.col}] = true
	}
	var out [][2]string
	seen := map[[2]string]bool{}
	for _, w := range pb.writes {
		k := [2]string{w.table, w.col}
		if in[k] && !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// readModifyWrite keeps the cells of cells (a deleted row aside) that
// one of pa and pb writes, or chooses to write, from the cell's own
// value: a path whose condition or final value of the cell mentions the
// cell's initial value. Two blind writes of a cell (SET amount = $1 by
// two requests, or by a setter and another) end with the value of the
// one that commits last: the nature of last-writer-wins, not a finding
// (adv19 svcrepo: 3 of its 6 order-dependence warnings were setters
// against setters). A write that a read of the cell guards (SET status =
// 'shipped' WHERE status = 'open') or computes from it (balance -
// $1, or a value read by SELECT) stays.
func (f *orderDepFinder) readModifyWrite(cells [][2]string, pa, pb *orderPath) [][2]string {
	var out [][2]string
	for _, c := range cells {
		if c[1] == "" || f.readsCell(pa, c) || f.readsCell(pb, c) {
			out = append(out, c)
		}
	}
	return out
}

// readsCell reports whether p's condition, or the condition or value of
// one of its writes of cell c, mentions c's initial value. (The cell's
// final value does: it keeps its initial value where no write matched.)
func (f *orderDepFinder) readsCell(p *orderPath, c [2]string) bool {
	init := f.cols.vars[c[0]+"."+c[1]]
	if init == nil {
		return false
	}
	vars := map[*ir.Var]bool{}
	ir.CollectVars(p.pc, vars)
	for _, w := range p.writes {
		if w.table == c[0] && w.col == c[1] {
			ir.CollectVars(w.cond, vars)
			if w.value != nil {
				ir.CollectVars(w.value, vars)
			}
		}
	}
	return vars[init]
}

// interfere reports whether one path writes a table outside the watched
// ones that the other reads or writes (its values are then not the same
// in both orders).
func interfere(pa, pb *orderPath) bool {
	for t := range pa.written {
		if pb.reads[t] || pb.written[t] {
			return true
		}
	}
	for t := range pb.written {
		if pa.reads[t] {
			return true
		}
	}
	return false
}

// composed is a path run from a given state: its condition, final rows
// and the condition under which it wrote each cell.
type composed struct {
	pc    ir.Expr
	rows  map[string]*odRow
	wrote map[[2]string]ir.Expr
}

// run is path p of request m (its variables renamed) run on the rows
// before (nil: the initial row); label names the run. The rows before
// are held by variables of the run equal to them, and p's path
// selectors (merge) are the run's own: the formula stays linear in the
// paths.
func (f *orderDepFinder) run(p *orderPath, m map[*ir.Var]ir.Expr, before map[string]*odRow, label string) composed {
	sub := make(map[*ir.Var]ir.Expr, len(m))
	for k, v := range m {
		sub[k] = v
	}
	for _, v := range p.selectors {
		sub[v] = &ir.Var{Name: label + "." + v.Name, Type: ir.Bool, Kind: ir.Ghost}
	}
	var eqs []ir.Expr
	hold := func(v *ir.Var, x ir.Expr) ir.Expr {
		h := &ir.Var{Name: label + "." + v.Name, Type: x.Sort(), Kind: ir.Ghost}
		sub[v] = h
		eqs = append(eqs, ir.Eq(h, x))
		return h
	}
	held := map[string]*odRow{}
	for t, r := range before {
		hr := &odRow{cols: map[string]ir.Expr{}, exists: hold(f.cols.exists(t), r.exists)}
		for c, x := range r.cols {
			hr.cols[c] = hold(f.cols.get(t, c, x.Sort()), x)
		}
		held[t] = hr
	}
	out := composed{pc: ir.And(append(eqs, ir.Substitute(p.pc, sub))...), rows: map[string]*odRow{}, wrote: map[[2]string]ir.Expr{}}
	for t, r := range held {
		out.rows[t] = r
	}
	for t, pr := range p.rows {
		r := &odRow{cols: map[string]ir.Expr{}, exists: ir.Substitute(pr.exists, sub)}
		if h := held[t]; h != nil {
			maps.Copy(r.cols, h.cols)
		}
		for c, x := range pr.cols {
			r.cols[c] = ir.Substitute(x, sub)
		}
		out.rows[t] = r
	}
	for _, w := range p.writes {
		k := [2]string{w.table, w.col}
		prev := out.wrote[k]
		if prev == nil {
			prev = ir.False
		}
		out.wrote[k] = ir.Or(prev, ir.Substitute(w.cond, sub))
	}
	return out
}

// cell is the value of (table, col) in rows (the initial value where
// not written).
func (f *orderDepFinder) cell(rows map[string]*odRow, table, col string) ir.Expr {
	if r := rows[table]; r != nil {
		if x, ok := r.cols[col]; ok {
			return x
		}
	}
	return f.cols.vars[table+"."+col]
}

// query asks for inputs of A and B and an initial row under which A;B
// and B;A both succeed, both requests write a common cell, and one of
// the cells ends differently.
func (f *orderDepFinder) query(a, b *odEntry, cells [][2]string) (*orderDep, error) {
	pa, pb := a.merged, b.merged
	mA, mB := f.requestCopy(pa, "A"), f.requestCopy(pb, "B")
	a0, b0 := f.run(pa, mA, nil, "A@0"), f.run(pb, mB, nil, "B@0")
	ab, ba := f.run(pb, mB, a0.rows, "B@A"), f.run(pa, mA, b0.rows, "A@B") // B after A, A after B
	parts := []ir.Expr{a0.pc, b0.pc, ab.pc, ba.pc}
	for t := range a0.rows {
		parts = append(parts, f.cols.exists(t), f.checkOf(t))
	}
	for t := range b0.rows {
		parts = append(parts, f.cols.exists(t), f.checkOf(t))
	}
	var differ, both []ir.Expr
	for _, c := range cells {
		parts = append(parts, ir.Or(a0.wrote[c], ba.wrote[c]), ir.Or(b0.wrote[c], ab.wrote[c]))
		eAB, eBA := ab.rows[c[0]].exists, ba.rows[c[0]].exists
		d := ir.Not(ir.Eq(eAB, eBA))
		if c[1] != "" {
			vAB, vBA := f.cell(ab.rows, c[0], c[1]), f.cell(ba.rows, c[0], c[1])
			d = ir.Or(d, ir.And(eAB, eBA, ir.Not(ir.Eq(vAB, vBA))))
			both = append(both, ir.And(eAB, eBA))
		}
		differ = append(differ, d)
	}
	parts = append(parts, ir.Or(differ...))
	m, undecided, err := f.solve(ir.And(parts...), ir.And(both...))
	if errors.Is(err, smt.ErrSort) {
		return nil, nil
	}
	if undecided {
		f.cut = append(f.cut, fmt.Sprintf("%s with %s: undecided within the solver's limit", funcName(a.entry), funcName(b.entry)))
	}
	if err != nil || m == nil {
		if err != nil {
			err = fmt.Errorf("order dependence of %s and %s: %w", pa.prog.Name, pb.prog.Name, err)
		}
		return nil, err
	}
	free := map[*ir.Var]bool{}
	ir.CollectVars(ir.And(parts...), free)
	return f.witness(m, a, b, mA, mB, cells, ab, ba, free), nil
}

// checkOf is table's row constraint on the initial row (true: none).
func (f *orderDepFinder) checkOf(table string) ir.Expr {
	if c := f.checks[table]; c != nil {
		return c
	}
	return ir.True
}

// requestCopy renames the variables of path p for request name, keeping
// the initial row's.
func (f *orderDepFinder) requestCopy(p *orderPath, name string) map[*ir.Var]ir.Expr {
	free := p.freeVars()
	row := map[*ir.Var]bool{}
	for v := range free {
		if f.cols.isRow(v) {
			row[v] = true
		}
	}
	return requestCopy(free, row, name)
}

// solve returns a readable model of base and preferred, else of base
// (nil: none); undecided says the solver could not tell.
func (f *orderDepFinder) solve(base, preferred ir.Expr) (m *smt.Model, undecided bool, err error) {
	f.s.Push()
	defer f.s.Pop()
	if err := f.s.Assert(base); err != nil {
		return nil, false, err
	}
	for _, extra := range []ir.Expr{preferred, ir.True} {
		f.s.Push()
		err := f.s.Assert(extra)
		var res smt.Result
		if err == nil {
			res, err = f.s.Check()
		}
		if err == nil && res == smt.Sat {
			if m, err = f.s.Model(); err == nil {
				m, err = f.s.NiceModel(m, 100)
			}
		}
		f.s.Pop()
		if err != nil || m != nil {
			return m, false, err
		}
		undecided = res == smt.Unknown
	}
	return nil, undecided, nil
}

// witness reads the finding's values off model m.
func (f *orderDepFinder) witness(m *smt.Model, a, b *odEntry, mA, mB map[*ir.Var]ir.Expr, cells [][2]string, ab, ba composed, free map[*ir.Var]bool) *orderDep {
	pa, pb := a.merged, b.merged
	show := func(e ir.Expr, strs map[string]string) string {
		v, err := ir.Eval(e, m.Value)
		if err != nil {
			return "?"
		}
		if s, ok := strs[v.String()]; ok && e.Sort() == ir.Int {
			return strconv.Quote(s)
		}
		return v.String()
	}
	// A text column's value is a string's code; one that is no literal's
	// stands for a string unlike them all (only equality is kept).
	text := func(table, col string, e ir.Expr, strs map[string]string) string {
		v := show(e, strs)
		if f.cols.text[table+"."+col] && !strings.HasPrefix(v, `"`) {
			return strconv.Quote("s" + v)
		}
		return v
	}
	strs := map[string]string{}
	for k, v := range f.cols.strs {
		strs[k] = v
	}
	for _, p := range []*orderPath{pa, pb} {
		for k, v := range p.prog.Strings {
			strs[k] = v
		}
	}
	d := &orderDep{row: map[string]string{}}
	for i, r := range []struct {
		p *orderPath
		m map[*ir.Var]ir.Expr
	}{{pa, mA}, {pb, mB}} {
		d.inputs[i] = []report.Input{}
		for _, v := range r.p.inputs {
			d.inputs[i] = append(d.inputs[i], report.Input{Name: inputName(v), Value: show(r.m[v], strs)})
		}
		d.shown[i] = report.RequestInputs(r.p.inputs, func(v *ir.Var) string { return show(r.m[v], strs) })
	}
	cell := cells[0]
	for _, c := range cells {
		eAB, eBA := ab.rows[c[0]].exists, ba.rows[c[0]].exists
		if show(eAB, nil) != show(eBA, nil) || (c[1] != "" && show(f.cell(ab.rows, c[0], c[1]), nil) != show(f.cell(ba.rows, c[0], c[1]), nil)) {
			cell = c
			break
		}
	}
	d.table, d.col = cell[0], cell[1]
	final := func(rows map[string]*odRow) string {
		if show(rows[cell[0]].exists, nil) != "true" {
			return "no row"
		}
		return text(cell[0], cell[1], f.cell(rows, cell[0], cell[1]), strs)
	}
	d.ab, d.ba = final(ab.rows), final(ba.rows)
	for k, v := range f.cols.vars {
		if t, c, _ := strings.Cut(k, "."); t == cell[0] && !strings.HasPrefix(c, "$") && free[v] {
			d.row[c] = text(t, c, v, strs)
		}
	}
	d.at, d.other = f.writeRun(m, a.paths, mA, cell), f.writeRun(m, b.paths, mB, cell)
	return d
}

// writeRun is the write of cell on the path of paths that the request
// (renamed by m) takes from the initial row in model md, else on the first
// path that writes it.
func (f *orderDepFinder) writeRun(md *smt.Model, paths []*orderPath, m map[*ir.Var]ir.Expr, cell [2]string) ir.Info {
	for _, p := range paths {
		v, err := ir.Eval(ir.Substitute(p.pc, m), md.Value)
		if at := firstWrite(p, cell); err == nil && v.B && at.File != "" {
			return at
		}
	}
	for _, p := range paths {
		if at := firstWrite(p, cell); at.File != "" {
			return at
		}
	}
	return ir.Info{}
}

// funcName is an entry's function as the code names it (Store.Deposit).
func funcName(entry string) string {
	s := shortName(entry)
	if i := strings.Index(s, "("); i >= 0 {
		s = s[i:]
	} else if i := strings.LastIndexByte(s, '.'); i >= 0 {
		s = s[i+1:]
	}
	return strings.NewReplacer("(*", "", "(", "", ")", "").Replace(s)
}

// inputName is an input's name as a trace shows it.
func inputName(v *ir.Var) string {
	if i := strings.LastIndexByte(v.Name, '#'); i > 0 {
		return v.Name[:i]
	}
	return v.Name
}

func firstWrite(p *orderPath, cell [2]string) ir.Info {
	for _, w := range p.writes {
		if w.table == cell[0] && w.col == cell[1] {
			return w.at
		}
	}
	return ir.Info{}
}

// orderDepFindings returns the order-dependence findings of the jobs'
// entries, and a warning when the search was cut.
func orderDepFindings(jobs []job, cfg Config, schema *sqlir.Schema) ([]report.Finding, string, error) {
	s, err := newSolver(cfg)
	if err != nil {
		return nil, "", fmt.Errorf("order-dependence check: %w", err)
	}
	defer releaseSolver(cfg, s)
	deps, cut, err := orderDependences(jobs, cfg, schema, s)
	if err != nil {
		return nil, "", err
	}
	var out []report.Finding
	for _, d := range deps {
		out = append(out, report.Finding{Class: report.FindingOrderDependence, Entry: d.a, Position: d.at.Position(), Related: d.other.Position(), Message: d.message()})
	}
	warning := ""
	if cut != "" {
		warning = fmt.Sprintf("order-dependence search cut (%s): pairs of requests beyond it were not compared, and no finding there does not mean their orders commute", cut)
	}
	return out, warning, nil
}

// message names both requests with their inputs, the initial row, the
// cell and its final value in each order.
func (d *orderDep) message() string {
	inputs := func(in []string) string {
		if len(in) == 0 {
			return "no inputs"
		}
		return strings.Join(in, ", ")
	}
	var row []string
	for _, c := range slices.Sorted(maps.Keys(d.row)) {
		row = append(row, c+" = "+d.row[c])
	}
	a, b := funcName(d.a), funcName(d.b)
	who := fmt.Sprintf("%s (%s) and %s (%s)", a, inputs(d.shown[0]), b, inputs(d.shown[1]))
	if d.a == d.b {
		who = fmt.Sprintf("two requests of %s, A (%s) and B (%s),", a, inputs(d.shown[0]), inputs(d.shown[1]))
		a, b = "A", "B"
	}
	cell, what := d.table+"."+d.col, d.col+" "
	if d.col == "" {
		cell, what = "the "+d.table+" row", ""
	}
	end := func(v string) string {
		if v == "no row" {
			return "with no row"
		}
		return "with " + what + v
	}
	return fmt.Sprintf("%s do not commute on %s: from the %s row (%s), %s then %s ends %s, %s then %s %s; both succeed in either order "+
		"(%s's write at %s, %s's at %s). If the final state must not depend on which request commits first, make the writes commute "+
		"(relative updates of one kind), or order the requests (a state check in the WHERE, a version column)",
		who, cell, d.table, strings.Join(row, ", "), a, b, end(d.ab), b, a, end(d.ba), a, d.at.Position(), b, d.other.Position())
}
