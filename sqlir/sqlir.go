package sqlir

import (
	"math/big"
	"strings"
)

// Expr is a SQL scalar or boolean expression.
type Expr interface{ sqlExpr() }

// ColRef names a column; Table is the table name (aliases resolved by the
// parser) or "" when unqualified. NoAffinity marks a column read where
// SQLite gives it no affinity in a comparison: an argument of its scalar
// max/min, which compare their arguments as stored (a text-bound Go
// string sorts above the column's number instead of being converted).
type ColRef struct {
	Table, Name string
	NoAffinity  bool
}

// Param is a placeholder; Index counts from 0. Unsigned marks one bound
// to a Go unsigned integer that the driver sends as BIGINT UNSIGNED
// (go-sql-driver/mysql's binary protocol): MySQL then computes arithmetic
// with it unsigned, and fails where the result is negative.
type Param struct {
	Index    int
	Unsigned bool
}

// Num is a numeric literal.
type Num struct {
	Val   *big.Rat
	IsInt bool
}

// Str is a string literal.
type Str struct{ Val string }

// BoolLit is TRUE or FALSE.
type BoolLit struct{ Val bool }

// Null is the NULL literal.
type Null struct{}

// Binary is X Op Y (see Op for the operators).
type Binary struct {
	Op   Op
	X, Y Expr
}

// Unary is NOT X or -X (Op OpNot or OpNeg).
type Unary struct {
	Op UnaryOp
	X  Expr
}

// IsNull is "X IS NULL" (or IS NOT NULL when Not).
type IsNull struct {
	X   Expr
	Not bool
}

// Case is CASE WHEN c1 THEN v1 … ELSE e END (Else may be nil, meaning NULL).
type Case struct {
	Whens []When
	Else  Expr
}

// When is one arm of a Case.
type When struct{ Cond, Val Expr }

// Unknown is an expression the IR does not model (a function call, a
// subquery, LIKE, …): the row model gives it an arbitrary value. Params lists
// the placeholders inside it, so their numbering stays right.
type Unknown struct {
	Text   string
	Params []int
	// Default is set for the DEFAULT keyword in INSERT … VALUES: the
	// column's default (see Column.Default) is inserted.
	Default bool
}

func (*ColRef) sqlExpr()  {}
func (*Param) sqlExpr()   {}
func (*Num) sqlExpr()     {}
func (*Str) sqlExpr()     {}
func (*BoolLit) sqlExpr() {}
func (*Null) sqlExpr()    {}
func (*Binary) sqlExpr()  {}
func (*Unary) sqlExpr()   {}
func (*IsNull) sqlExpr()  {}
func (*Case) sqlExpr()    {}
func (*Unknown) sqlExpr() {}

// Statement is a parsed SQL statement.
type Statement interface {
	// Tables returns the tables the statement reads or writes, lower-cased.
	Tables() []string
	sqlStmt()
}

// Assignment is "Col = Value" in SET.
type Assignment struct {
	Col   string
	Value Expr
}

// Update is UPDATE Table SET … WHERE Where (Where nil: every row).
type Update struct {
	Table string
	Set   []Assignment
	Where Expr
	// Returning lists RETURNING expressions (Postgres), bound to Scan
	// targets; they are evaluated on the updated row (new values).
	Returning []SelectItem
	// Join, for an UPDATE that joins exactly one other table (Postgres and
	// SQLite UPDATE … FROM, MySQL's UPDATE a JOIN b / UPDATE a, b), is the
	// statement with that table's columns kept (Set and Where above name
	// them as Unknown: "some joined row"); nil otherwise.
	Join *JoinedUpdate
	// First, for MySQL's single-table UPDATE … ORDER BY … LIMIT 1, is the
	// ORDER BY: the statement changes only the first row of that order
	// that Where matches (of tied rows any one); nil otherwise (another
	// LIMIT is an Unknown conjunct of Where).
	First []OrderTerm
	// Ignore is MySQL's UPDATE IGNORE: a row whose new key would
	// duplicate another's is left as it was, and a value out of its
	// column's range or a NULL for a NOT NULL column is stored clipped or
	// as the column's implicit default instead of failing the statement.
	Ignore bool
}

// JoinedUpdate is an UPDATE of the target table joined with one row of
// Table: Where holds the conjuncts (of WHERE and of inner ON conditions)
// that read only Table's columns, with placeholders and literals;
// TargetWhere the others; Set the assignments. Columns of Table are
// ColRefs qualified with its name, the target's with the target's name
// (unqualified ones may be either: the schema tells). Where Where pins a
// key of Table, one row of Table is joined with every target row, which
// the UPDATE changes as Set says where TargetWhere holds on both.
//
// Alias is set for a self-join (UPDATE accounts a … FROM accounts b):
// Table is then the target table itself, and its joined instance's
// columns are qualified with Alias (b) instead of its name.
type JoinedUpdate struct {
	Table       string
	Alias       string
	Where       Expr
	TargetWhere Expr
	Set         []Assignment
}

// Qualifier is the table name that qualifies the joined row's columns:
// Alias in a self-join, else Table.
func (j *JoinedUpdate) Qualifier() string {
	if j.Alias != "" {
		return j.Alias
	}
	return j.Table
}

// Insert is INSERT INTO Table (Columns) VALUES Rows.
type Insert struct {
	Table   string
	Columns []string
	Rows    [][]Expr
	// FromSelect is set for INSERT … SELECT; Source is then its SELECT as
	// translated (nil when the parser could not translate it): each new
	// row is Source's select list, in Columns' order, on one row of
	// Source.Table that satisfies Source.Where. A Complex Source (joins,
	// grouping, aggregates, DISTINCT, …) gives arbitrary rows.
	FromSelect bool
	Source     *Select
	// OnConflict holds ON DUPLICATE KEY UPDATE / ON CONFLICT DO UPDATE
	// assignments; OnConflictNothing is ON CONFLICT DO NOTHING.
	OnConflict        []Assignment
	HasOnConflict     bool
	OnConflictNothing bool
	// OnConflictRows, for a multi-row VALUES upsert, holds the conflict
	// assignments of each row (as OnConflict, with the row's own values
	// for EXCLUDED.col, VALUES(col) or the row alias): row i of Rows that
	// conflicts runs OnConflictRows[i]. nil otherwise (OnConflict then
	// names such values as Unknown when there is more than one row).
	OnConflictRows [][]Assignment
	// ConflictGuarded is set when the DO UPDATE action has a WHERE (folded
	// into the assignments as CASE): a conflicting row it rejects is left
	// as it was.
	ConflictGuarded bool
	// ConflictColumns are the columns of Postgres "ON CONFLICT (cols)" (nil
	// when not given or not plain columns); ConflictConstraint is the name
	// in "ON CONFLICT ON CONSTRAINT name". Both are informative: the key
	// that conflicts is one of the table's unique keys.
	ConflictColumns    []string
	ConflictConstraint string
	// ConflictWhere is pred in Postgres "ON CONFLICT (cols) WHERE pred",
	// or nil. The arbiter is then a partial unique index whose own
	// predicate pred implies: cols are unique only among the rows in that
	// index, and the conflicting row need not satisfy pred.
	ConflictWhere Expr
	// Returning lists RETURNING expressions (Postgres), evaluated on the
	// row as inserted (or as updated by ON CONFLICT DO UPDATE).
	Returning []SelectItem
	// Replace is MySQL's REPLACE INTO: a row with the same key is deleted
	// before the new row is inserted.
	Replace bool
	// OrIgnore is SQLite's INSERT OR IGNORE (OnConflictNothing is set
	// too): a row that breaks a NOT NULL or CHECK constraint is skipped
	// without an error, as one that conflicts on a key — unlike ON
	// CONFLICT DO NOTHING, whose NOT NULL and CHECK violations fail.
	OrIgnore bool
}

// Delete is DELETE FROM Table WHERE Where.
type Delete struct {
	Table string
	Where Expr
	// Returning lists RETURNING expressions (Postgres), evaluated on the
	// deleted row.
	Returning []SelectItem
}

// SelectItem is one result column of a SELECT; Star is "*" (or "t.*").
type SelectItem struct {
	Expr  Expr
	Alias string
	Star  bool
}

// Select is SELECT Columns FROM Table WHERE Where. Joins, grouping and
// aggregates set Complex: the result values are then arbitrary.
type Select struct {
	Table     string
	Columns   []SelectItem
	Where     Expr
	ForUpdate bool
	// ForShare is LOCK IN SHARE MODE / FOR SHARE (a shared row lock).
	ForShare bool
	// Complex is set when the SELECT reads more than one table, groups, or
	// aggregates; Reason says which.
	Complex bool
	Reason  string
	// AllTables lists every table read (for Complex selects).
	AllTables []string
	// SkipsRows is set when OFFSET, or a LIMIT other than a positive
	// integer literal, may leave out a row that satisfies Where: a read
	// that returns no row then does not say that no row matches.
	SkipsRows bool
	// OrderBy lists the ORDER BY terms of a single-table SELECT (nil for
	// a Complex one), each a column or expression of Table (a select
	// alias or position replaced by its item's expression); Limit is
	// its LIMIT when an integer literal (0: none or not a literal).
	OrderBy []OrderTerm
	Limit   int64
	// SkipLocked is FOR UPDATE/SHARE … SKIP LOCKED: rows another
	// transaction has locked are left out of the result.
	SkipLocked bool
	// KeyShare is PostgreSQL's FOR KEY SHARE, which sets neither
	// ForUpdate nor ForShare: it blocks a DELETE or a key change of the
	// rows, not an UPDATE of their other columns.
	KeyShare bool
	// CountRows is set (with Complex) for SELECT COUNT(*) FROM Table
	// WHERE Where (or COUNT of a constant): one row, the number of rows
	// of Table that satisfy Where; no join, subquery, grouping, DISTINCT,
	// ORDER BY, LIMIT or OFFSET.
	CountRows bool
	// ExistsRows is set (with Complex) for SELECT EXISTS (SELECT … FROM
	// Table WHERE Where) of a plain single-table subquery: one row, whether
	// a row of Table satisfies Where.
	ExistsRows bool
}

// OrderTerm is one ORDER BY term: Expr ASC, or DESC when Desc.
// NullsGiven is set when NULLS FIRST or NULLS LAST is written.
type OrderTerm struct {
	Expr       Expr
	Desc       bool
	NullsGiven bool
}

// TxControl is BEGIN, COMMIT or ROLLBACK written as SQL; Kind is one of
// TxBegin, TxCommit, TxRollback, or a savepoint's SAVEPOINT, RELEASE or
// ROLLBACK TO (TxSavepoint, TxRelease, TxRollbackTo), whose savepoint
// is Name (lower case: the three engines compare savepoint names
// without case unless quoted, and quoted names are not read).
type TxControl struct {
	Kind string
	Name string
}

// TxControl kinds.
const (
	TxBegin    = "BEGIN"
	TxCommit   = "COMMIT"
	TxRollback = "ROLLBACK"
	// TxSavepoint is SAVEPOINT Name; TxRelease is RELEASE [SAVEPOINT]
	// Name; TxRollbackTo is ROLLBACK [WORK|TRANSACTION] TO [SAVEPOINT]
	// Name: the writes made since the savepoint are undone, the
	// transaction stays open.
	TxSavepoint  = "SAVEPOINT"
	TxRelease    = "RELEASE"
	TxRollbackTo = "ROLLBACK TO"
	// TxSettings sets the transaction's characteristics (SET TRANSACTION
	// ISOLATION LEVEL …) or a timeout: no row changes.
	TxSettings = "SET TRANSACTION"
)

// Other is a statement the IR does not model (DDL, SET, …).
type Other struct{ Text string }

func (s *Update) Tables() []string { return []string{lower(s.Table)} }
func (s *Insert) Tables() []string { return []string{lower(s.Table)} }
func (s *Delete) Tables() []string { return []string{lower(s.Table)} }
func (s *Select) Tables() []string {
	if len(s.AllTables) > 0 {
		out := make([]string, len(s.AllTables))
		for i, t := range s.AllTables {
			out[i] = lower(t)
		}
		return out
	}
	if s.Table == "" {
		return nil
	}
	return []string{lower(s.Table)}
}
func (*TxControl) Tables() []string { return nil }
func (*Other) Tables() []string     { return nil }

func (*Update) sqlStmt()    {}
func (*Insert) sqlStmt()    {}
func (*Delete) sqlStmt()    {}
func (*Select) sqlStmt()    {}
func (*TxControl) sqlStmt() {}
func (*Other) sqlStmt()     {}

// IsSavepoint reports whether s is SAVEPOINT, RELEASE or ROLLBACK TO.
func IsSavepoint(s Statement) bool {
	tc, ok := s.(*TxControl)
	return ok && (tc.Kind == TxSavepoint || tc.Kind == TxRelease || tc.Kind == TxRollbackTo)
}

// IsWrite reports whether s modifies rows.
func IsWrite(s Statement) bool {
	switch s.(type) {
	case *Update, *Insert, *Delete:
		return true
	}
	return false
}

func lower(s string) string { return strings.ToLower(s) }

// Constraint is a row-level invariant over one table: for every row r of
// Table, Expr(r) holds. Text is the constraint as the user wrote it.
type Constraint struct {
	Name  string // CHECK constraint name, or "" for --constraint
	Text  string
	Table string
	Expr  Expr
	// Casts are the casts the condition applies to columns (Postgres
	// x::type, CAST(x AS type)), which Expr leaves out: the column keeps
	// its value (see sqlparse/postgres), so whoever knows the column's
	// type decides whether that is exact.
	Casts []ColumnCast
	// NotValid marks a PostgreSQL CHECK added by ALTER TABLE … ADD
	// CONSTRAINT … NOT VALID and not validated since (VALIDATE
	// CONSTRAINT): the engine checks the rows written after it, but rows
	// older than it may break it, so it says nothing of the initial rows.
	NotValid bool
}

// ColumnCast is a cast in a constraint: of Column (lower-case; "" for an
// expression other than a column) to a type of category Type ("integer",
// "numeric", "float", "text", "boolean", "user" or "other"), at byte
// Offset of the constraint's text.
type ColumnCast struct {
	Column, Type string
	Offset       int
}

// Schema holds what DDL says about tables.
type Schema struct {
	Tables map[string]*Table // by lower-case name
	// Warnings lists what the loader skipped (e.g. a CHECK it could not
	// turn into a Constraint), as "file:line: message".
	Warnings []string
	// Triggers lists the triggers (and Postgres rules) of the schema: a
	// write to their table runs code the row model does not see.
	Triggers []Trigger
	// Views maps the (lower-case) name of each view to its definition: a
	// write to an updatable view writes the tables it reads.
	Views map[string]*View
}

// Trigger is one CREATE TRIGGER (or CREATE RULE) of the schema.
type Trigger struct {
	Name  string
	Table string // the table (or view) whose writes fire it
	// Body is the lower-case text of what it runs: the trigger statement
	// and, for a Postgres trigger, the body of the function it executes
	// when the schema defines it ("" with Resolved false otherwise).
	Body     string
	Resolved bool
	Pos      string // "file:line" of the statement
}

// View is one CREATE VIEW of the schema.
type View struct {
	Name string
	Def  string // the lower-case text of the statement
	Pos  string // "file:line" of the statement
}

// Table is one CREATE TABLE.
type Table struct {
	Name    string
	Columns []Column
	// Keys lists the primary key and unique keys; each is a list of columns.
	Keys   [][]string
	Checks []Constraint
	// ForeignKeys lists the table's FOREIGN KEY and REFERENCES constraints.
	ForeignKeys []ForeignKey
	// Collate is the table's default collation (MySQL "COLLATE=…", or
	// "binary" for "CHARSET=binary"), lower case; "" when not given.
	Collate string
	// Engine is MySQL's storage engine ("ENGINE=…"), lower case; "" when
	// not given (the server's default, InnoDB).
	Engine string
	// RowidAlias names the column that, in SQLite, is an alias of the
	// rowid: the only column of the PRIMARY KEY, declared INTEGER, of a
	// table not WITHOUT ROWID. An INSERT that omits it gets a new rowid
	// (one more than the largest), never an existing row's. "" if none.
	RowidAlias string
}

// Column is one column definition.
type Column struct {
	Name    string
	Type    string // as written, lower-case
	NotNull bool
	// HasDefault is set when the column declares a DEFAULT other than
	// DEFAULT NULL (or is generated: serial, identity, AUTO_INCREMENT, a
	// generated column). An INSERT that omits a column without one
	// writes NULL.
	HasDefault bool
	// Default is the declared DEFAULT when it is a constant (*Num, *Str or
	// *BoolLit); nil when there is none or it is an expression (now(),
	// nextval(…), …) whose value is arbitrary.
	Default Expr
	// Generated is the expression of a generated column (GENERATED ALWAYS
	// AS (…) STORED / VIRTUAL, MySQL AS (…)), as written; "" for others.
	// GeneratedPos is "file:line" of its definition.
	Generated, GeneratedPos string
	// GeneratedExpr is Generated parsed (nil if it did not parse).
	GeneratedExpr Expr
	// AutoIncrement is set for columns whose omitted value comes from a
	// sequence: Postgres SERIAL types and GENERATED … AS IDENTITY, MySQL
	// AUTO_INCREMENT (and SQLite AUTOINCREMENT). Sequences start at 1 by
	// default, so such a value is assumed to be at least 1.
	AutoIncrement bool
	// Collate is the column's COLLATE clause (or "binary" for MySQL's
	// CHARACTER SET binary), lower case without quotes; "" when none.
	Collate string
	// NotNullByKey is set when NotNull comes only from the column's
	// PRIMARY KEY (no NOT NULL written): SQLite then lets the column hold
	// NULL (a legacy quirk), except in a WITHOUT ROWID table (where the
	// parser leaves this unset) and for the rowid alias, never NULL.
	NotNullByKey bool
}

// The tables that stand for PostgreSQL's transaction-scoped advisory lock
// spaces: "SELECT pg_advisory_xact_lock(k)" is read as a locking read of
// the row id = k of AdvisoryTable, and the two-key form (k1, k2) of the
// row id = k1, id2 = k2 of AdvisoryTable2 (see the frontend). No SQL of a
// program names them: their names are those of the functions.
const (
	AdvisoryTable  = "pg_advisory_xact_lock"
	AdvisoryTable2 = "pg_advisory_xact_lock2"
	// The locks on hashtext(t), row id = t, and on
	// hashtextextended(t, seed), row id = t, id2 = seed: a space apart
	// from the integer keys (a hash collision only adds exclusions).
	AdvisoryHashText         = "pg_advisory_xact_lock_hashtext"
	AdvisoryHashTextExtended = "pg_advisory_xact_lock_hashtextextended"
	// AdvisoryPrefixedSpace begins the names of the spaces of locks on
	// hashtext(p || n) for a constant prefix p (hashed into the rest of
	// the name) and the decimal text of an integer n, keyed by n.
	AdvisoryPrefixedSpace = "pg_advisory_xact_lock_hashtext_p"
)

// AdvisoryKeys returns the key columns of an advisory lock table, nil
// for any other table.
func AdvisoryKeys(table string) []string {
	switch table {
	case AdvisoryTable, AdvisoryHashText:
		return []string{"id"}
	case AdvisoryTable2, AdvisoryHashTextExtended:
		return []string{"id", "id2"}
	}
	if strings.HasPrefix(table, AdvisoryPrefixedSpace) {
		return []string{"id"}
	}
	return nil
}
