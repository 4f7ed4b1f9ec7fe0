package pipeline

import (
	"fmt"
	"strings"

	"github.com/dbverify/dbverify/frontend"
	"github.com/dbverify/dbverify/sqlir"
)

// Schema objects the analysed code creates, and relations --schema does
// not declare (adv16 gap_runtime_trigger). A trigger or view that a Go
// string creates (a start-up migration) is as real as one in --schema:
// it joins the run's schema, so that the writes that fire the trigger,
// or write through the view, are UNKNOWN exactly as for the schema's own
// ("triggers are not modelled"), and the entries that only write its
// table are found as writers of the tables it changes. Each one is also a
// run-wide warning, which a suppression of the migration's own result
// does not silence.

// withCodeObjects returns schema with the objects the code creates that
// it does not declare (a schema of no tables when schema is nil and the
// code creates some), and a warning for each.
func withCodeObjects(schema *sqlir.Schema, objs frontend.CodeObjects) (*sqlir.Schema, []string) {
	var warnings []string
	for _, u := range objs.Unread {
		warnings = append(warnings, "SQL that creates a trigger, rule or view could not be read at "+u+": what it creates is not known to the analysis")
	}
	if len(objs.Triggers) == 0 && len(objs.Views) == 0 {
		return schema, warnings
	}
	if schema == nil {
		schema = &sqlir.Schema{Tables: map[string]*sqlir.Table{}}
	}
	if schema.Views == nil {
		schema.Views = map[string]*sqlir.View{}
	}
	for _, t := range objs.Triggers {
		if declaresTrigger(schema, t) {
			continue
		}
		schema.Triggers = append(schema.Triggers, t)
		warnings = append(warnings, fmt.Sprintf("trigger %s on %s is created by SQL at %s, not by --schema: writes to %s are UNKNOWN where it may change a constrained table (triggers are not modelled)",
			t.Name, t.Table, t.Pos, t.Table))
	}
	for _, v := range objs.Views {
		if _, ok := schema.Views[v.Name]; ok {
			continue
		}
		schema.Views[v.Name] = v
		warnings = append(warnings, fmt.Sprintf("view %s is created by SQL at %s, not by --schema: writes through it are UNKNOWN where it reads a constrained table (writes through views are not modelled)",
			v.Name, v.Pos))
	}
	return schema, warnings
}

// declaresTrigger reports whether schema has trigger t (its name, on its
// table).
func declaresTrigger(schema *sqlir.Schema, t sqlir.Trigger) bool {
	for _, s := range schema.Triggers {
		if strings.EqualFold(s.Name, t.Name) && strings.EqualFold(s.Table, t.Table) {
			return true
		}
	}
	return false
}

// undeclaredWrites returns a warning for each relation that SQL of the
// code writes but schema declares as neither a table nor a view (a view
// in production, a misspelt name), naming where it is first written.
func undeclaredWrites(schema *sqlir.Schema, writes []frontend.RelationWrite) []string {
	var out []string
	seen := map[string]int{}
	first := map[string]string{}
	var order []string
	for _, w := range writes {
		if schema.Tables[w.Relation] != nil || schema.Views[w.Relation] != nil {
			continue
		}
		if seen[w.Relation] == 0 {
			order = append(order, w.Relation)
			first[w.Relation] = w.Pos
		}
		seen[w.Relation]++
	}
	for _, r := range order {
		more := ""
		if n := seen[r] - 1; n > 0 {
			more = fmt.Sprintf(" (and %d more)", n)
		}
		out = append(out, fmt.Sprintf("%s is written by SQL at %s%s but --schema declares no such table or view (a view or table created elsewhere, or a misspelt name): what the database does on writes to it (its triggers, the tables a view writes) is not known to the analysis",
			r, first[r], more))
	}
	return out
}
