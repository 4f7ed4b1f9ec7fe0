package dblib

import (
	"github.com/dbverify/dbverify/sqlparse"
)

// Kind is the kind of database object a handle type stands for.
type Kind uint8

const (
	DB     Kind = iota // a pool or one connection: statements auto-commit
	Tx                 // a transaction
	Stmt               // a prepared statement
	Row                // the single-row result of QueryRow
	Rows               // the result set of Query
	Result             // the result of Exec (RowsAffected)
	// NoHandle: a package function that takes no handle (sqlx.In,
	// pgx.BeginFunc).
	NoHandle
)

// Op is what a library method or function does.
type Op uint8

const (
	None          Op = iota // nothing the model tracks: arbitrary results
	Exec                    // run a statement: (Result, error)
	Query                   // (Rows, error)
	QueryRow                // Row
	Prepare                 // (Stmt, error)
	Get                     // sqlx Get: QueryRow and scan into dest
	Select                  // sqlx Select: Query and scan every row into a slice
	NamedExec               // sqlx NamedExec: :name parameters from a struct or map
	NamedQuery              // sqlx NamedQuery
	PrepareNamed            // sqlx PrepareNamed
	Begin                   // begin a transaction: (Tx, error)
	Commit                  // end the transaction: error
	Rollback                // undo the transaction: error
	BindStmt                // tx.Stmt(st): the prepared statement st inside the transaction
	Conn                    // one connection of the pool (or a transaction's own)
	Rebind                  // the query text with the driver's placeholders
	Scan                    // read the current row into the destinations
	StructScan              // sqlx: read the current row into a struct by column name
	Next                    // advance to the next row: bool
	NextResultSet           // advance to the next result set: bool
	RowsAffected            // the rows an Exec changed
	// OpaqueSQL runs SQL the model cannot see (pgx batches and COPY, sqlx
	// LoadFile): the entry is UNKNOWN.
	OpaqueSQL
	// NotModelled changes database state the model does not represent
	// (large objects): the entry is UNKNOWN.
	NotModelled
)

// RunsText reports whether op runs SQL text given as an argument.
func (op Op) RunsText() bool { return op >= Exec && op <= PrepareNamed }

// Named reports whether op binds sqlx :name parameters.
func (op Op) Named() bool { return op == NamedExec || op == NamedQuery || op == PrepareNamed }

// TouchesDB reports whether op runs SQL or controls a transaction.
func (op Op) TouchesDB() bool { return op.RunsText() || op == Begin || op == Commit || op == Rollback }

// Method is what the library says about one method or function.
type Method struct {
	Op Op
	// Must: the call panics instead of returning an error (sqlx's Must*).
	Must bool
	// Why says, for OpaqueSQL and NotModelled, what the model lacks (the
	// UNKNOWN reads "<name> (<why>)").
	Why string
	// Callback: the call runs the function it is given inside itself
	// (pgx.BeginFunc), which is then not an entry point of its own.
	Callback bool
	// Special, when set, translates the call instead of the generic code
	// for Op (Op still says what the call does for SQL-site discovery).
	Special Handler
}

// Library describes one database library.
type Library struct {
	Name string
	// Packages are the import paths whose functions and methods the
	// tables describe; a call into them that the tables do not name has
	// arbitrary results and no effect on rows.
	Packages []string
	// Handles maps "import/path.TypeName" to the kind of object it is.
	Handles map[string]Kind
	// Conns are the handle types that are one connection of a pool:
	// statements on one run in order on the same session.
	Conns []string
	// Methods maps qualified method and function names (FullName) to what
	// they do.
	Methods map[string]Method
	// Drivers maps the import path of a driver package to its dialect.
	Drivers map[string]sqlparse.Dialect
	// DriverNames maps the names passed to sql.Open to their dialect.
	DriverNames map[string]sqlparse.Dialect
	// NamedArgs maps the types of argument values that name their
	// placeholders (pgx.NamedArgs: a map from names to values, with @name
	// in the text) to the function that rewrites such a text into
	// positional placeholders and returns the names in order (false: a
	// text it cannot rewrite).
	NamedArgs map[string]func(query string) (string, []string, bool)
	// Nullable maps the library's nullable scan destinations (a struct
	// of a value and a validity flag: sql.NullInt64) to the name of the
	// flag field. A generic type is named without its type arguments
	// ("database/sql.Null" for sql.Null[T]).
	Nullable map[string]string
	// Openers are the functions that open a handle from a driver name
	// given as their first argument ("database/sql.Open").
	Openers []string
	// RawConns maps the library's connection types whose SQL the model
	// does not read (pgx's pgconn.PgConn, the wire-protocol connection
	// under *pgx.Conn) to their methods that run no SQL (PID): any other
	// call given one is UNKNOWN, and its function a possible writer of
	// every table.
	RawConns map[string][]string
}

// Value is one of the translator's abstract values. This package never
// looks inside one: it gets them from a Builder and hands them back.
type Value any

// Handler translates a call whose semantics are the library's own.
type Handler func(b Builder, c Call) Value

// Builder is what a Handler may ask of the translator: the call's
// arguments, new values, and the few effects libraries compose.
type Builder interface {
	// Arg returns argument i (the receiver of a method is 0); an index
	// out of range gives the opaque value.
	Arg(i int) Value
	// NumArgs is the number of arguments.
	NumArgs() int
	// ConstString returns the text of argument i when it is a known constant.
	ConstString(i int) (string, bool)
	// Dialect is the dialect the program's SQL is parsed in.
	Dialect() sqlparse.Dialect
	// Text returns a constant string value.
	Text(s string) Value
	// Results returns arbitrary results of the call (its whole result tuple).
	Results() Value
	// Result returns an arbitrary value of result i's type.
	Result(i int, name string) Value
	// Err returns an arbitrary error.
	Err() Value
	// Tuple returns a multi-value result.
	Tuple(vs ...Value) Value
	// Element returns element i of a multi-value result (v itself if v
	// is not one).
	Element(v Value, i int) Value
	// Approx marks the scalars of v as approximations: a counterexample
	// that depends on them is UNKNOWN ("may be spurious"), why says of what.
	Approx(v Value, why string) Value
	// Elems returns the elements of slice v when the model knows them (a
	// slice literal, variadic arguments).
	Elems(v Value) ([]Value, bool)
	// IsScalar reports whether v is a number, string or boolean the model
	// tracks.
	IsScalar(v Value) bool
	// Scalar returns a new arbitrary integer.
	Scalar(name string) Value
	// Slice returns a slice holding vs.
	Slice(vs ...Value) Value
	// ApproxElems marks the elements of slice v, bound to placeholders
	// when v is passed as a query's arguments, as approximations.
	ApproxElems(v Value, why string) Value
	// ListMember returns one member of element i of the call's variadic
	// argument param when that element is a slice of integers or strings
	// with truly arbitrary elements (the entry's input): an element read
	// as the program's own reads of the slice are (exact while no other
	// instruction reads its elements), and the condition that the slice
	// is empty; false otherwise.
	ListMember(param, i int) (member, empty Value, ok bool)
	// PlainParam reports whether element i of the call's variadic
	// argument param has a predeclared type (int64, string, a slice of
	// one): no method, so no driver.Valuer.
	PlainParam(param, i int) bool
	// ErrWhen returns an error that is non-nil exactly when one of conds
	// (booleans) holds.
	ErrWhen(conds ...Value) Value
	// RunInTx begins a transaction on db, calls fn with it, rolls back if
	// fn returns an error and commits otherwise (pgx.BeginFunc); the
	// result is the error.
	RunInTx(db, fn Value) Value
	// Unsupported makes the entry UNKNOWN, naming the construct.
	Unsupported(format string, args ...any)
	// Escape hands the arguments but the handle to code the model does
	// not see: their memory may change, and a function among them that
	// holds a transaction of this entry is UNKNOWN.
	Escape()
	// Position is the call's file:line.
	Position() string
	// CollectOne is pgx's CollectOneRow(rows, mapper) (exactly:
	// CollectExactlyOneRow) as the single-row Scan mapper performs; false
	// when mapper is not one the model knows.
	CollectOne(rows, mapper Value, exactly bool) (Value, bool)
}
