package frontend

import (
	"fmt"
	"hash/fnv"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

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

// A prefixedDecimal is a string built in Go as a constant prefix followed
// by the decimal text of an integer ("wallet:" + strconv.FormatInt(id,
// 10)). For a prefix that does not end in a digit or '-', the string
// determines both: its decimal text is its longest ending of the form
// -?[0-9]+. Two such strings are equal exactly when their prefixes and
// their integers are.
type prefixedDecimal struct {
	prefix string
	n      ir.Expr
}

// notePrefixedDecimal records v = x + y as a prefixedDecimal when x is a
// known prefix that ends in neither a digit nor '-' and y is
// strconv.Itoa(n) or strconv.FormatInt(n, 10). The integer is taken from
// the call's argument: the call's result is a pure call's value (one per
// run, see pureFuncs), arbitrary in each request.
func (t *translator) notePrefixedDecimal(f *frame, v value, i *ssa.BinOp, x value) {
	vv, ok := v.expr.(*ir.Var)
	if !ok || !x.strKnown || x.str == "" || strings.ContainsAny(x.str[len(x.str)-1:], "0123456789-") {
		return
	}
	arg, ok := decimalCallArg(i.Y)
	if !ok {
		return
	}
	n := t.val(f, arg).expr
	if n == nil || n.Sort() != ir.Int {
		return
	}
	if t.prefixedDecimals == nil {
		t.prefixedDecimals = map[*ir.Var]prefixedDecimal{}
	}
	t.prefixedDecimals[vv] = prefixedDecimal{prefix: x.str, n: n}
}

// decimalCallArg returns n when v is the result of strconv.Itoa(n) or
// strconv.FormatInt(n, 10).
func decimalCallArg(v ssa.Value) (ssa.Value, bool) {
	c, ok := v.(*ssa.Call)
	if !ok {
		return nil, false
	}
	fn := c.Call.StaticCallee()
	if fn == nil {
		return nil, false
	}
	switch fn.String() {
	case "strconv.Itoa":
		return c.Call.Args[0], true
	case "strconv.FormatInt":
		if k, ok := c.Call.Args[1].(*ssa.Const); ok && k.Int64() == 10 {
			return c.Call.Args[0], true
		}
	}
	return nil, false
}

// hashedKeyLock matches the locking read that stands for a lock on
// hashtext($k) (hashedLockSQL).
var hashedKeyLock = regexp.MustCompile(`^SELECT 1 FROM ` + sqlir.AdvisoryHashText + ` WHERE id = \(\$(\d+)\) (FOR \w+)$`)

// exactLockKey rewrites the lock on hashtext($k) whose argument is a
// prefixedDecimal into a lock of the prefix's own space keyed by the
// integer: exact, as the text is equal exactly where the prefix and the
// integer are (a space per prefix; the prefix is hashed into the space's
// name, sqlir.AdvisoryPrefixedSpace). Other locks are left as they are.
func (t *translator) exactLockKey(query string, args []ir.Expr) (string, []ir.Expr) {
	m := hashedKeyLock.FindStringSubmatch(query)
	if m == nil {
		return query, args
	}
	k, err := strconv.Atoi(m[1])
	if err != nil || k < 1 || k > len(args) {
		return query, args
	}
	v, ok := args[k-1].(*ir.Var)
	if !ok {
		return query, args
	}
	pd, ok := t.prefixedDecimals[v]
	if !ok {
		return query, args
	}
	h := fnv.New64a()
	h.Write([]byte(pd.prefix))
	space := sqlir.AdvisoryPrefixedSpace + fmt.Sprintf("%016x", h.Sum64())
	out := append([]ir.Expr(nil), args...)
	out[k-1] = pd.n
	return "SELECT 1 FROM " + space + " WHERE id = ($" + m[1] + ") " + m[2], out
}
