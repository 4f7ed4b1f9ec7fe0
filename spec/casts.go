package spec

import (
	"fmt"
	"strings"

	"github.com/dbverify/dbverify/sqlir"
)

// Casts in a constraint (sqlir.Constraint.Casts): the parsed condition
// leaves a cast out — the column keeps its value — which is exact only
// where the cast does not change the value the model has for the column.
// A string column used as a number holds the canonical decimal text of a
// number in the model (as PostgreSQL's text::bigint reads it, failing on
// anything else), so a cast of a text column to a number is exact; so is
// a widening cast of a number. A cast that may round (numeric::integer),
// one to a type of another kind (dates, varchar(n), …) or one of a column
// whose type the schema does not give is refused, saying why and where.

// columnKind classifies a schema column type as the cast categories do.
func columnKind(typ string) string {
	t := strings.ToLower(typ)
	switch {
	case strings.Contains(t, "int") || strings.Contains(t, "serial"):
		return "integer"
	case strings.Contains(t, "numeric") || strings.Contains(t, "decimal"):
		return "numeric"
	case strings.Contains(t, "real") || strings.Contains(t, "float") || strings.Contains(t, "double"):
		return "float"
	case strings.Contains(t, "char") || strings.Contains(t, "text") || strings.Contains(t, "citext"):
		return "text"
	case strings.HasPrefix(t, "bool"):
		return "boolean"
	}
	return "other"
}

// exactCasts says, by target category, which column kinds keep their
// value in the model.
var exactCasts = map[string][]string{
	"integer": {"integer", "text"},
	"numeric": {"integer", "numeric", "text"},
	"float":   {"integer", "float", "text"},
	"text":    {"text"},
	"boolean": {"boolean"},
}

// checkCasts refuses a constraint whose casts are not exact (see above).
func checkCasts(text, table string, casts []sqlir.ColumnCast, schema *sqlir.Schema) error {
	for _, c := range casts {
		target := c.Type
		if target == "other" || target == "user" {
			target = "a type the model does not read as a number, text or boolean"
		}
		where := fmt.Sprintf("the cast to %s at column %d", target, c.Offset+1)
		if c.Column == "" {
			return fmt.Errorf("constraint %q: %s applies to an expression, which the model reads without the cast; write the condition over the columns themselves", text, where)
		}
		col := schemaColumn(schema, table, c.Column)
		if col == nil {
			return fmt.Errorf("constraint %q: %s needs %s's type to tell whether the cast keeps the value: give the schema (--schema)", text, where, c.Column)
		}
		kind := columnKind(col.Type)
		exact := false
		for _, k := range exactCasts[c.Type] {
			exact = exact || k == kind
		}
		if !exact {
			return fmt.Errorf("constraint %q: %s of %s (%s) may change its value, which the model does not follow; write the condition without the cast", text, where, c.Column, col.Type)
		}
	}
	return nil
}

// schemaColumn returns column name of table in schema (nil if unknown).
func schemaColumn(schema *sqlir.Schema, table, name string) *sqlir.Column {
	t := schemaTable(schema, table)
	if t == nil {
		return nil
	}
	for i := range t.Columns {
		if strings.EqualFold(t.Columns[i].Name, name) {
			return &t.Columns[i]
		}
	}
	return nil
}

// TextComparedWithNumber returns, for the first row check of props that
// compares a text column (not cast) with a number, a message saying so:
// PostgreSQL has no text >= integer operator and rejects such a
// condition, so on PostgreSQL it is not the property the user means.
func TextComparedWithNumber(props []Property, schema *sqlir.Schema) string {
	for _, p := range props {
		rc, ok := p.(*RowCheck)
		if !ok || rc.Name != "" {
			continue
		}
		cast := map[string]bool{}
		for _, c := range rc.casts {
			cast[c.Column] = true
		}
		var msg string
		sqlir.Rewrite(rc.Written(), func(e sqlir.Expr) (sqlir.Expr, bool) {
			b, ok := e.(*sqlir.Binary)
			if !ok || msg != "" || !b.Op.IsComparison() {
				return nil, false
			}
			for _, side := range [][2]sqlir.Expr{{b.X, b.Y}, {b.Y, b.X}} {
				col, isCol := side[0].(*sqlir.ColRef)
				if _, isNum := side[1].(*sqlir.Num); !isCol || !isNum || cast[strings.ToLower(col.Name)] {
					continue
				}
				if c := schemaColumn(schema, rc.Table, col.Name); c != nil && columnKind(c.Type) == "text" {
					msg = fmt.Sprintf("constraint %q compares the text column %s with a number, which PostgreSQL rejects (operator does not exist: text %s numeric); write the cast the program means, e.g. %s.%s::bigint",
						rc.Text, col.Name, b.Op, rc.Table, col.Name)
				}
			}
			return nil, false
		})
		if msg != "" {
			return msg
		}
	}
	return ""
}
