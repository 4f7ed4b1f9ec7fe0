package report

import (
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/vcgen"
)

// BuildTrace reads the counterexample of pf off a model of its formula:
//
//   - Inputs: every variable of kind Input (the entry's parameters first,
//     then the others in program order) with the value the path first
//     reads (a slice element read afresh in a loop: the value read);
//   - Rows: the watched row as it was at entry, then every other row
//     symbol the path reads, as it was right after its last havoc (the
//     last time it was read); ghost columns are left out;
//   - Steps: one per edge with a source position that is not introduced by
//     the model, consecutive edges with the same position and text merged,
//     each with the new values of the non-ghost variables it assigned;
//   - Violation: the watched row's columns at the end of the path.
func BuildTrace(pf *vcgen.PathFormula, m vcgen.Model) (*Counterexample, error) {
	if m == nil {
		return nil, fmt.Errorf("report: trace: no model")
	}
	b := newTraceBuilder(pf, m)
	c := &Counterexample{Entry: pf.Prog.Name, Inputs: Inputs{}, Rows: []Row{}, Steps: []Step{}}
	var err error
	if c.Inputs, err = b.inputs(); err != nil {
		return nil, err
	}
	if c.Outside, err = b.outside(); err != nil {
		return nil, err
	}
	if c.Clock, err = b.clock(); err != nil {
		return nil, err
	}
	if c.HTTP, err = b.httpInputs(); err != nil {
		return nil, err
	}
	if c.Rows, err = b.rows(); err != nil {
		return nil, err
	}
	if c.Steps, err = b.steps(); err != nil {
		return nil, err
	}
	if c.Violation, err = b.violation(); err != nil {
		return nil, err
	}
	c.Notes = b.strs.notes()
	if b.times {
		c.Notes = append(c.Notes, timesNote)
	}
	c.Errors = slices.Sorted(maps.Keys(b.errs))
	return c, nil
}

// traceBuilder holds what the parts of a trace share: the path, the
// model, and the program's row symbols.
type traceBuilder struct {
	pf    *vcgen.PathFormula
	m     vcgen.Model
	first map[*ir.Var]*ir.Var // program variable → first version on the path
	// firstRead: program variable → the version the path first reads.
	firstRead map[*ir.Var]*ir.Var
	read      map[*ir.Var]bool // program variables the path reads
	// symbols are the row symbols in program order, cols their columns.
	symbols []string
	cols    map[string][]*ir.Var
	naming  rowNaming
	// tested: program variables a branch of the path tests (an internal
	// field is shown only then).
	tested map[*ir.Var]bool
	strs   *stringNames
	// errs are the display names of the Go errors the trace shows.
	errs map[string]bool
	// readLater: the SSA versions some step of the path reads;
	// havocked: those a call outside the analysed code gives.
	readLater, havocked map[*ir.Var]bool
	// times: a step binds a time.Time, printed as a timestamp.
	times bool
	// readSymbols: the rows of other tables SELECTs read (readrows.go).
	readSymbols []string
	// wraps: the wrap-around notes given so far (wrapnote.go).
	wraps map[string]bool
}

func newTraceBuilder(pf *vcgen.PathFormula, m vcgen.Model) *traceBuilder {
	b := &traceBuilder{pf: pf, m: m, first: pf.FirstVersions(), firstRead: pf.FirstReads(), read: pf.ReadVars(), cols: map[string][]*ir.Var{}, naming: conventionalNaming(), tested: testedVars(pf), strs: newStringNames(pf.Prog.Strings), errs: map[string]bool{}, wraps: map[string]bool{}, readLater: readVersions(pf), havocked: havocVersions(pf)}
	b.readSymbols = readRowSymbols(pf.Prog.Vars)
	for _, v := range pf.Prog.Vars {
		if v.Kind != ir.Column || v.Row == "" {
			continue
		}
		if _, ok := b.cols[v.Row]; !ok {
			b.symbols = append(b.symbols, v.Row)
		}
		b.cols[v.Row] = append(b.cols[v.Row], v)
	}
	return b
}

// value is v's value in the model, a string constant's code shown as the
// string.
func (b *traceBuilder) value(v *ir.Var) (string, error) {
	x, err := ir.Eval(v, b.m.Value)
	if err != nil {
		return "", fmt.Errorf("report: trace: %w", err)
	}
	if v.Str || v.Type == ir.Int && x.R != nil && x.R.IsInt() && ir.IsVariantCode(x.R.Num()) {
		// (A variant code is a string's, whatever the column's type
		// says: ir's string variants.)
		return b.strs.name(x.String()), nil
	}
	if s, ok := b.pf.Prog.Strings[x.String()]; ok && v.Type == ir.Int {
		return strconv.Quote(s), nil
	}
	if o := b.pf.Origin[v].Orig; o != nil && o.Kind == ir.Column && o.Time {
		// A column that holds Go times (no schema declares it): as the
		// timestamps the statements bind.
		if ts, ok := timestampOf(o, x.String()); ok {
			b.times = true
			return ts, nil
		}
	}
	return x.String(), nil
}

// initial is the value of program variable v at its first mention on the
// path; a variable not on the path may have any value: its zero.
func (b *traceBuilder) initial(v *ir.Var) (string, error) {
	if s, ok := b.first[v]; ok {
		return b.value(s)
	}
	x, _ := ir.Eval(ir.Zero(v.Type), nil)
	return x.String(), nil
}

// inputs lists the parameters, then the other inputs the path reads
// (fields and elements reached through parameters).
func (b *traceBuilder) inputs() (Inputs, error) {
	seen := map[*ir.Var]bool{}
	var vars []*ir.Var
	for _, v := range b.pf.Prog.Inputs {
		if !seen[v] {
			seen[v] = true
			vars = append(vars, v)
		}
	}
	for _, v := range b.pf.Prog.Vars {
		if _, onPath := b.first[v]; v.Kind == ir.Input && !seen[v] && onPath && b.read[v] {
			seen[v] = true
			vars = append(vars, v)
		}
	}
	out := Inputs{}
	lens := map[string]string{} // len(ids) → its value
	for _, v := range vars {
		if b.hidden(v) {
			continue
		}
		s, err := b.initial(v)
		if r, ok := b.firstRead[v]; ok {
			s, err = b.value(r)
		}
		if err != nil {
			return nil, err
		}
		name := displayName(v.Name)
		if strings.HasPrefix(name, "len(") {
			lens[name] = s
		}
		if each, err := b.elements(v, name, lens); err != nil {
			return nil, err
		} else if each != nil {
			out = append(out, each...)
			continue
		}
		out = append(out, Binding{Name: name, Value: s})
		if v.Err {
			b.errs[name] = true
		}
	}
	times, err := b.timeInputs()
	if err != nil {
		return nil, err
	}
	return append(out, times...), nil
}

// timeInputs lists the entry's time.Time inputs the path binds to a
// statement as they came in (ir.Var.TimeOf: newEnd), each with the
// timestamp the path binds. The model orders times as numbers and the
// input's own fields are internal: without it, the trace's inputs left
// the time out, and a replay passed another (now), which the run did not
// take (an independent tester's cx_time_input: NOT REPRODUCED).
func (b *traceBuilder) timeInputs() (Inputs, error) {
	out := Inputs{}
	named := map[string]bool{}
	for _, v := range b.pf.Prog.Vars {
		if v.TimeOf == nil {
			continue
		}
		x, onPath := b.firstRead[v]
		if !onPath {
			continue
		}
		s, err := b.value(x)
		if err != nil {
			return nil, err
		}
		ts, ok := timestampOf(v, s)
		name := strings.TrimSuffix(displayName(v.TimeOf.Name), ".wall")
		if !ok || named[name] {
			continue
		}
		named[name] = true
		b.times = true
		out = append(out, Binding{Name: name, Value: ts})
	}
	return out, nil
}

// elements returns, for an element of an input slice read afresh in each
// iteration of a loop over it (ids[i], items[i].Price), one binding per
// element (ids[0], ids[1], …) when the path reads as many values as the
// slice's length, in the order read: a loop over the slice. Otherwise
// nil: the element stands for every element.
func (b *traceBuilder) elements(v *ir.Var, name string, lens map[string]string) (Inputs, error) {
	i := strings.Index(name, "[i]")
	if i < 0 {
		return nil, nil
	}
	n, err := strconv.Atoi(lens["len("+name[:i]+")"])
	if err != nil || n < 2 {
		return nil, nil
	}
	var versions []*ir.Var
	seen := map[*ir.Var]bool{}
	for _, st := range b.pf.Steps {
		defs := map[*ir.Var]bool{}
		for _, d := range st.Defs {
			defs[d] = true
		}
		for _, x := range ir.Vars(st.Constraint) {
			if o, ok := b.pf.Origin[x]; ok && o.Orig == v && !defs[x] && !seen[x] {
				seen[x] = true
				versions = append(versions, x)
			}
		}
	}
	if len(versions) != n {
		return nil, nil
	}
	out := Inputs{}
	for k, x := range versions {
		s, err := b.value(x)
		if err != nil {
			return nil, err
		}
		out = append(out, Binding{Name: name[:i] + "[" + strconv.Itoa(k) + "]" + name[i+3:], Value: s})
	}
	return out, nil
}

// outsideValue reports whether v, havocked by a call, is a value a user
// reads in a trace: a named variable or field, or a call's result; not a
// ghost, a row, an input, an error flag or a compiler temporary.
func outsideValue(v *ir.Var) bool {
	if v.Kind == ir.Ghost || v.Kind == ir.Column || v.Kind == ir.Input {
		return false
	}
	name := displayName(v.Name)
	if name == "err" || strings.HasSuffix(name, ".err") || strings.Contains(name, "$") {
		return false
	}
	if i := strings.IndexByte(name, '('); i >= 0 && registerShaped(strings.Trim(name[i:], "()")) {
		return false // len(t62): the length of a compiler temporary
	}
	if v.Type == ir.Bool && strings.HasSuffix(name, ")") {
		return false // an error result (false: nil); the steps show it
	}
	return !isTemporary(v) || strings.Contains(name, "(")
}

// rows lists the watched row at entry, then each row the path reads as
// it was when last read.
func (b *traceBuilder) rows() ([]Row, error) {
	out := []Row{}
	for _, sym := range b.symbols {
		if !b.naming.isWatched(sym) {
			continue
		}
		if absent, err := b.absentOnEntry(sym); err != nil {
			return nil, err
		} else if absent {
			// (A referencing table that may be empty on entry: r is
			// not a row of the initial database.)
			continue
		}
		row, err := b.row(sym, b.initial)
		if err != nil {
			return nil, err
		}
		row.Symbol = sym
		out = append(out, *row)
	}
	for _, sym := range b.symbols {
		if b.naming.isWatched(sym) {
			continue
		}
		if absent, err := b.absentOnEntry(sym); err != nil {
			return nil, err
		} else if absent {
			// (A key slot with no row: not a row of the initial
			// database.)
			continue
		}
		last := b.lastRead(sym)
		if last < 0 {
			continue
		}
		after := b.pf.Steps[last].After
		row, err := b.row(sym, b.valueIn(after))
		if err != nil {
			return nil, err
		}
		row.Symbol = sym
		out = append(out, *row)
	}
	tracked := map[string]bool{}
	for _, r := range out {
		tracked[r.Table] = true
	}
	read, err := b.readRows(tracked)
	if err != nil {
		return nil, err
	}
	return append(out, read...), nil
}

// valueIn values a variable by its value in state (a step's After), ""
// where the state does not hold it (row leaves such a column out).
func (b *traceBuilder) valueIn(state map[*ir.Var]*ir.Var) func(*ir.Var) (string, error) {
	return func(v *ir.Var) (string, error) {
		s, ok := state[v]
		if !ok {
			return "", nil
		}
		return b.value(s)
	}
}

// lastRead is the index of the last step that havocs (reads) a column of
// sym, or -1.
func (b *traceBuilder) lastRead(sym string) int {
	last := -1
	for i, st := range b.pf.Steps {
		if _, ok := st.Edge.Stmt.(*ir.Havoc); !ok {
			continue
		}
		for _, d := range st.Defs {
			if o := b.pf.Origin[d].Orig; o.Kind == ir.Column && o.Row == sym {
				last = i
			}
		}
	}
	return last
}

// row is sym's non-ghost columns, each valued by val.
func (b *traceBuilder) row(sym string, val func(*ir.Var) (string, error)) (*Row, error) {
	row := &Row{Values: map[string]string{}}
	var nulls []string
	for _, v := range b.cols[sym] {
		row.Table = v.Table
		if b.naming.isGhostColumn(v) {
			col, err := nullColumn(v, val)
			if err != nil {
				return nil, err
			}
			if col != "" {
				nulls = append(nulls, col)
			}
			continue
		}
		s, err := val(v)
		if err != nil {
			return nil, err
		}
		if s != "" {
			row.Values[v.Col] = s
		}
	}
	for _, c := range nulls {
		row.Values[c] = "NULL"
	}
	return row, nil
}

// steps lists the source steps of the path, consecutive edges of one
// source line merged, each with the values it assigns.
func (b *traceBuilder) steps() ([]Step, error) {
	out := []Step{}
	db := newDBSteps()
	for i, st := range b.pf.Steps {
		info := st.Edge.Stmt.Source()
		if info.File == "" || info.Kind == ir.KindModel || info.Kind == ir.KindFact {
			continue
		}
		pos := info.Position()
		if n := len(out); n == 0 || out[n-1].Position != pos || out[n-1].Text != info.Text || out[n-1].Request != info.Request {
			out = append(out, Step{Position: pos, Kind: string(info.Kind), Text: info.Text, Values: map[string]string{}, Request: info.Request, Generated: info.Generated})
			if err := b.dbStep(i, &out[len(out)-1], db); err != nil {
				return nil, err
			}
		} else if info.Kind == ir.KindBranch && out[n-1].Kind == string(ir.KindAssign) {
			// A line that loads or converts values and then branches
			// (if c.Uses >= c.MaxUses {) is a branch.
			out[n-1].Kind = string(ir.KindBranch)
		}
		switch info.Outcome {
		case ir.OutcomeTrue:
			out[len(out)-1].Outcome = "true"
		case ir.OutcomeFalse:
			out[len(out)-1].Outcome = "false"
		}
		if err := b.stepValues(i, &out[len(out)-1]); err != nil {
			return nil, err
		}
		if n := b.wrapNote(i); n != "" {
			addNote(&out[len(out)-1], n)
		}
	}
	labelSteps(out)
	out = foldUndecided(out)
	b.nameResults(out)
	return out, nil
}

// addNote adds note to the step's note.
func addNote(s *Step, note string) {
	if s.Note == "" {
		s.Note = note
		return
	}
	s.Note += "; " + note
}

// stepValues records in step's values the new values step i assigns
// that a user wrote: no ghosts, temporaries or noise; and whether a
// failed query failed for want of a row (NoRows).
func (b *traceBuilder) stepValues(i int, step *Step) error {
	st := b.pf.Steps[i]
	values := step.Values
	_, isHavoc := st.Edge.Stmt.(*ir.Havoc)
	for _, d := range st.Defs {
		o := b.pf.Origin[d].Orig
		if o.SQLErr {
			// Before the filters below: an error the program ignores
			// (`_`) is never read, yet its operation failed.
			s, err := b.value(d)
			if err != nil {
				return err
			}
			step.Fails = step.Fails || s == "true"
		}
		if isNoRowsVar(o) {
			s, err := b.value(d)
			if err != nil {
				return err
			}
			step.NoRows = s == "true"
			continue
		}
		if o.Kind == ir.Ghost || b.naming.isGhostColumn(o) || isTemporary(o) && !o.Conv || b.hidden(o) {
			continue
		}
		if o.Kind == ir.Column && !isHavoc && !b.showsWrittenRow(i, o) {
			// A read row's columns are shown where it is read, a write's
			// where it changed the row (changedrows.go).
			continue
		}
		outside := isHavoc || st.Edge.Stmt.Source().Kind == ir.KindCall && !isResultVar(o) || b.copiesHavoc(i, o)
		if outside && o.Kind != ir.Column && (!b.read[o] || !b.readLater[d]) {
			// Memory an unseen callee may change, never read again (a
			// gin handler's c.JSON havocs the ~150 fields of c.Request
			// the path never reads: adv9 p04).
			continue
		}
		s, err := b.value(d)
		if err != nil {
			return err
		}
		if o.Kind == ir.Column && b.rollback(st) && b.unchanged(i, o, s) {
			// A ROLLBACK with nothing to undo (a deferred Rollback after
			// the COMMIT) restores nothing: listing the row would say it
			// did.
			continue
		}
		if o.ConvOf != nil {
			if s, err = b.converted(i, o, s); err != nil {
				return err
			}
		}
		if o.Kind == ir.Column {
			if null, err := b.nullAfter(i, o); err != nil {
				return err
			} else if null {
				s = "NULL"
			}
		}
		if o.ConvAny {
			s += " (any value: the conversion is not modelled)"
		}
		name := shownName(o, values, s)
		values[name] = s
		if o.Err {
			b.errs[name] = true
		}
	}
	return nil
}

// nullAfter reports whether column o of its row holds NULL after step
// i: the row's NULL-ness ghost of the column says so (the column's own
// variable then holds an arbitrary value, which printed would be a value
// the row does not have).
func (b *traceBuilder) nullAfter(i int, o *ir.Var) (bool, error) {
	after := b.pf.Steps[i].After
	for _, v := range b.cols[o.Row] {
		if !strings.EqualFold(v.Col, nullFlagPrefix+o.Col) {
			continue
		}
		g, ok := after[v]
		if !ok {
			return false, nil
		}
		s, err := b.value(g)
		return s == "true", err
	}
	return false, nil
}

// rollback reports whether st is part of a ROLLBACK.
func (b *traceBuilder) rollback(st vcgen.Step) bool {
	return strings.EqualFold(strings.TrimSpace(st.Edge.Stmt.Source().Text), "ROLLBACK")
}

// unchanged reports whether program variable o holds s before step i
// already.
func (b *traceBuilder) unchanged(i int, o *ir.Var, s string) bool {
	prev, ok := b.pf.Before(i)[o]
	if !ok {
		return false
	}
	p, err := b.value(prev)
	return err == nil && p == s
}

// converted is the value s of conversion o at step i, followed by the
// value converted where the conversion changes it: "-2147483648
// (wrapped from 2147483648)", "2 (truncated from 5/2)".
func (b *traceBuilder) converted(i int, o *ir.Var, s string) (string, error) {
	from, ok := b.pf.Before(i)[o.ConvOf]
	if !ok || o.Str || o.ConvOf.Str {
		return s, nil
	}
	fs, err := b.value(from)
	if err != nil {
		return "", err
	}
	x, okX := new(big.Rat).SetString(s)
	y, okY := new(big.Rat).SetString(fs)
	if !okX || !okY || x.Cmp(y) == 0 {
		return s, nil
	}
	how := "wrapped"
	if o.ConvOf.Type == ir.Real && o.Type == ir.Int {
		how = "truncated"
	} else if o.ConvOf.Type == ir.Int && o.Type == ir.Real {
		how = "rounded"
	}
	return s + " (" + how + " from " + fs + ")", nil
}

// violation is the watched row at the end of the path.
func (b *traceBuilder) violation() (*Row, error) {
	end := b.pf.Before(len(b.pf.Steps))
	for _, sym := range b.symbols {
		if b.naming.isWatched(sym) {
			return b.row(sym, func(v *ir.Var) (string, error) {
				if cur, ok := end[v]; ok {
					return b.value(cur)
				}
				return b.initial(v)
			})
		}
	}
	return &Row{Values: map[string]string{}}, nil
}

// isNoRowsVar reports whether o is the "no row" outcome of a query
// (ir.Select.NoRow, a Local the frontend names noRows).
func isNoRowsVar(o *ir.Var) bool {
	n := displayName(o.Name)
	// (In a product of two requests it is A.noRows, B.noRows.)
	return o.Kind == ir.Local && (n == "noRows" || strings.HasSuffix(n, ".noRows"))
}

// readVersions are the SSA versions the path reads, directly or through
// copies: those of an assumed condition, and of an assignment's
// right-hand side where its variable is read later or is a row's column
// or a model variable. A call's result copied into a variable never read
// again (the fields a later call outside the analysed code may change,
// merged back) is not read.
func readVersions(pf *vcgen.PathFormula) map[*ir.Var]bool {
	live := map[*ir.Var]bool{}
	for i := len(pf.Steps) - 1; i >= 0; i-- {
		st := pf.Steps[i]
		switch s := st.Edge.Stmt.(type) {
		case *ir.Assume:
			for _, x := range ir.Vars(st.Constraint) {
				live[x] = true
			}
		case *ir.Assign:
			before := pf.Before(i)
			for k, l := range s.Lhs {
				if k >= len(st.Defs) || k >= len(s.Rhs) || !live[st.Defs[k]] && l.Kind != ir.Column && l.Kind != ir.Ghost {
					continue
				}
				for _, x := range ir.Vars(s.Rhs[k]) {
					if v, ok := before[x]; ok {
						live[v] = true
					} else if v, ok := pf.Init[x]; ok {
						live[v] = true
					}
				}
			}
		}
	}
	return live
}

// isResultVar reports whether o is an inlined function's result
// (GetAvailable.ret0): shown where the call returns it.
func isResultVar(o *ir.Var) bool { return resultName.MatchString(displayName(o.Name)) }

// copiesHavoc reports whether step i assigns o the value a call outside
// the analysed code left in a fresh copy of o (A.b.Seats := A.b.Seats#2,
// memory the call may change merged back): such a value is shown only
// where the path reads it.
func (b *traceBuilder) copiesHavoc(i int, o *ir.Var) bool {
	a, ok := b.pf.Steps[i].Edge.Stmt.(*ir.Assign)
	if !ok {
		return false
	}
	before := b.pf.Before(i)
	for k, l := range a.Lhs {
		if l != o || k >= len(a.Rhs) {
			continue
		}
		x, ok := a.Rhs[k].(*ir.Var)
		if !ok || displayName(x.Name) != displayName(o.Name) {
			return false // (a copy into another variable: A.arg1 := A.req.Amount)
		}
		v, ok := before[x]
		return ok && b.havocked[v]
	}
	return false
}

// havocVersions are the SSA versions a Havoc gives: a call outside the
// analysed code, memory it may change. The model's havoc of the entry's
// arguments is not one: a parameter a closure captures is copied into a
// heap cell of its name at entry (an SSA Alloc, then a Store of the
// argument), and that copy, taken for memory a call had changed, was left
// out, so the entry's step showed the cell's zero (⇒ amount = 0 where the
// inputs said amount = 1: adv17 captured_param_zero).
func havocVersions(pf *vcgen.PathFormula) map[*ir.Var]bool {
	out := map[*ir.Var]bool{}
	for _, st := range pf.Steps {
		h, ok := st.Edge.Stmt.(*ir.Havoc)
		if !ok {
			continue
		}
		for _, d := range st.Defs {
			if h.Info.Kind == ir.KindModel && pf.Origin[d].Orig.Kind == ir.Input {
				continue
			}
			out[d] = true
		}
	}
	return out
}

// absentOnEntry reports whether sym is a reference's key slot, or the
// watched row of a reference whose referencing table may be empty, that
// holds no row on entry (its existence flag's first value is false).
func (b *traceBuilder) absentOnEntry(sym string) (bool, error) {
	if sym != b.naming.slot && !b.naming.isWatched(sym) {
		return false, nil
	}
	for _, v := range b.pf.Prog.Vars {
		if v.Row != sym || v.Col != "$exists" {
			continue
		}
		s, ok := b.first[v]
		if !ok {
			return false, nil
		}
		x, err := b.value(s)
		return x == "false", err
	}
	return false, nil
}
