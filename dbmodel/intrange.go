package dbmodel

import (
	"math/big"
	"strings"

	"github.com/dbverify/dbverify/ir"
)

// Integer columns hold a bounded range: PostgreSQL and MySQL refuse a
// write whose value leaves it (PostgreSQL "bigint out of range", MySQL
// "BIGINT value is out of range", or "Out of range value" in strict
// mode): the statement fails, and its error path runs. The model's SQL
// arithmetic is mathematical, so a write succeeds only with its values in
// the column's range. Without this, Go's wrap-around (see frontend
// intwrap.go) would make false alarms of guards that are only beaten by
// values the engine refuses anyway: with bal = -2, `bal-amt < min` wraps
// for amt = 2^63-1, but `balance - amt` then fails on the engine.
//
// A column's range comes from its declared type (smallint, integer,
// bigint, MySQL's tinyint … and UNSIGNED); a column no schema declares is
// taken as 64 bits (every Go integer the program writes fits). SQLite
// has no such error (an integer result that overflows becomes a REAL),
// and decimal, numeric and floating-point columns have no integer range.

// columnRange returns the range of integer column col of table, and
// whether the engine enforces one.
func (m *lowerer) columnRange(table, col string) (lo, hi *big.Int, ok bool) {
	if m.opt.Dialect == "sqlite" || strings.HasPrefix(col, nullFlagPrefix) {
		return nil, nil, false
	}
	width, unsigned := 64, false
	if t := m.schemaTable(table); t != nil {
		for _, c := range t.Columns {
			if !strings.EqualFold(c.Name, col) {
				continue
			}
			var isInt bool
			width, unsigned, isInt = intType(strings.ToLower(c.Type))
			if !isInt {
				return nil, nil, false
			}
			break
		}
	}
	one := big.NewInt(1)
	if unsigned {
		return big.NewInt(0), new(big.Int).Sub(new(big.Int).Lsh(one, uint(width)), one), true
	}
	half := new(big.Int).Lsh(one, uint(width-1))
	return new(big.Int).Neg(half), new(big.Int).Sub(half, one), true
}

// intType returns the width and signedness of an integer column type as
// declared (lower-case); false for any other type.
func intType(ty string) (width int, unsigned, ok bool) {
	if isRealType(ty) || !(strings.Contains(ty, "int") || strings.Contains(ty, "serial")) || notIntType(ty) {
		return 0, false, false
	}
	unsigned = strings.Contains(ty, "unsigned")
	switch {
	case strings.Contains(ty, "bigint"), strings.Contains(ty, "int8"), strings.Contains(ty, "bigserial"), strings.Contains(ty, "serial8"):
		return 64, unsigned, true
	case strings.Contains(ty, "tinyint"):
		return 8, unsigned, true
	case strings.Contains(ty, "smallint"), strings.Contains(ty, "int2"), strings.Contains(ty, "smallserial"), strings.Contains(ty, "serial2"):
		return 16, unsigned, true
	case strings.Contains(ty, "mediumint"):
		return 24, unsigned, true
	}
	return 32, unsigned, true
}

// notIntType reports the types whose names contain "int" that hold no
// integer: interval, point, ranges (int4range) and arrays (integer[]).
func notIntType(ty string) bool {
	return strings.Contains(ty, "interval") || strings.Contains(ty, "point") ||
		strings.HasSuffix(ty, "range") || strings.Contains(ty, "[")
}

// inColumnRange returns that value v written to column col of table lies
// in the column's range (True where the engine enforces none).
func (m *lowerer) inColumnRange(table, col string, v ir.Expr) ir.Expr {
	if v == nil || v.Sort() != ir.Int {
		return ir.True
	}
	lo, hi, ok := m.columnRange(table, col)
	if !ok {
		return ir.True
	}
	return ir.And(ir.Cmp(ir.OpGe, v, ir.BigInt(lo)), ir.Cmp(ir.OpLe, v, ir.BigInt(hi)))
}
