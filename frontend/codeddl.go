package frontend

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/dbverify/dbverify/sqlir"
	sqlschema "github.com/dbverify/dbverify/sqlparse/schema"
)

// DDL the program runs itself (a start-up migration's CREATE TRIGGER in
// a Go string): what it creates exists in production though --schema may
// not say so. CodeObjects reads the triggers, rules and views that the
// SQL of the module's call sites creates, each placed at its call's
// file:line, so that the pipeline treats them as the schema's own
// (writes that fire a trigger, writes through a view: UNKNOWN).

// createsObject matches SQL that creates a trigger, a rule or a view.
var createsObject = regexp.MustCompile(`(?is)\bcreate\s[^;]*?\b(trigger|rule|view)\b`)

// CodeObjects are the schema objects that SQL of the module creates.
type CodeObjects struct {
	Triggers []sqlir.Trigger
	Views    []*sqlir.View
	// Unread are the "file:line: reason" of SQL that creates one but that
	// the schema reader could not read.
	Unread []string
}

// CodeObjects returns the triggers, rules and views that the SQL text of
// the module's call sites creates.
func (l *Loaded) CodeObjects() CodeObjects {
	var out CodeObjects
	for _, s := range l.sitesInOrder() {
		if !s.Known || !createsObject.MatchString(s.Query) {
			continue
		}
		pos := fmt.Sprintf("%s:%d", s.File, s.Line)
		parsed, err := sqlschema.Parse(s.Query)
		if err != nil {
			out.Unread = append(out.Unread, fmt.Sprintf("%s: %v", pos, err))
			continue
		}
		for _, t := range parsed.Triggers {
			t.Pos = pos
			out.Triggers = append(out.Triggers, t)
		}
		for _, name := range slices.Sorted(maps.Keys(parsed.Views)) {
			v := *parsed.Views[name]
			v.Pos = pos
			out.Views = append(out.Views, &v)
		}
	}
	return out
}

// RelationWrite is a write of SQL of the module to a table or view.
type RelationWrite struct {
	Relation string // lower-case, as the SQL names it (unqualified)
	Pos      string // file:line of the call
}

// RelationWrites returns the writes of the module's SQL with known text,
// in the order of their positions.
func (l *Loaded) RelationWrites() []RelationWrite {
	var out []RelationWrite
	for _, s := range l.sitesInOrder() {
		if s.Stmt == nil || !sqlir.IsWrite(s.Stmt) {
			continue
		}
		for _, t := range s.Stmt.Tables() {
			name := strings.ToLower(t)
			if i := strings.LastIndex(name, "."); i >= 0 {
				name = name[i+1:]
			}
			out = append(out, RelationWrite{Relation: name, Pos: fmt.Sprintf("%s:%d", s.File, s.Line)})
		}
	}
	return out
}

// sitesInOrder returns the SQL call sites by file and line.
func (l *Loaded) sitesInOrder() []*Site {
	out := make([]*Site, 0, len(l.sites))
	for _, s := range l.sites {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		if out[i].Line != out[j].Line {
			return out[i].Line < out[j].Line
		}
		return out[i].Query < out[j].Query
	})
	return out
}
