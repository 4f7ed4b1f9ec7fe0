package pipeline

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/report"
	"github.com/dbverify/dbverify/spec"
	"github.com/dbverify/dbverify/sqlir"
)

// A reference the schema declares as a FOREIGN KEY over a NOT NULL column
// (spec.Reference.Declared) is kept by the engine where it enforces the
// key: every write that would break it fails (or, by the key's
// referential action, changes the referencing rows so that it holds),
// whatever the program does and however requests interleave —
// PostgreSQL's and InnoDB's checks lock the rows they examine. The
// result is SAFE by the engine, not by the row model; where the engine
// may not enforce the key it is UNKNOWN with the reason.

// ProofEnforcedFK prefixes the proof of a reference the engine enforces.
const ProofEnforcedFK = "enforced by the schema's FOREIGN KEY"

// fkOff matches SQL that may turn the engine's foreign-key checks off or
// remove the key: MySQL's foreign_key_checks, PostgreSQL's
// session_replication_role (replica skips the checks' triggers) and
// DISABLE TRIGGER, a DROP of a constraint or a foreign key.
var fkOff = regexp.MustCompile(`(?i)\bforeign_key_checks\b|\bsession_replication_role\b|\bdisable\s+trigger\b|\bdrop\s+(constraint|foreign\s+key)\b`)

// enforcedReference sets r to the verdict on ref, a reference the schema
// declares as a FOREIGN KEY, under dialect, for progs (the entry's
// program, and with --concurrent those of its peers).
func enforcedReference(r *report.Result, ref *spec.Reference, dialect string, schema *sqlir.Schema, progs ...*ir.Program) *report.Result {
	fk := ref.Declared
	key := fmt.Sprintf("%s (%s) REFERENCES %s (%s)", ref.Table, ref.Column, ref.RefTable, ref.RefColumn)
	if why := notEnforced(fk, key, dialect, schema, ref); why != "" {
		r.Verdict, r.Reason = report.Unknown, why+"; the engine's foreign-key checks and referential actions are not modelled"
		return r
	}
	for _, p := range progs {
		if at, text := disablesFK(p); text != "" {
			r.Verdict, r.Position = report.Unknown, at.Position()
			r.Reason = fmt.Sprintf("the schema's FOREIGN KEY %s keeps the condition, but %q at %s may turn the engine's foreign-key checks off or drop the key", key, text, at.Position())
			return r
		}
	}
	r.Verdict = report.Safe
	r.Proof = fmt.Sprintf("%s %s (%s, %s): the engine refuses a write that would break it, or applies the key's action, also between concurrent requests", ProofEnforcedFK, key, fk.ActionText("DELETE"), fk.ActionText("UPDATE"))
	enforcer := "PostgreSQL enforces it (no session_replication_role = replica, no disabled trigger)"
	if dialect == "mysql" {
		enforcer = "InnoDB enforces it (foreign_key_checks = 1, the default)"
	}
	r.Assumptions = append(r.Assumptions, "the database holds the schema's FOREIGN KEY "+key+" and "+enforcer)
	return r
}

// enforcedConcurrent is the --concurrent verdict on ref, SAFE alone
// (seq) by the engine's enforcement of the key: the engine keeps it
// between requests too, unless a peer's SQL turns its checks off.
func enforcedConcurrent(seq *report.Result, ref *spec.Reference, peers []job) *report.Result {
	seq.Concurrency = &report.Concurrency{Scope: report.ScopeProved}
	for _, p := range peers {
		if at, text := disablesFK(p.prog); text != "" {
			seq.Verdict, seq.Proof, seq.Position = report.Unknown, "", at.Position()
			seq.Reason = fmt.Sprintf("the schema's FOREIGN KEY keeps %s, but %s runs %q at %s, which may turn the engine's foreign-key checks off or drop the key", ref.Text, shortName(p.entry), text, at.Position())
			seq.Concurrency.Scope = report.ScopeSequential
			return seq
		}
	}
	return seq
}

// notEnforced says why the engine of dialect may not enforce fk ("" when
// it does).
func notEnforced(fk *sqlir.ForeignKey, key, dialect string, schema *sqlir.Schema, ref *spec.Reference) string {
	switch dialect {
	case "postgres":
		return ""
	case "mysql":
		if fk.Inline {
			return fmt.Sprintf("the schema declares %s as %s.%s's own REFERENCES clause, which MySQL up to 8.4 parses and creates no key for (MariaDB and MySQL 9 create it; FOREIGN KEY (%s) REFERENCES %s (%s) is a key on every version)", key, ref.Table, ref.Column, ref.Column, ref.RefTable, ref.RefColumn)
		}
		for _, n := range []string{ref.Table, ref.RefTable} {
			if t := schema.Tables[n]; t != nil && t.Engine != "" && t.Engine != "innodb" {
				return fmt.Sprintf("table %s is ENGINE=%s, which enforces no foreign key (%s)", t.Name, t.Engine, key)
			}
		}
		return ""
	case "sqlite":
		return fmt.Sprintf("SQLite enforces the schema's FOREIGN KEY %s only on a connection that set PRAGMA foreign_keys = ON (modernc.org/sqlite: _pragma=foreign_keys(1); mattn/go-sqlite3: _foreign_keys=1), which dbverify does not see", key)
	}
	return fmt.Sprintf("the SQL dialect is not known, nor whether its engine enforces the schema's FOREIGN KEY %s", key)
}

// disablesFK returns the first statement of p whose SQL may turn the
// foreign-key checks off (fkOff), and its text ("" if none): one the
// model reads as another statement, or one the front end left
// unsupported (MySQL's SET). (A session setting run on the pool stays on
// the connection, which may serve any later request.)
func disablesFK(p *ir.Program) (ir.Info, string) {
	for _, u := range p.Unsupported {
		if fkOff.MatchString(u.What) {
			return u.Info, fkOff.FindString(u.What)
		}
	}
	for _, e := range p.Edges {
		x, ok := e.Stmt.(*ir.Exec)
		if !ok {
			continue
		}
		if o, ok := x.SQL.(*sqlir.Other); ok && fkOff.MatchString(o.Text) {
			return x.Info, strings.TrimSpace(o.Text)
		}
	}
	return ir.Info{}, ""
}
