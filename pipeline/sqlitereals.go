package pipeline

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/dbverify/dbverify/report"
)

// SQLite has no integer overflow error: an integer result out of int64's
// range is stored as a REAL (dbmodel/intrange.go), and the model's SQL
// arithmetic is mathematical. A trace printed booked + 10 as the integer
// 9223372036854775808, a value no int64 holds, where the engine stores
// the REAL 9.223372036854776e+18 (an independent tester, adv18).
// printSQLiteReals prints, in the counterexamples of results read as
// SQLite, such a value of a written column and of the violating row as
// the REAL the engine stores, saying so. The rows the run starts from
// (Counterexample.Rows, which a replay seeds) are left as they are.

// printSQLiteReals rewrites the out-of-range integers of the columns that
// results' SQLite statements write (see above); dialect is the run's.
func printSQLiteReals(results []*report.Result, dialect string) {
	for _, r := range results {
		d := resultDialect(r, dialect)
		c := r.Counterexample
		if d != "sqlite" || c == nil {
			continue
		}
		tables := symbolTables(r)
		for i := range c.Steps {
			st := &c.Steps[i]
			if st.Kind != "sql" {
				continue
			}
			for name, v := range st.Values {
				if sym, _, ok := strings.Cut(name, "."); ok && tables[sym] != "" {
					st.Values[name] = sqliteStored(v)
				}
			}
		}
		if c.Violation != nil {
			for col, v := range c.Violation.Values {
				c.Violation.Values[col] = sqliteStored(v)
			}
		}
	}
}

// sqliteStored is what SQLite stores for a column value v as the model
// computes it: an integer out of int64's range as its REAL, said so.
func sqliteStored(v string) string {
	x, ok := new(big.Int).SetString(v, 10)
	if !ok || x.IsInt64() {
		return v
	}
	f, _ := new(big.Float).SetInt(x).Float64()
	return strconv.FormatFloat(f, 'g', -1, 64) + " (a REAL: SQLite stores an integer result out of int64's range as one)"
}
