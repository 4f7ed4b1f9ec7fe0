package mysql

import (
	"testing"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/internal/sqltest"
)

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
		r, err := Parse(q)
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
				sqltest.CheckParams(t, q, a.Value, n)
			}
			sqltest.CheckParams(t, q, s.Where, n)
		case *sqlir.Insert:
			for _, row := range s.Rows {
				for _, v := range row {
					sqltest.CheckParams(t, q, v, n)
				}
			}
			for _, a := range s.OnConflict {
				sqltest.CheckParams(t, q, a.Value, n)
			}
		case *sqlir.Delete:
			sqltest.CheckParams(t, q, s.Where, n)
		case *sqlir.Select:
			for _, c := range s.Columns {
				sqltest.CheckParams(t, q, c.Expr, n)
			}
			sqltest.CheckParams(t, q, s.Where, n)
			_ = s.Tables()
		}
	})
}
