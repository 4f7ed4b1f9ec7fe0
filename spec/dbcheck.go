package spec

import (
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
)

// SchemaCheck returns the schema's CHECK on c's table that states c's
// condition (c itself, when c is a schema CHECK): the database rejects a
// statement that would leave a row breaking it. Conditions are compared
// as written, column names unqualified and case aside.
func (c *RowCheck) SchemaCheck(schema *sqlir.Schema) (sqlir.Constraint, bool) {
	t := schemaTable(schema, c.Table)
	if t == nil {
		return sqlir.Constraint{}, false
	}
	want := conditionKey(c.Written())
	for _, ck := range t.Checks {
		if ck.Expr != nil && conditionKey(ck.Expr) == want {
			return ck, true
		}
	}
	return sqlir.Constraint{}, false
}

// conditionKey is e printed with its column references unqualified and
// lower-case: equal keys, the same condition.
func conditionKey(e sqlir.Expr) string {
	e = sqlir.Rewrite(e, func(x sqlir.Expr) (sqlir.Expr, bool) {
		if c, ok := x.(*sqlir.ColRef); ok {
			return &sqlir.ColRef{Name: strings.ToLower(c.Name)}, true
		}
		return nil, false
	})
	return sqlparse.Format(e)
}

// CheckName is the name the database knows a schema CHECK by: its
// declared name; for an unnamed one (the schema loader calls it
// table_checkN) in PostgreSQL the name Postgres gives it
// (table_column_check over one column, table_check otherwise); "" when
// the dialect's generated name cannot be told from the DDL.
func CheckName(ck sqlir.Constraint, dialect string) string {
	table := strings.ToLower(ck.Table)
	if i := strings.LastIndexByte(table, '.'); i >= 0 {
		table = table[i+1:]
	}
	if ck.Name != "" && !ir.IsDigits(strings.TrimPrefix(strings.ToLower(ck.Name), strings.ToLower(ck.Table)+"_check")) {
		return ck.Name
	}
	if dialect != "postgres" {
		return ""
	}
	if cols := columnsOf(ck.Expr); len(cols) == 1 {
		return table + "_" + cols[0] + "_check"
	}
	return table + "_check"
}
