package frontend

import (
	"regexp"
	"strings"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
)

// PostgreSQL's transaction-scoped advisory locks.
//
// "SELECT pg_advisory_xact_lock(k)" (and its _shared form, and the
// two-key form (k1, k2)) takes a lock on the number k that the
// transaction holds until it ends; another transaction asking for the
// same number waits. It reads and writes no table. The model gives each
// lock space a table of its own that no SQL of a program names
// (sqlir.AdvisoryTable, key column id, and sqlir.AdvisoryTable2, id and
// id2), and lowers the call to a locking read of the row with that key:
// FOR UPDATE, or FOR SHARE for the shared form. The row locks of the
// concurrent model then order two requests that lock the same number,
// exactly as the server does; alone, a request only sees that the call
// may fail. Outside a transaction the lock ends with the statement: the
// call waits for a holder, and holds nothing.
//
// The session-level forms (pg_advisory_lock, released by
// pg_advisory_unlock or when the connection closes) and the try forms,
// whose boolean result the program tests, stay unsupported.

// advisoryCall matches a statement that only takes an advisory lock.
var advisoryCall = regexp.MustCompile(`(?is)^\s*select\s+(?:pg_catalog\.)?(pg_advisory_xact_lock(?:_shared)?)\s*\((.*)\)\s*;?\s*$`)

// advisoryLockSQL returns the locking read that stands for text when
// text only takes a transaction-scoped advisory lock on PostgreSQL.
func advisoryLockSQL(dialect sqlparse.Dialect, text string) (string, bool) {
	if dialect != sqlparse.Postgres {
		return "", false
	}
	m := advisoryCall.FindStringSubmatch(text)
	if m == nil {
		return "", false
	}
	args := splitTopLevel(m[2])
	mode := "FOR UPDATE"
	if strings.HasSuffix(strings.ToLower(m[1]), "_shared") {
		mode = "FOR SHARE"
	}
	switch len(args) {
	case 1:
		if m := hashTextCall.FindStringSubmatch(args[0]); m != nil {
			return hashedLockSQL(strings.ToLower(m[1]), m[2], mode)
		}
		return "SELECT 1 FROM " + sqlir.AdvisoryTable + " WHERE id = (" + args[0] + ") " + mode, true
	case 2:
		return "SELECT 1 FROM " + sqlir.AdvisoryTable2 + " WHERE id = (" + args[0] + ") AND id2 = (" + args[1] + ") " + mode, true
	}
	return "", false
}

// splitTopLevel splits s at the commas outside parentheses and quotes
// (nil when one of the parts is empty, or a parenthesis closes one s did
// not open).
func splitTopLevel(s string) []string {
	var out []string
	depth, start := 0, 0
	var quote rune
	for i, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '(':
			depth++
		case r == ')':
			depth--
			if depth < 0 {
				return nil // the call ends before the statement does
			}
		case r == ',' && depth == 0:
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	out = append(out, strings.TrimSpace(s[start:]))
	for _, p := range out {
		if p == "" {
			return nil
		}
	}
	return out
}

// hashTextCall matches a lock key that is PostgreSQL's hash of a text,
// hashtext(t) or hashtextextended(t, seed).
var hashTextCall = regexp.MustCompile(`(?is)^(?:pg_catalog\.)?(hashtext|hashtextextended)\s*\((.*)\)$`)

// hashedLockSQL returns the locking read that stands for an advisory lock
// on fn(args), fn one of PostgreSQL's text hashes.
//
// hashtext and hashtextextended are built-ins of PostgreSQL, immutable
// and strict: equal texts (and seeds) hash to equal keys, so two requests
// locking the hash of one text exclude each other. Different texts may
// collide; the model takes them as different locks (the lock space
// sqlir.AdvisoryHashText, keyed by the text itself, distinct from the
// integer keys of sqlir.AdvisoryTable). That drops exclusions a collision
// would add and keeps every schedule that is possible without one: the
// model can only over-approximate the server's schedules, so a SAFE stays
// sound. An UNSAFE schedule in which the two requests hold the locks of
// two different texts together relies on their hashes differing: true
// for all but about one pair in 2^32 (hashtext is 32 bits), and checked
// by replaying the schedule on the server.
func hashedLockSQL(fn, inner, mode string) (string, bool) {
	args := splitTopLevel(inner)
	switch {
	case fn == "hashtext" && len(args) == 1:
		return "SELECT 1 FROM " + sqlir.AdvisoryHashText + " WHERE id = (" + args[0] + ") " + mode, true
	case fn == "hashtextextended" && len(args) == 2:
		return "SELECT 1 FROM " + sqlir.AdvisoryHashTextExtended + " WHERE id = (" + args[0] + ") AND id2 = (" + args[1] + ") " + mode, true
	}
	return "", false
}

// noteOpaqueText records that v is a string the model does not compute:
// an arbitrary value, not a function of what it is made of, so two
// requests that make the same text may hold different values.
func (t *translator) noteOpaqueText(v value, where string) {
	x, ok := v.expr.(*ir.Var)
	if !ok {
		return
	}
	if t.opaqueTexts == nil {
		t.opaqueTexts = map[*ir.Var]string{}
	}
	t.opaqueTexts[x] = where
}

// lockKeyApprox marks the opaque strings among an advisory lock's
// arguments as approximations (ir.Var.Approx). Whether two requests
// exclude each other is whether their keys are equal; an opaque text
// (hashtext(ns || id) built in Go) is arbitrary in each request, so a
// schedule that needs two such keys to differ (or to be equal) is not
// shown to be possible: a counterexample through it is UNKNOWN, never
// UNSAFE. Keys the model computes (inputs, constants, column values)
// are exact: equal texts get equal codes (ir.StringCode).
func (t *translator) lockKeyApprox(args []ir.Expr) {
	for _, a := range args {
		vars := map[*ir.Var]bool{}
		ir.CollectVars(a, vars)
		for v := range vars {
			if where, ok := t.opaqueTexts[v]; ok && v.Approx == "" {
				v.Approx = "the key of an advisory lock at " + t.posString(t.pos) + ", " + where + " whose text the model does not compute (whether two requests' keys are equal is not known)"
			}
		}
	}
}
