package spec

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
)

// Program is what spec needs to know of the analysed program's SQL
// (frontend.Loaded implements it).
type Program interface {
	// Tables returns every table the program's SQL reads or writes.
	Tables() []string
	// Columns returns the columns of table the SQL names, lower-cased
	// and sorted, and whether some statement may touch columns it does
	// not name.
	Columns(table string) (named []string, all bool)
	// RunsUnknownSQL reports whether the program runs SQL whose text is
	// not known.
	RunsUnknownSQL() bool
}

// ErrNoProperty is returned by Resolve when there is nothing to check:
// no --constraint and a schema without CHECK constraints.
var ErrNoProperty = errors.New("no property")

// Resolve parses the --constraint conditions, over table when it is not
// "" and, for one that qualifies no column, over the table guessTable
// finds. A condition that is not over one row (a subquery, an aggregate)
// becomes a Reference when it is one (parseReference), else an
// Unsupported property on the tables it names, with the reason. With no condition it returns the schema's CHECK constraints
// (FromSchema; ErrNoProperty if there are none).
func Resolve(texts []string, table string, schema *sqlir.Schema, prog Program) ([]Property, error) {
	var out []Property
	for _, text := range texts {
		c, err := ParseRowCheck(text, table)
		if err != nil && table == "" {
			// Bare columns: see guessTable.
			if t := guessTable(text, prog, schema); t != "" {
				c, err = ParseRowCheck(text, t)
			}
		}
		if errors.Is(err, sqlparse.ErrNotOneRow) {
			ref, rerr := parseReference(text, table, schema)
			if rerr == nil {
				out = append(out, ref)
				continue
			}
			reason := err
			if errors.Is(rerr, sqlparse.ErrNotOneRow) {
				reason = rerr
			}
			if tables := namedTables(text, prog, schema); len(tables) > 0 {
				out = append(out, &Unsupported{Text: text, Reason: unwrapped(reason), On: tables})
				continue
			}
		}
		if err != nil {
			return nil, err
		}
		if err := checkCasts(text, c.Table, c.casts, schema); err != nil {
			return nil, err
		}
		c.nullSafe(schema)
		out = append(out, c)
	}
	if len(out) == 0 && schema != nil {
		out = FromSchema(schema)
		if len(out) == 0 {
			return nil, ErrNoProperty
		}
	}
	return out, nil
}

// unwrapped is the innermost message of err (without the constraint's
// text, which the result names already).
func unwrapped(err error) string {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err.Error()
		}
		err = next
	}
}

// guessTable returns the table of a condition that names no table: the
// only table the program's SQL uses, if it uses one; else the only one
// of them that may have every column the condition names (by the
// schema's declaration, or the columns the SQL names when the schema does
// not declare it). "" when there is no such table, or several.
func guessTable(text string, prog Program, schema *sqlir.Schema) string {
	tables := prog.Tables()
	if len(tables) == 1 {
		return tables[0]
	}
	// Parse over a table the condition does not name, only to read its
	// column names.
	c, err := sqlparse.ParseConstraint(text, "guessed")
	if err != nil || !strings.EqualFold(c.Table, "guessed") {
		return ""
	}
	cols := columnsOf(c.Expr)
	found := ""
	for _, t := range tables {
		if !hasColumns(t, cols, prog, schema) {
			continue
		}
		if found != "" {
			return "" // two tables have them all: ambiguous
		}
		found = t
	}
	return found
}

// hasColumns reports whether table may have every column of cols: as the
// schema declares it, else as the program's SQL names it (any column,
// when the SQL may touch columns it does not name).
func hasColumns(table string, cols []string, prog Program, schema *sqlir.Schema) bool {
	var have []string
	if t := schemaTable(schema, table); t != nil {
		for _, c := range t.Columns {
			have = append(have, strings.ToLower(c.Name))
		}
	} else {
		named, all := prog.Columns(table)
		if all {
			return true
		}
		have = named
	}
	for _, c := range cols {
		if !slices.Contains(have, c) {
			return false
		}
	}
	return true
}

// columnsOf returns the lower-case column names e reads, sorted and
// without duplicates.
func columnsOf(e sqlir.Expr) []string {
	var out []string
	sqlir.Rewrite(e, func(x sqlir.Expr) (sqlir.Expr, bool) {
		if c, ok := x.(*sqlir.ColRef); ok {
			out = append(out, strings.ToLower(c.Name))
		}
		return nil, false
	})
	slices.Sort(out)
	return slices.Compact(out)
}

// schemaTable returns the schema's declaration of table (nil: none).
func schemaTable(schema *sqlir.Schema, table string) *sqlir.Table {
	if schema == nil {
		return nil
	}
	return schema.Tables[strings.ToLower(table)]
}

// errorf formats an error of a property named by its text.
func errorf(text, format string, args ...any) error {
	return fmt.Errorf("constraint %q: "+format, append([]any{text}, args...)...)
}
