package pipeline

import (
	"github.com/dbverify/dbverify/report"
	"github.com/dbverify/dbverify/spec"
	"github.com/dbverify/dbverify/sqlir"
)

// markDatabaseChecks records on each UNSAFE result whose constraint the
// schema also declares as a CHECK that the database would reject the
// violating statement (report.DatabaseCheck); the verdict stands.
func markDatabaseChecks(results []*report.Result, props []spec.Property, schema *sqlir.Schema, dialect string) {
	if schema == nil {
		return
	}
	checks := map[string]*report.DatabaseCheck{}
	for _, p := range props {
		rc, ok := p.(*spec.RowCheck)
		if !ok {
			continue
		}
		if ck, ok := rc.SchemaCheck(schema); ok {
			checks[p.Label()] = &report.DatabaseCheck{Name: spec.CheckName(ck, dialect), Condition: ck.Text, Error: checkViolation(dialect)}
		}
	}
	for _, r := range results {
		if d, ok := checks[r.Constraint]; ok && r.Verdict == report.Unsafe {
			r.DatabaseCheck = d
		}
	}
}

// checkFactName is the name a report gives a schema CHECK assumed on
// entry: the database's own (spec.CheckName), as the database line of an
// UNSAFE names it, else the schema loader's.
func checkFactName(f *spec.TableFact, dialect string) string {
	if name := spec.CheckName(sqlir.Constraint{Name: f.Name, Table: f.Table, Expr: f.Expr}, dialect); name != "" {
		return name
	}
	return f.Name
}

// checkViolation is the error the dialect's engine returns for a
// statement a CHECK rejects.
func checkViolation(dialect string) string {
	switch dialect {
	case "postgres":
		return "SQLSTATE 23514"
	case "mysql":
		return "error 4025 on MariaDB, 3819 on MySQL"
	case "sqlite":
		return "SQLITE_CONSTRAINT_CHECK (275)"
	}
	return ""
}
