package dbmodel

import (
	"fmt"
	"maps"

	"github.com/dbverify/dbverify/instrument"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/spec"
	"github.com/dbverify/dbverify/sqlir"
)

// Options configure the row model.
type Options struct {
	// Schema, if not nil, gives keys and column types.
	Schema *sqlir.Schema
	// NoInferKey disables treating a column named "id" as the key when the
	// schema declares none.
	NoInferKey bool
	// Facts hold on entry: a spec.TableFact of every row of its table in
	// the initial database (--assume, the schema's enforced CHECKs), a
	// spec.ParamFact of the entry's parameters.
	Facts []spec.Fact
	// Dialect is the SQL dialect of the program's statements ("mysql",
	// "postgres" or "sqlite"; "" is MySQL): it decides division and the
	// conversion of strings to numbers.
	Dialect string
	// Concurrency, if not nil, models concurrent requests (locking reads,
	// interference; see Concurrency).
	Concurrency *Concurrency
}

// Result is a lowered program and what the model assumed to build it.
type Result struct {
	Program *ir.Program
	// Keys lists the keys of the watched table used for row aliasing,
	// each a list of columns (nil: none known, any two symbols may be
	// different rows). Two symbols that agree on every column of one key
	// are the same row (for a key with a column that may be NULL, only
	// when both are known not to be NULL there).
	Keys [][]string
	// Assumptions says, in words, what the model assumed beyond the code
	// (e.g. an inferred key); reports show them.
	Assumptions []string
	// Writes is the number of write statements on the watched tables.
	Writes int
	// OnEntry is what the model assumes of the initial state: ψ and the
	// facts about the watched row, and the facts about the parameters. If
	// it is unsatisfiable, every verdict is vacuous.
	OnEntry ir.Expr
	// Watched lists the watched rows (the property's rows, checked at
	// every commit point), in table order: a counterexample shows them
	// as they were on entry and as they are at the violation.
	Watched []WatchedRow
	// Ghosts are the model's bookkeeping variables of the row symbols
	// (existence and liveness flags): not values a user wrote, so a
	// counterexample leaves them out.
	Ghosts []*ir.Var
}

// A WatchedRow is a watched row symbol of the lowered program.
type WatchedRow struct {
	// Symbol is the row symbol (ir.Var.Row of its columns); Table is its
	// table as the property spells it.
	Symbol, Table string
	// Cols are its column variables, in column order; Exists is its
	// existence flag.
	Cols   []*ir.Var
	Exists *ir.Var
}

type lowerer struct {
	src, p *ir.Program
	// ins is the property's instrumentation.
	ins instrument.Instrumentation
	// tables are the models of the tables the property watches, by
	// lower-case name; w is the one whose watched row transactions track
	// (tx.go).
	tables map[string]*tableModel
	w      *tableModel
	selSym map[*ir.Select]*symbol
	// srcSyms counts the source rows of INSERT … SELECT (insertselect.go),
	// named after the SELECT symbols.
	srcSyms int
	txs     map[ir.Tx]*txState
	// mayOpen[l]: the transactions that may be open at location l of the
	// source program; curOpen: those where the edge being lowered starts.
	mayOpen []map[ir.Tx]bool
	curOpen map[ir.Tx]bool
	// curFrom: where the edge being lowered starts; later[l]: the
	// handles of the operations some path from l reaches (aborttiming.go;
	// nil until used).
	curFrom ir.Loc
	later   []map[ir.Tx]uint8
	// curHandle is the handle of the statement being lowered (0: none or
	// the pool).
	curHandle ir.Tx
	// writtenBefore: for each table the program writes that no model
	// watches, the locations its writes reach (ownwrites.go).
	writtenBefore map[string]*tableWrites
	res           *Result
	fresh         []*ir.Var // havoc before the statement being emitted
	opt           Options
	// fracs holds the exact form of MySQL quotients (arith.go); at is the
	// statement being lowered, for notes.
	fracs map[ir.Expr]fraction
	at    ir.Info
	// keyLocking: the row locks by key of a concurrent product
	// (keylocks.go; nil until used).
	keyLocking *keyLocking
	// inserts: the INSERT sites with a unique key of a concurrent
	// product (uniqueinserts.go; nil until used).
	inserts *uniqueInserts
	// read: the variables some statement of src reads (readVars).
	read map[*ir.Var]bool
	// selected: the tables (lower case) some SELECT of src reads.
	selected map[string]bool
	// keysUnstable: the tables whose rows a statement may delete or
	// re-key (heldrows.go; nil until used).
	keysUnstable map[string]bool
	// memo: the read sites of tables the program does not write, in
	// program order (memoOrder), and those tables (readmemo.go).
	memo       map[*ir.Select]*readSite
	memoOrder  []*ir.Select
	memoStable map[string]bool
	// readRows counts the rows of other tables SELECTs read (their row
	// symbols q1, q2, …: nameReadRow).
	readRows int
	// dlEnabled: whether deadlock victims are explored (deadlock.go; nil
	// until decided); txReq: the request of each handle.
	dlEnabled *bool
	txReq     map[ir.Tx]string
	// slot0: a key slot's watched row as it was on entry (reference.go;
	// nil without a slot).
	slot0 *symbol
	// split: the key slot's table whose row has its own lock and
	// snapshot under concurrent requests (refconcurrent.go; nil otherwise).
	split *tableModel
	// intTexts: the Go strings the statement being lowered binds next to
	// an integer (strint.go).
	intTexts intTexts
	// readOnly: the handles of read-only transactions (readonly.go).
	readOnly map[ir.Tx]bool
	// stmtSQL: the statement being lowered; subqueries: the values of
	// its scalar subqueries, shared by their occurrences (subqueries.go).
	stmtSQL      sqlir.Statement
	subqueries   map[subqueryKey]*sharedSubquery
	subqueryVars []*ir.Var
}

// Lower returns p with every database operation replaced by its meaning in
// the row model of property prop.
func Lower(p *ir.Program, prop spec.Property, opt Options) (*Result, error) {
	ins, err := instrument.For(prop)
	if err != nil {
		return nil, err
	}
	m := &lowerer{
		src: p, ins: ins, tables: map[string]*tableModel{}, selSym: map[*ir.Select]*symbol{},
		txs: map[ir.Tx]*txState{}, res: &Result{}, opt: opt, fracs: map[ir.Expr]fraction{},
		read: readVars(p), selected: selectedTables(p), readOnly: readOnlyTxs(p),
	}
	if m.opt.Dialect == "" {
		m.opt.Dialect = "mysql"
	}
	m.p = p.Shell()
	// The SQL's string literals join the program's (for traces): a copy,
	// the source program's map is shared by the other lowerings.
	m.p.Strings = maps.Clone(p.Strings)
	if m.p.Strings == nil {
		m.p.Strings = map[string]string{}
	}
	if err := m.makeTables(); err != nil {
		return nil, err
	}
	m.unmodelledSchema()
	m.slotLimits()
	m.makeSymbols()
	m.makeTxs()
	m.makeSavepoints()
	m.computeMayOpen()
	entry := m.p.NewLoc()
	m.prologue(entry, p.Entry)
	m.p.Entry = entry
	for _, e := range p.Edges {
		if err := m.lowerEdge(e); err != nil {
			return nil, err
		}
	}
	if err := ir.Sanity(m.p); err != nil {
		return nil, fmt.Errorf("row model of %s: %w", p.Name, err)
	}
	m.res.Program = m.p
	m.res.Keys = m.w.keys
	m.res.Watched, m.res.Ghosts = m.watchedRows()
	return m.res, nil
}

func (m *lowerer) lowerEdge(e *ir.Edge) error {
	m.intTexts = intTexts{}
	defer m.flushIntTexts()
	m.curOpen = m.mayOpen[e.From]
	m.curFrom = e.From
	m.curHandle = 0
	switch s := e.Stmt.(type) {
	case *ir.Exec:
		m.curHandle = s.Tx
	case *ir.Select:
		m.curHandle = s.Tx
	}
	if s, ok := e.Stmt.(*ir.Exec); ok {
		if tc, ok := s.SQL.(*sqlir.TxControl); ok && sqlir.IsSavepoint(tc) {
			m.at = s.Info
			return m.lowerSavepoint(e, s, tc)
		}
	}
	switch e.Stmt.(type) {
	case *ir.Exec, *ir.Select, *ir.TxOp:
		e = m.lockByKey(m.deadlockGate(m.interfere(m.takeSnapshot(m.takeConsistent(e)))))
	}
	switch s := e.Stmt.(type) {
	case *ir.Assign, *ir.Assume, *ir.Havoc:
		m.p.AddEdge(e.From, e.To, s)
		return nil
	case *ir.Exec:
		m.at = s.Info
		e, end := m.beginStatement(e, s.SQL)
		defer end()
		return m.lowerExec(e, s)
	case *ir.Select:
		m.at = s.Info
		e, end := m.beginStatement(e, s.SQL)
		defer end()
		m.lowerSelect(e, s)
		return nil
	case *ir.TxOp:
		m.lowerTx(e, s)
		return nil
	}
	return fmt.Errorf("row model: unexpected statement %T", e.Stmt)
}

// errFork havocs the call's error flag and returns an emitter on the
// success path; the failure path jumps to `to`. noRow, for a read, gives
// at the failure path what holds when the read failed without a server
// error (no row; nil for a statement whose failure is the server's).
func (m *lowerer) errFork(e *ir.Edge, info ir.Info, errVar *ir.Var, noRow func(*emitter) ir.Expr, noRowVar *ir.Var, extra ...*ir.Var) *emitter {
	em := m.emitter(e.From, info)
	if errVar == nil {
		errVar = m.p.NewVar("$err", ir.Bool, ir.Ghost)
	}
	// An integer argument out of the range of its parameter's type
	// (intparams.go): pgx refuses it in the client, the statement fails
	// without reaching the server (an open transaction goes on); lib/pq's
	// text fails on the server, one of the failures of the error path
	// below.
	outOfRange := m.intParamsOutOfRange(e.Stmt)
	if outOfRange != ir.False && intParamRefusal(e.Stmt) == ir.IntParamsDriverRefuses {
		refused := em.fork(outOfRange)
		refused.assign([]*ir.Var{errVar}, []ir.Expr{ir.True})
		if noRowVar != nil {
			refused.assign([]*ir.Var{noRowVar}, []ir.Expr{ir.False})
		}
		refused.jump(e.To)
	}
	em.havoc(errVar)
	fail := em.fork(errVar)
	m.failed(fail, m.curHandle, noRow, noRowVar)
	fail.jump(e.To)
	// A statement on a finished or aborted transaction fails.
	em.assume(m.usable(m.curHandle))
	// So does one whose arguments the driver refuses (scandest.go), or
	// out of their parameters' ranges.
	em.assume(argsAccepted(e.Stmt))
	em.assume(ir.Not(outOfRange))
	// So does one whose text the engine cannot read as an integer.
	m.intTextsAt(em)
	if noRowVar != nil {
		em.assign([]*ir.Var{noRowVar}, []ir.Expr{ir.False})
	}
	// A failed call leaves its destinations (Scan targets, rows
	// affected) unchanged.
	em.havoc(extra...)
	return em
}

func (m *lowerer) takeFresh() []*ir.Var {
	f := m.fresh
	m.fresh = nil
	return f
}

// freshVar returns a new variable with an arbitrary value, havocked before
// the statement being lowered.
func (m *lowerer) freshVar(name string, s ir.Sort) *ir.Var {
	v := m.p.NewVar(name, s, ir.Ghost)
	m.fresh = append(m.fresh, v)
	return v
}

func nonNil(vs []*ir.Var) []*ir.Var {
	var out []*ir.Var
	for _, v := range vs {
		if v != nil {
			out = append(out, v)
		}
	}
	return out
}
