package frontend

import (
	"go/types"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlparse"
)

// Go-side conversions of the values a statement binds and scans (checked
// in the Go sources of database/sql, go-sql-driver/mysql v1.10, lib/pq
// v1.12, pgx v5 stdlib and modernc.org/sqlite v1.62, and replayed on
// the engines by the corpus cases trust/scan_bool_* and
// trust/sqlite_uint64_*):
//
//   - Scan into a Go bool: database/sql converts with driver.Bool, which
//     accepts the integers 0 and 1 and the texts strconv.ParseBool reads
//     ("1", "t", "true", …); an integer column holding 3 fails the Scan
//     ("converting driver.Value type int64 (3) to a bool"). Every driver
//     here returns an integer column as an int64 or its decimal text.
//   - Scan into a Go integer type: database/sql parses the value's
//     decimal text with strconv.ParseInt/ParseUint at the type's width,
//     so a value outside the type's range (a negative one into a uint64)
//     fails the Scan; pgx's codecs check the range as well.
//   - A Go unsigned integer at 2^63 or above bound as an argument:
//     database/sql's default converter refuses it ("uint64 values with
//     high bit set are not supported") for a driver without a
//     NamedValueChecker of its own — modernc.org/sqlite. go-sql-driver
//     sends it as BIGINT UNSIGNED, lib/pq v1.12 as a text, pgx as a
//     number: not modelled there.
//
// A Scan's destinations carry their domain (ir.Select.ScanInto), which
// the row model assumes of the values a successful Scan read; the
// statements carry the indexes of the arguments refused at 2^63
// (Refuses64), which the row model assumes below 2^63 where the call
// succeeds. The failing call's error path is the one every call has.

// sqliteDriver is the SQLite driver whose argument conversion is modelled.
const sqliteDriver = "modernc.org/sqlite"

// scanDest returns the domain of a Scan destination of Go type typ (nil
// when the Scan does not check one: a type with a Scan method, a string,
// a float, a 64-bit signed integer, which holds any integer a driver
// returns).
func scanDest(typ types.Type) *ir.GoDest {
	if typ == nil || !rejectsNull(typ) {
		return nil
	}
	b, ok := typ.Underlying().(*types.Basic)
	if !ok {
		return nil
	}
	if b.Kind() == types.Bool {
		return &ir.GoDest{Bool: true}
	}
	r, ok := rangeOf(typ)
	if !ok || b.Kind() == types.Uintptr {
		return nil
	}
	return &ir.GoDest{Lo: r.lo, Hi: r.hi}
}

// refuses64 returns the indexes of args bound from Go unsigned integers
// (t.argUnsigned) that the program's driver refuses at 2^63 and above.
func (t *translator) refuses64(args []ir.Expr) []int {
	if len(t.argUnsigned) == 0 || t.dialect != sqlparse.SQLite || !t.l.importsPackage(sqliteDriver) ||
		t.l.importsPackage("github.com/mattn/go-sqlite3") {
		return nil
	}
	var out []int
	for i := range args {
		if t.argUnsigned[i] && args[i] != nil && args[i].Sort() == ir.Int {
			out = append(out, i)
		}
	}
	return out
}
