package frontend

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/frontend/dblib"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
)

// value is the abstract value of an SSA value during translation.
// Exactly one of its fields describes it; the zero value is "opaque": a
// value the model does not track (a context, a logger, a slice element).
type value struct {
	// scalar: an int, bool, float or string (as its code), or an error (as
	// "is non-nil").
	expr ir.Expr
	// goConst: expr is a Go constant of the program (a literal, perhaps
	// passed to a parameter), not a value the model approximates.
	goConst bool
	// str is the text of a constant string (strKnown).
	str      string
	strKnown bool
	// alts: the string is one of these constants; expr (its code) says which.
	alts []string
	// zeroAlt: the "" among alts is the zero value of a field that holds
	// constants (constfields.go), not a text the program writes.
	zeroAlt bool

	obj *object // a database object, memory cell pointer, closure, …

	fields []value // a struct value
	tuple  []value // a multi-value result

	// nonNil, when set, says whether an interface value (recover's
	// result) or a pointer handed in from outside (an entry argument) is
	// non-nil: every comparison with nil reads it, and a SQL argument
	// bound to the pointer is NULL where it is nil.
	nonNil ir.Expr

	// dyn is the dynamic type of an interface value made from a known
	// concrete value (nil: unknown).
	dyn types.Type
	// dyns, where dyn is unknown, are the dynamic types an interface
	// value may have: a φ of values each made from a known concrete value
	// (a decorator given one of two implementations); nil: any.
	dyns []types.Type
	// dynVar, with dyns, holds the number (typeID) of the one of dyns the
	// value has on the path (nil: not known).
	dynVar *ir.Var

	// err: which own sentinel errors an error value may be or wrap (nil:
	// unknown; see erridentity.go).
	err *errTag

	// src is the cell an interface value was loaded from: calls on values
	// loaded from one cell dispatch to one implementation.
	src *cell

	// boxed is the dynamic type of a scalar boxed in an interface value
	// (an element of []any): a store into an interface cell keeps it in
	// the cell's model variable (see boxes.go).
	boxed types.Type
}

// objKind says what an object is.
type objKind uint8

const (
	// The database handles of package dblib, with the same values.
	objDB     = objKind(dblib.DB)     // *sql.DB or *sql.Conn: runs auto-committed statements
	objTx     = objKind(dblib.Tx)     // *sql.Tx
	objStmt   = objKind(dblib.Stmt)   // *sql.Stmt
	objRow    = objKind(dblib.Row)    // *sql.Row
	objRows   = objKind(dblib.Rows)   // *sql.Rows
	objResult = objKind(dblib.Result) // sql.Result

	objPtr     objKind = iota + 10 // pointer to a memory cell
	objClosure                     // a function value with bound free variables
	objFunc                        // a function value without bindings
	objNil                         // the nil pointer
	objSlice                       // a slice, array or map (elements arbitrary)
)

type object struct {
	kind objKind

	// objTx: which transaction; objDB/objStmt/objRow/objRows: the
	// transaction they run in (0: none).
	tx ir.Tx

	// objStmt/objRow/objRows: the statement and its arguments.
	sql  sqlir.Statement
	text string
	args []ir.Expr
	// refuses64: the indexes of args the driver refuses at 2^63 and
	// above (scandest.go).
	refuses64 []int
	// intParams: how its integer arguments out of their PostgreSQL
	// parameter types' ranges fail (intparams.go).
	intParams ir.IntParamCheck
	// rowsSite: the query of objRows, marked on the variables its
	// result set is read through (rereadrows.go).
	rowsSite *ir.RowsSite
	// names are the :name parameters of a sqlx NamedStmt, in order.
	names []string

	// objRow/objRows of a write with RETURNING: the write's error and the
	// returned row's values (single-row reads bind them); noRow, set by
	// the write (ir.Exec.NoRow), says it returned no row (nil: it always
	// returns one).
	execErr  *ir.Var
	returned []*ir.Var
	noRow    *ir.Var

	// objResult: RowsAffected.
	affected *ir.Var

	// objPtr: the cell.
	cell *cell

	// objClosure/objFunc.
	fn       *ssa.Function
	bindings []value

	// objSlice: its length; arbitrary says its elements are truly
	// arbitrary (an input, a result of code not analysed), not contents the
	// program built that the model does not track.
	length    ir.Expr
	arbitrary bool
	// objSlice with a cell: the cell's elements are its backing array, its
	// capacity their number, unless capUnknown (an append that grew the
	// array: Go picks the new capacity, at least the length); forks are
	// the slices appended to this one so far (see boxes.go).
	capUnknown bool
	forks      []*object
	// approxElems, when set, says that the elements are approximations
	// (sqlx.In's expanded arguments): values bound from them to
	// placeholders are marked (ir.Var.Approx) with this reason.
	approxElems string
	// entries are the values of a map literal by constant key (see
	// mapLiteral); nil for a map whose contents are not tracked.
	entries map[string]value

	// alts: the object is one of these, alts[i] when altConds[i] holds
	// (statements whose SQL text is one of several constants).
	alts     []*object
	altConds []ir.Expr

	// coll, on a slice a loop fills by appends, is the ghost state of
	// the one element the model follows (collected.go).
	coll *collection
}

// cell is a memory location: a scalar variable, a struct's fields, or an
// object reference.
type cell struct {
	typ types.Type
	v   *ir.Var // scalar content
	// errVars: the identity variables of a plain error variable's
	// content (errpaths.go); nil for others.
	errVars *errTag
	fields  []*cell // struct content
	ref     value   // object content (flow-insensitive; conflicting stores make it opaque)
	refSet  bool
	// refBlock is the block (of its inlined frame) of the last store
	// into ref.
	refBlock blockStamp
	// loads: where ref was read (see looporder.go).
	loads []site
	name  string
	input bool // reached through a parameter: initial content is an input
	// untracked: memory the model does not track (an element, a field
	// behind an unknown pointer); a store into it may write escaped cells.
	untracked bool
	// internal: an unexported field of a type declared outside the
	// module, or part of one (see ir.Var.Internal).
	internal bool
	// named: the cell is a Go variable the source names, or part of one
	// (see ir.Var.Named).
	named bool
	// approx: the content stands for an untracked element (see ir.Var.Approx).
	approx string
	// texts: a string field's constants (constfields.go); nil for others.
	texts []string
	// filled: an input's map field the program fills (filledmaps.go):
	// why its elements are approximations; "" for others.
	filled string
	// impl: the dynamic type of the interface content, chosen by the
	// first method call on it the model dispatches (see dispatch); reset
	// by a store that changes the content.
	impl *implChoice
	// dynType: the dynamic type of the interface content, chosen by the
	// first type assertion on it (see dyntypes.go); reset with impl.
	dynType *typeChoice
	// box: the model variable holding the scalar an interface cell holds
	// (see boxes.go), assigned at every store; direct is the value of the
	// only store so far while at is where it ran (uses there read it
	// itself); alloc is where the cell was allocated (zero: not known).
	box    *ir.Var
	direct value
	at     blockStamp
	alloc  blockStamp
}

// blockStamp is a basic block of one inlined frame.
type blockStamp struct {
	f *frame
	b *ssa.BasicBlock
}

// implChoice is an interface value's dynamic type among implementations:
// the variable v takes the index (in translator.typeIDs) of one of types.
type implChoice struct {
	v     *ir.Var
	types []int
	m     *types.Func // the method called
}
