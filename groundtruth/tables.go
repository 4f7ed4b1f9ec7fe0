package groundtruth

import (
	"context"
	"database/sql"
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"time"
)

// ExecAll executes each statement in order (DDL such as CREATE TABLE), as
// written: nothing is translated between dialects.
func ExecAll(ctx context.Context, db *sql.DB, stmts ...string) error {
	for _, s := range stmts {
		if _, err := db.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("groundtruth: %s: %w", s, err)
		}
	}
	return nil
}

// Row is one row: column name → value (nil for NULL).
type Row map[string]any

// InsertRows inserts each row into table with one INSERT per row, naming
// the row's columns in sorted order and binding the values as arguments.
func InsertRows(ctx context.Context, db *sql.DB, d Dialect, table string, rows ...Row) error {
	for _, r := range rows {
		cols := make([]string, 0, len(r))
		for c := range r {
			cols = append(cols, c)
		}
		sort.Strings(cols)
		ph := make([]string, len(cols))
		args := make([]any, len(cols))
		for i, c := range cols {
			ph[i] = d.Placeholder(i + 1)
			args[i] = r[c]
		}
		q := fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", table, strings.Join(cols, ", "), strings.Join(ph, ", "))
		if _, err := db.ExecContext(ctx, q, args...); err != nil {
			return fmt.Errorf("groundtruth: %s %v: %w", q, args, err)
		}
	}
	return nil
}

// Table is a table's content read back by ReadTable.
type Table struct {
	Columns []string // in the table's order
	Rows    [][]any  // sorted by every column in order, NULL first
}

// ReadTable reads every row of table, its values normalised (Normalize),
// sorted by its columns in order.
func ReadTable(ctx context.Context, db *sql.DB, table string) (Table, error) {
	rows, err := db.QueryContext(ctx, "SELECT * FROM "+table)
	if err != nil {
		return Table{}, fmt.Errorf("groundtruth: read %s: %w", table, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return Table{}, fmt.Errorf("groundtruth: read %s: %w", table, err)
	}
	t := Table{Columns: cols}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return Table{}, fmt.Errorf("groundtruth: read %s: %w", table, err)
		}
		for i := range vals {
			vals[i] = Normalize(vals[i])
		}
		t.Rows = append(t.Rows, vals)
	}
	if err := rows.Err(); err != nil {
		return Table{}, fmt.Errorf("groundtruth: read %s: %w", table, err)
	}
	sort.Slice(t.Rows, func(i, j int) bool { return compareRows(t.Rows[i], t.Rows[j]) < 0 })
	return t, nil
}

// Normalize maps a value scanned from any of the drivers to int64, *big.Rat
// (non-integers, exact for NUMERIC), float64 (infinities, NaN), string, bool, time.Time or
// nil, so that equal SQL values of different engines compare equal: an
// integer is an int64 whatever its column type, a numeric string as the
// drivers return DECIMAL columns is a number.
func Normalize(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case int64:
		return x
	case int32:
		return int64(x)
	case int:
		return int64(x)
	case uint64:
		if x <= 1<<63-1 {
			return int64(x)
		}
		return new(big.Rat).SetUint64(x)
	case float32:
		return normalizeFloat(float64(x))
	case float64:
		return normalizeFloat(x)
	case []byte:
		return normalizeString(string(x))
	case string:
		return normalizeString(x)
	case bool, time.Time:
		return x
	}
	return fmt.Sprint(v)
}

// normalizeFloat is an integral float as an int64, another finite float as
// the exact rational of its shortest decimal text (1.5 from a REAL column
// equals 1.50 from a DECIMAL one).
func normalizeFloat(f float64) any {
	if f == float64(int64(f)) {
		return int64(f)
	}
	if r, ok := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64)); ok {
		return r
	}
	return f
}

// normalizeString turns a decimal's text into its number; other text stays.
func normalizeString(s string) any {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && s == strconv.FormatInt(n, 10) {
		return n
	}
	if r, ok := new(big.Rat).SetString(s); ok && isDecimalText(s) {
		if r.IsInt() && r.Num().IsInt64() {
			return r.Num().Int64()
		}
		return r
	}
	return s
}

// isDecimalText reports whether s is written as a decimal number: digits,
// an optional sign and one point.
func isDecimalText(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" || s == "." {
		return false
	}
	dot := false
	for _, c := range s {
		switch {
		case c >= '0' && c <= '9':
		case c == '.' && !dot:
			dot = true
		default:
			return false
		}
	}
	return true
}

// compareRows orders rows column by column (CompareValues).
func compareRows(a, b []any) int {
	for i := range a {
		if c := CompareValues(a[i], b[i]); c != 0 {
			return c
		}
	}
	return 0
}

// CompareValues orders normalised values: NULL first, then numbers by
// value, then other values by their text.
func CompareValues(a, b any) int {
	if a == nil || b == nil {
		switch {
		case a == nil && b == nil:
			return 0
		case a == nil:
			return -1
		}
		return 1
	}
	ra, okA := asRat(a)
	rb, okB := asRat(b)
	switch {
	case okA && okB:
		return ra.Cmp(rb)
	case okA:
		return -1
	case okB:
		return 1
	}
	return strings.Compare(fmt.Sprint(a), fmt.Sprint(b))
}

// asRat is a numeric value as an exact rational.
func asRat(v any) (*big.Rat, bool) {
	switch x := v.(type) {
	case int64:
		return new(big.Rat).SetInt64(x), true
	case *big.Rat:
		return x, true
	case float64:
		r, ok := new(big.Rat).SetString(strconv.FormatFloat(x, 'g', -1, 64))
		return r, ok
	}
	return nil, false
}
