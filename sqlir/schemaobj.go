package sqlir

import (
	"regexp"
	"sort"
	"strings"
)

// Mentions reports whether text (lower-case SQL) names word as a whole
// identifier.
func Mentions(text, word string) bool {
	re := regexp.MustCompile(`(^|[^\w$])` + regexp.QuoteMeta(strings.ToLower(word)) + `($|[^\w$])`)
	return re.MatchString(text)
}

// WritersOf returns the tables and views a write to which may change rows
// of table: table itself, the tables with a trigger (or rule) whose code
// names table or is not known, the views whose definition names table,
// and the tables a foreign key of table refers to with a referential
// action that changes table's rows (ON DELETE SET NULL, ON UPDATE
// CASCADE, …); and so on transitively. The result is sorted, lower-case.
func (s *Schema) WritersOf(table string) []string {
	table = strings.ToLower(table)
	set := map[string]bool{table: true}
	if s != nil {
		for changed := true; changed; {
			changed = false
			for _, t := range s.Triggers {
				if set[t.Table] {
					continue
				}
				for w := range set {
					if !t.Resolved || Mentions(t.Body, w) {
						set[t.Table], changed = true, true
						break
					}
				}
			}
			for name, t := range s.Tables {
				if !set[name] {
					continue
				}
				for _, fk := range t.ForeignKeys {
					ref := strings.ToLower(fk.RefTable)
					if !set[ref] && (fk.ChangesChild("DELETE") || fk.ChangesChild("UPDATE")) {
						set[ref], changed = true, true
					}
				}
			}
			for name, v := range s.Views {
				if set[name] {
					continue
				}
				for w := range set {
					if Mentions(v.Def, w) {
						set[name], changed = true, true
						break
					}
				}
			}
		}
	}
	var out []string
	for t := range set {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}
