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
			checks[p.Label()] = &report.DatabaseCheck{Name: spec.CheckName(ck, dialect), Condition: ck.Text}
		}
	}
	for _, r := range results {
		if d, ok := checks[r.Constraint]; ok && r.Verdict == report.Unsafe {
			r.DatabaseCheck = d
		}
	}
}
