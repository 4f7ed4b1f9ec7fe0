package frontend

import (
	"regexp"
	"strings"

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
