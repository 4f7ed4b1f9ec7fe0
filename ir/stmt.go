package ir

import (
	"fmt"
	"math/big"

	"github.com/dbverify/dbverify/sqlir"
)

// StepKind classifies a statement for traces.
type StepKind string

const (
	KindSQL    StepKind = "sql"
	KindBranch StepKind = "branch"
	KindAssign StepKind = "assign"
	KindCall   StepKind = "call"
	KindReturn StepKind = "return"
	KindModel  StepKind = "model" // introduced by the row model, not by the program
	// KindFact marks an Assume of a fact of Go's or the engine's
	// semantics that holds on every run (a type's or a column's range):
	// it prunes impossible runs, and refinement never takes predicates
	// from it (a range bound on every write of a loop would multiply the
	// predicates without deciding anything).
	KindFact StepKind = "fact"
)

// Info says where a statement comes from: a source position, a step kind
// and a short text (the Go statement or the SQL). In a product of
// concurrent requests (package interleave), Request names the request
// ("A", "B") whose statement it is; "" in a program of one request.
type Info struct {
	File    string
	Line    int
	Kind    StepKind
	Text    string
	Request string
	// Generated: the position is in a file of generated code (a header
	// "// Code generated … DO NOT EDIT." before its package clause, as
	// sqlc writes): a trace folds its steps into the call that runs them.
	Generated bool
	// Outcome is, on an Assume that takes one way of a source branch
	// (an if, a loop's condition, a switch case), which way: the
	// condition as written holds (OutcomeTrue: into the body) or not
	// (OutcomeFalse); OutcomeNone on other edges and on the inner tests
	// of a condition joined by && or ||.
	Outcome Outcome
	// DB, on the statements of a database call (the Exec, Select or
	// TxOp the frontend emits, and every statement the row model lowers
	// it to), says what reached the database: for traces, which print
	// the SQL with its bound values and the handle it ran on. nil on
	// other statements.
	DB *DBSite
}

// A DBSite is a database call as the trace reports it: the values bound
// to its placeholders (by index; a nil entry is not known) and the
// handle it runs on (0: the pool, outside any transaction).
type DBSite struct {
	Args []Expr
	Tx   Tx
	// Op is "begin", "commit" or "rollback" for a TxOp, "" for a
	// statement.
	Op string
	// Writes lists the tables a writing statement writes (lower case).
	Writes []string
}

// WithDB returns s with the DBSite of its database call set on its Info
// (s itself for a statement that is not one).
func WithDB(s Stmt) Stmt {
	switch s := s.(type) {
	case *Exec:
		s.Info.DB = &DBSite{Args: s.Args, Tx: s.Tx}
		if s.SQL != nil && sqlir.IsWrite(s.SQL) {
			s.Info.DB.Writes = s.SQL.Tables()
		}
	case *Select:
		s.Info.DB = &DBSite{Args: s.Args, Tx: s.Tx}
	case *TxOp:
		s.Info.DB = &DBSite{Tx: s.Tx, Op: s.Op.String()}
	}
	return s
}

// Outcome is the value of a source branch's condition an edge takes.
type Outcome uint8

// Outcomes.
const (
	OutcomeNone Outcome = iota
	OutcomeTrue
	OutcomeFalse
)

// Position returns "file:line", or "" when unknown.
func (i Info) Position() string {
	if i.File == "" {
		return ""
	}
	return fmt.Sprintf("%s:%d", i.File, i.Line)
}

// Stmt is the statement on an edge.
type Stmt interface {
	Source() Info
	String() string
	stmtNode()
}

// Assign is the parallel assignment Lhs[i] := Rhs[i].
type Assign struct {
	Lhs []*Var
	Rhs []Expr
	Info
}

// Assume blocks the edge unless Cond holds.
type Assume struct {
	Cond Expr
	Info
}

// Havoc gives Vars arbitrary values.
type Havoc struct {
	Vars []*Var
	Info
}

// Tx identifies a transaction object: 0 is "no transaction" (auto-commit).
type Tx int

// Exec runs a writing statement (UPDATE, INSERT, DELETE).
// Err is the bool "the call returned a non-nil error" (nil: not observed).
// Affected, when not nil, receives Result.RowsAffected.
type Exec struct {
	SQL      sqlir.Statement
	Args     []Expr // values of the placeholders, by index; nil entries are unknown
	Tx       Tx
	Err      *Var
	Affected *Var
	// Targets receive RETURNING values (one per returned column; nil: unused).
	Targets []*Var
	// NoRow, if not nil, is set to whether the statement returned no row
	// (a RETURNING write read by a single-row Scan, which then fails with
	// ErrNoRows).
	NoRow *Var
	// Refuses64 lists the indexes of Args bound from Go unsigned integers
	// that the driver refuses at 2^63 and above (see Select.Refuses64).
	Refuses64 []int
	// IntParams says how an integer argument out of the range of the
	// parameter type PostgreSQL infers fails (see IntParamCheck).
	IntParams IntParamCheck
	Info
}

// Select reads one row of a SELECT into Targets (one per result column;
// nil: not scanned). Found is set to whether a row was returned; Err to
// whether the call failed (including "no rows").
type Select struct {
	SQL     *sqlir.Select
	Args    []Expr
	Tx      Tx
	Targets []*Var
	Err     *Var
	// LockOnly marks the execution of a locking query (FOR UPDATE, FOR
	// SHARE) whose rows are read later, or never: it takes the rows'
	// locks and may fail, it reads nothing (Targets is empty).
	LockOnly bool
	// NoRow, if not nil, is set to whether the call failed because no
	// row matched (a single-row Scan's sql.ErrNoRows, pgx.ErrNoRows);
	// false when it succeeded or failed otherwise (a server error).
	NoRow *Var
	// RejectsNull[i] says Targets[i] is a Go destination that cannot
	// hold NULL (an int64, string, bool, float64 without a Scan method):
	// database/sql, sqlx and pgx fail the Scan when its column is NULL
	// ("converting NULL to int64 is unsupported"), so a Scan that
	// succeeds read a value that is not NULL there.
	RejectsNull []bool
	// ScanInto[i], when not nil, is the Go destination of Targets[i]
	// whose conversion the Scan checks (database/sql's convertAssign,
	// pgx's codecs): a bool accepts the integers 0 and 1 only, an
	// integer type the values in its range; the Scan of any other value
	// fails, so a Scan that succeeds read one of those.
	ScanInto []*GoDest
	// Refuses64 lists the indexes of Args bound from Go unsigned integers
	// that the driver refuses at 2^63 and above: database/sql's default
	// converter ("uint64 values with high bit set are not supported"),
	// which drivers without their own NamedValueChecker use
	// (modernc.org/sqlite). The call fails before reaching the database.
	Refuses64 []int
	// IntParams says how an integer argument out of the range of the
	// parameter type PostgreSQL infers fails (see IntParamCheck).
	IntParams IntParamCheck
	Info
}

// IntParamCheck is what a PostgreSQL driver does with an integer
// argument bound to a parameter the server types int2 or int4 (from the
// column it meets: points - $1 with points INTEGER) when the argument
// is outside that type's range. The row model works out which
// parameters those are (it reads the schema); the front end says how the
// driver binds them, and leaves it unchecked where it does not know.
type IntParamCheck int

// The IntParamCheck values, checked on PostgreSQL 15 (groundtruth
// TestPostgresIntParamRange).
const (
	// IntParamsUnchecked: not modelled, the argument is any integer (no
	// PostgreSQL, a cast in the text, a driver or exec mode that sends
	// the Go type's own: pgx's simple protocol or QueryExecModeExec).
	IntParamsUnchecked IntParamCheck = iota
	// IntParamsDriverRefuses: pgx encodes the argument into the type the
	// server inferred and refuses it ("unable to encode 2147483648 into
	// binary format for int4"): the call fails in the client, and an
	// open transaction goes on.
	IntParamsDriverRefuses
	// IntParamsServerRefuses: lib/pq sends the argument's text, which
	// the server refuses ("value is out of range for type integer",
	// 22003): the statement fails on the server.
	IntParamsServerRefuses
)

// GoDest is the domain of a Go scan destination (ir.Select.ScanInto):
// Bool for a bool, otherwise the integer range [Lo, Hi].
type GoDest struct {
	Bool   bool
	Lo, Hi *big.Int
}

// TxOp is Begin, Commit or Rollback of transaction Tx.
type TxOp struct {
	Op  TxOpKind
	Tx  Tx
	Err *Var
	// Conn is set when Tx is a connection (*sql.Conn) and the operation
	// was sent as SQL text (BEGIN, COMMIT, ROLLBACK): BEGIN may then run
	// while a transaction is open, and statements on Tx outside a
	// transaction commit at once.
	Conn bool
	// Options is set on a BEGIN given transaction options (a non-nil
	// *sql.TxOptions, a pgx.TxOptions): the isolation level they set is
	// read from the code where they are written (package pipeline)
	// unless Level names it.
	Options bool
	// Level is the isolation level the options set, as the library
	// spells it (sql.IsolationLevel's String, pgx's TxIsoLevel), where
	// the front end followed one constant to them on every path ("":
	// not followed).
	Level string
	// ReadOnly is set on a BEGIN whose options make the transaction
	// read-only on every path, on an engine that refuses every write in
	// it (PostgreSQL's SQLSTATE 25006, MariaDB's error 1792): each
	// INSERT, UPDATE and DELETE of Tx fails and changes nothing.
	ReadOnly bool
	Info
}

// TxOpKind is the kind of a TxOp.
type TxOpKind uint8

const (
	Begin TxOpKind = iota
	Commit
	Rollback
)

func (k TxOpKind) String() string { return [...]string{"begin", "commit", "rollback"}[k] }

func (s *Assign) Source() Info { return s.Info }
func (s *Assume) Source() Info { return s.Info }
func (s *Havoc) Source() Info  { return s.Info }
func (s *Exec) Source() Info   { return s.Info }
func (s *Select) Source() Info { return s.Info }
func (s *TxOp) Source() Info   { return s.Info }

func (*Assign) stmtNode() {}
func (*Assume) stmtNode() {}
func (*Havoc) stmtNode()  {}
func (*Exec) stmtNode()   {}
func (*Select) stmtNode() {}
func (*TxOp) stmtNode()   {}

// Modifies returns the variables a plain statement assigns.
func Modifies(s Stmt) []*Var {
	switch s := s.(type) {
	case *Assign:
		return s.Lhs
	case *Havoc:
		return s.Vars
	}
	return nil
}
