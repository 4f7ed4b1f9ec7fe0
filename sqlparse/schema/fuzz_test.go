package schema

import "testing"

func FuzzParseSchema(f *testing.F) {
	for _, s := range []string{
		"CREATE TABLE t (a int PRIMARY KEY, b int CHECK (b > a), UNIQUE (a, b)); ALTER TABLE t DROP COLUMN a",
		"-- +goose Up\nCREATE TABLE t (x serial);\n-- +goose Down\nDROP TABLE t;",
		"DELIMITER //\nCREATE TABLE t (a int)//\nDELIMITER ;\nALTER TABLE t RENAME TO u, ADD (c int)",
		"CREATE TABLE public.w (\"a\" numeric CHECK ((\"a\" >= (0)::numeric)), s text CHECK (s = ANY (ARRAY['x'::text])))",
		"CREATE UNIQUE INDEX i ON t USING btree (a, b); DROP INDEX i; RENAME TABLE a TO b",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, ddl string) {
		_, _ = Parse(ddl)
	})
}
