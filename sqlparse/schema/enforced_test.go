package schema

import (
	"reflect"
	"strings"
	"testing"
)

// TestParseSchemaNotEnforced: a CHECK declared NOT ENFORCED (MySQL 8.0.16+,
// PostgreSQL 18), or switched off by ALTER TABLE … ALTER CHECK/CONSTRAINT c
// NOT ENFORCED (MySQL), is no CHECK of the table: the engine accepts rows
// that break it. Each one is named in a warning; ENFORCED (said, or by a
// later ALTER) keeps the CHECK.
func TestParseSchemaNotEnforced(t *testing.T) {
	const create = "CREATE TABLE returns (id bigint PRIMARY KEY, qty bigint NOT NULL, CONSTRAINT c_nz CHECK (qty <> 0)"
	tests := []struct {
		name, ddl string
		checks    []string // the table's checks left
		warned    []string // checks named NOT ENFORCED in a warning
	}{
		{"table constraint", create + ", CONSTRAINT c_pos CHECK (qty > 0) NOT ENFORCED);",
			[]string{"c_nz"}, []string{"c_pos"}},
		{"table constraint ENFORCED", create + ", CONSTRAINT c_pos CHECK (qty > 0) ENFORCED);",
			[]string{"c_nz", "c_pos"}, nil},
		{"anonymous table check", create + ", CHECK (qty < 100) NOT ENFORCED);",
			[]string{"c_nz"}, []string{"returns_check1"}},
		{"column check", "CREATE TABLE returns (id bigint PRIMARY KEY, qty bigint NOT NULL CHECK (qty > 0) NOT ENFORCED, CONSTRAINT c_nz CHECK (qty <> 0));",
			[]string{"c_nz"}, []string{"returns_check1"}},
		{"named column check", "CREATE TABLE returns (id bigint PRIMARY KEY, qty bigint NOT NULL CONSTRAINT c_pos CHECK (qty > 0) NOT ENFORCED DEFAULT 1, CONSTRAINT c_nz CHECK (qty <> 0));",
			[]string{"c_nz"}, []string{"c_pos"}},
		{"added NOT ENFORCED", create + ");\nALTER TABLE returns ADD CONSTRAINT c_pos CHECK (qty > 0) NOT ENFORCED;",
			[]string{"c_nz"}, []string{"c_pos"}},
		{"ALTER CHECK NOT ENFORCED", create + ");\nALTER TABLE returns ALTER CHECK c_nz NOT ENFORCED;",
			nil, []string{"c_nz"}},
		{"ALTER CONSTRAINT NOT ENFORCED", create + ");\nALTER TABLE returns ALTER CONSTRAINT c_nz NOT ENFORCED;",
			nil, []string{"c_nz"}},
		{"enforced again", create + ", CONSTRAINT c_pos CHECK (qty > 0) NOT ENFORCED);\nALTER TABLE returns ALTER CHECK c_pos ENFORCED;",
			[]string{"c_nz", "c_pos"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse(tt.ddl)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range s.Tables["returns"].Checks {
				got = append(got, c.Name)
			}
			if !reflect.DeepEqual(got, tt.checks) {
				t.Errorf("checks %q, want %q", got, tt.checks)
			}
			var warned []string
			for _, w := range s.Warnings {
				if strings.Contains(w, "NOT ENFORCED") {
					warned = append(warned, w)
				}
			}
			if len(warned) != len(tt.warned) {
				t.Fatalf("warnings %q, want one naming each of %q", s.Warnings, tt.warned)
			}
			for i, n := range tt.warned {
				if !strings.Contains(warned[i], "CHECK "+n+" ") || !strings.Contains(warned[i], "not assumed") {
					t.Errorf("warning %q does not say CHECK %s is not assumed", warned[i], n)
				}
			}
		})
	}
}
