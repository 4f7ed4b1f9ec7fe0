package witness

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/dbverify/dbverify/sqlparse"
)

// EngineCheck is a CHECK constraint as the engine's catalog lists it.
type EngineCheck struct {
	Table, Name string
	// Def is the condition as the engine prints it.
	Def string
}

// TableChecks lists the CHECK constraints of table.
func TableChecks(ctx context.Context, ex Executor, d sqlparse.Dialect, table string) ([]EngineCheck, error) {
	var q string
	if d == sqlparse.SQLite {
		// SQLite keeps CHECKs in the table's CREATE text and cannot drop one.
		return nil, fmt.Errorf("SQLite cannot drop the CHECK of %s (ALTER TABLE … DROP CONSTRAINT)", table)
	}
	if d == sqlparse.Postgres {
		q = fmt.Sprintf("SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE contype = 'c' AND conrelid = '%s'::regclass", strings.ReplaceAll(table, "'", "''"))
	} else {
		q = fmt.Sprintf("SELECT CONSTRAINT_NAME, CHECK_CLAUSE FROM information_schema.CHECK_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE() AND TABLE_NAME = '%s'", strings.ReplaceAll(table, "'", "''"))
	}
	res, err := ex.Query(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("listing the CHECKs of %s: %w", table, err)
	}
	var out []EngineCheck
	for _, r := range res.Rows {
		out = append(out, EngineCheck{Table: table, Name: r[0], Def: r[1]})
	}
	return out, nil
}

var word = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// SuspendCheck drops the engine's CHECK that is the constraint c (by name,
// else the CHECK over exactly c's columns), so that a run can break c and
// the break be seen: dbverify verifies a schema CHECK as a constraint the
// program must keep, not as one the database enforces. restore empties
// the database's tables first (they may break it now) and adds it back.
func SuspendCheck(ctx context.Context, ex Executor, d sqlparse.Dialect, s *Schema, c *Constraint, name string) (restore func() error, err error) {
	checks, err := TableChecks(ctx, ex, d, c.Table)
	if err != nil {
		return nil, err
	}
	var hit *EngineCheck
	for i, k := range checks {
		if strings.EqualFold(k.Name, name) {
			hit = &checks[i]
			break
		}
	}
	if hit == nil {
		want := map[string]bool{}
		for _, col := range c.Columns {
			want[col] = true
		}
		for i, k := range checks {
			got := map[string]bool{}
			for _, w := range word.FindAllString(strings.ToLower(k.Def), -1) {
				if columnOf(s, c.Table, w) {
					got[w] = true
				}
			}
			if len(got) == len(want) && subsetOf(want, got) {
				hit = &checks[i]
				break
			}
		}
	}
	if hit == nil {
		return nil, fmt.Errorf("no CHECK of %s is the constraint %s", c.Table, c.Text)
	}
	if err := ex.Exec(ctx, fmt.Sprintf("ALTER TABLE %s DROP CONSTRAINT %s", c.from(), quoteIdent(d, hit.Name))); err != nil {
		return nil, fmt.Errorf("dropping CHECK %s: %w", hit.Name, err)
	}
	def := hit.Def
	if d != sqlparse.Postgres {
		def = "CHECK (" + def + ")"
	}
	return func() error {
		if err := Reset(ctx, ex, d, s); err != nil {
			return err
		}
		return ex.Exec(ctx, fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT %s %s", c.from(), quoteIdent(d, hit.Name), def))
	}, nil
}

func columnOf(s *Schema, table, col string) bool {
	t := s.Table(table)
	if t == nil {
		return false
	}
	for _, c := range t.Columns {
		if strings.EqualFold(c.Name, col) {
			return true
		}
	}
	return false
}

func subsetOf(a, b map[string]bool) bool {
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

func quoteIdent(d sqlparse.Dialect, n string) string {
	if d == sqlparse.Postgres {
		return `"` + strings.ReplaceAll(n, `"`, `""`) + `"`
	}
	return "`" + strings.ReplaceAll(n, "`", "``") + "`"
}
