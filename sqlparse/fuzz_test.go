package sqlparse

import (
	"testing"

	"github.com/dbverify/dbverify/sqlir"
)

// checkParams asserts every placeholder index in e is below n.
func checkParams(t *testing.T, q string, e sqlir.Expr, n int) {
	for _, p := range paramsOf(e) {
		if p < 0 || p >= n {
			t.Fatalf("%q: parameter index %d out of range (NumParams %d)", q, p, n)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"UPDATE accounts a SET a.balance = a.balance - ? WHERE a.id = ? LIMIT ?",
		"INSERT INTO t (a, b) VALUES (?, :x) ON DUPLICATE KEY UPDATE b = VALUES(b)",
		"INSERT INTO t (a, b) VALUES (:x, :y) ON DUPLICATE KEY UPDATE b = VALUES(b) + :x",
		"DELETE a FROM a JOIN b ON a.id = b.id WHERE b.x IN (?, ?)",
		"SELECT COUNT(*), x FROM t WHERE y BETWEEN ? AND ? GROUP BY x FOR UPDATE SKIP LOCKED",
		"SELECT GREATEST(a, ?, b, ?) FROM t WHERE (a, b) IN ((?, 1), (2, ?))",
		"select 'x' from dual where a is not true and b <=> ?",
		"ROLLBACK", "COMMIT WORK", "SET x = 1", "UPDATE a, b SET a.x = b.y",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		r, err := ParseDetailed(MySQL, q)
		if err != nil {
			return
		}
		if r.ParamNames != nil && len(r.ParamNames) != r.NumParams {
			t.Fatalf("%q: %d names for %d params", q, len(r.ParamNames), r.NumParams)
		}
		n := r.NumParams
		switch s := r.Stmt.(type) {
		case *sqlir.Update:
			for _, a := range s.Set {
				checkParams(t, q, a.Value, n)
			}
			checkParams(t, q, s.Where, n)
		case *sqlir.Insert:
			for _, row := range s.Rows {
				for _, v := range row {
					checkParams(t, q, v, n)
				}
			}
			for _, a := range s.OnConflict {
				checkParams(t, q, a.Value, n)
			}
		case *sqlir.Delete:
			checkParams(t, q, s.Where, n)
		case *sqlir.Select:
			for _, c := range s.Columns {
				checkParams(t, q, c.Expr, n)
			}
			checkParams(t, q, s.Where, n)
			_ = s.Tables()
		}
	})
}

func FuzzParseConstraint(f *testing.F) {
	for _, s := range []string{"accounts.balance >= 0", "a BETWEEN 1 AND 2 OR b IN (1, 2)", "x >=", "CASE WHEN a THEN 1 END = 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		c, err := ParseConstraint(text, "t")
		if err != nil {
			return
		}
		// Formatting must not fail and must reparse.
		s := Format(c.Expr)
		if _, err := ParseConstraint(s, "t"); err != nil {
			t.Fatalf("%q formats as %q which does not parse: %v", text, s, err)
		}
	})
}

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
		_, _ = ParseSchema(ddl)
	})
}
