package report

import (
	"strings"

	"github.com/dbverify/dbverify/ir"
)

// nullFlagPrefix starts the name of the row model's NULL-ness ghost
// column of a nullable column (dbmodel: "$null_<col>", true when the
// row's value is NULL).
const nullFlagPrefix = "$null_"

// nullColumn returns the column v says is NULL: v is its NULL-ness ghost
// and val says true ("" otherwise). The row is then printed, and seeded by
// a replay, with NULL there, as in the counterexample.
func nullColumn(v *ir.Var, val func(*ir.Var) (string, error)) (string, error) {
	col, ok := strings.CutPrefix(v.Col, nullFlagPrefix)
	if !ok {
		return "", nil
	}
	s, err := val(v)
	if err != nil {
		return "", err
	}
	if s == "true" {
		return col, nil
	}
	return "", nil
}
