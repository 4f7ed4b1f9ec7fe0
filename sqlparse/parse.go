package sqlparse

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/xwb1989/sqlparser"

	"github.com/dbverify/dbverify/sqlir"
)

// Result is a parsed statement with facts about its placeholders.
type Result struct {
	Stmt sqlir.Statement
	// NumParams is the number of parameters: Param indexes run from 0 to
	// NumParams-1, and a Go call must bind this many arguments.
	NumParams int
	// ParamNames[i] is the name (without ':') of parameter i when the query
	// uses named placeholders; nil for "?" and Postgres "$n" placeholders.
	// For Postgres NumParams is the highest n of any "$n" in the query
	// (wherever it occurs, LIMIT included), and $n is parameter n-1.
	ParamNames []string
}

// Parse parses one SQL statement (a trailing ';' is allowed) in dialect d.
//
// UPDATE, INSERT, DELETE and SELECT become *sqlir.Update, *sqlir.Insert,
// *sqlir.Delete and *sqlir.Select; BEGIN / START TRANSACTION, COMMIT and
// ROLLBACK become *sqlir.TxControl; statements that cannot change rows (DDL,
// SET, SHOW, SAVEPOINT, …) become *sqlir.Other. Errors are *ParseError for
// syntax errors, *UnsupportedError for statements that may write rows in a
// way the IR cannot express, and plain errors otherwise. The package
// documentation lists what each dialect maps where.
func Parse(d Dialect, query string) (sqlir.Statement, error) {
	r, err := ParseDetailed(d, query)
	if err != nil {
		return nil, err
	}
	return r.Stmt, nil
}

// ParseDetailed is Parse that also reports the placeholders.
func ParseDetailed(d Dialect, query string) (res *Result, err error) {
	defer recoverParser(&err)
	switch d {
	case MySQL:
		return parseMySQL(d, query)
	case SQLite:
		return parseSQLite(query)
	case Postgres:
		return parsePostgres(query)
	}
	return nil, fmt.Errorf("parse query: unknown dialect %v", d)
}

// recoverParser turns a panic inside the third-party parser into an error,
// so one odd query cannot crash a whole verification run.
func recoverParser(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("internal SQL parser error: %v", r)
	}
}

// lockSuffix matches the row-locking clauses sqlparser does not know
// (MySQL 8 FOR SHARE, NOWAIT, SKIP LOCKED, OF t) at the end of a query.
var lockSuffix = regexp.MustCompile("(?is)\\bfor\\s+(update|share)" +
	"(\\s+of\\s+[\\w.`\"]+(\\s*,\\s*[\\w.`\"]+)*)?" +
	"(\\s+(nowait|skip\\s+locked))?\\s*;?\\s*$")

// normalizeLock rewrites an unsupported trailing locking clause into the
// sqlparser spelling; offsets before the clause are unchanged.
func normalizeLock(q string) string {
	m := lockSuffix.FindStringSubmatchIndex(q)
	if m == nil {
		return q
	}
	kind := strings.ToLower(q[m[2]:m[3]])
	extra := m[4] >= 0 || m[8] >= 0
	switch {
	case kind == "share":
		return q[:m[0]] + "lock in share mode"
	case extra:
		return q[:m[0]] + "for update"
	}
	return q
}

var (
	errPosRE = regexp.MustCompile(`(?s)^(.*) at position (\d+)(?: near '(.*)')?$`)
)

// isOtherFirstWord reports statements that cannot change rows: when
// sqlparser cannot parse them they become sqlir.Other rather than an error.
func isOtherFirstWord(w string) bool {
	switch w {
	case "alter", "analyze", "attach", "checkpoint", "comment", "create",
		"deallocate", "desc", "describe", "detach", "discard", "drop",
		"explain", "flush", "grant", "kill", "listen", "lock", "notify",
		"optimize", "pragma", "prepare", "reindex", "release", "rename",
		"repair", "reset", "revoke", "savepoint", "set", "show", "truncate",
		"unlisten", "unlock", "use", "vacuum":
		return true
	}
	return false
}

// unsupportedReason explains statements that may change rows in ways the
// IR cannot express.
func unsupportedReason(w string) (string, bool) {
	switch w {
	case "with":
		return "WITH (common table expressions) is not supported by the MySQL parser", true
	case "call", "exec":
		return "stored procedure call", true
	case "execute":
		return "prepared statement execution", true
	case "do":
		return "DO statement", true
	case "merge":
		return "MERGE statement", true
	case "load":
		return "LOAD DATA statement", true
	case "handler":
		return "HANDLER statement", true
	case "copy":
		return "COPY statement", true
	}
	return "", false
}

func parseMySQL(d Dialect, query string) (*Result, error) {
	words, onlyWords := leadingWords(query)
	if len(words) == 0 && restIsEmpty(query) {
		return nil, errors.New("empty SQL query")
	}
	if onlyWords && len(words) > 0 {
		if st, err, ok := txStatement(query, words); ok {
			if err != nil {
				return nil, err
			}
			return &Result{Stmt: st}, nil
		}
	}

	params, err := scanParams(query)
	if err != nil {
		return nil, err
	}
	q := normalizeLock(rewriteRowAlias(query))
	tk := sqlparser.NewStringTokenizer(q)
	ast, perr := sqlparser.ParseNext(tk)
	if perr != nil {
		pe := toParseError(query, perr)
		first := ""
		if len(words) > 0 {
			first = words[0]
		}
		if isOtherFirstWord(first) {
			return &Result{Stmt: &sqlir.Other{Text: strings.TrimSpace(query)}}, nil
		}
		if why, ok := unsupportedReason(first); ok {
			return nil, &UnsupportedError{Query: query, Reason: why}
		}
		return nil, pe
	}
	if off := tk.Position; off <= len(q) && !restIsEmpty(q[off:]) {
		start := off
		for start < len(q) && isSpace(q[start]) {
			start++
		}
		return nil, &ParseError{Query: query, Offset: start, Msg: "more than one statement in one query"}
	}

	tr := &translator{dialect: d, params: params.index}
	st, err := tr.statement(ast, query)
	if err != nil {
		return nil, err
	}
	res := &Result{Stmt: st, NumParams: params.count}
	if !params.positional && params.count > 0 {
		res.ParamNames = params.names
	}
	return res, nil
}

// toParseError converts a sqlparser error ("syntax error at position 12
// near 'frm'") into a *ParseError with a byte offset into q.
func toParseError(q string, err error) *ParseError {
	m := errPosRE.FindStringSubmatch(err.Error())
	if m == nil {
		return &ParseError{Query: q, Offset: 0, Msg: err.Error()}
	}
	pos, _ := strconv.Atoi(m[2])
	end := pos - 1 // sqlparser's position is one past the offending token
	if end > len(q) {
		end = len(q)
	}
	if end < 0 {
		end = 0
	}
	near := m[3]
	off := end
	if near == "" && end < len(q) && end > 0 {
		// An operator or punctuation token just before end.
		off = end - 1
		for _, op := range []string{"<=>", "<=", ">=", "<>", "!=", "||", "&&", "<<", ">>", "->>", "->"} {
			if end >= len(op) && q[end-len(op):end] == op {
				off = end - len(op)
				near = op
				break
			}
		}
		if near == "" && !isSpace(q[off]) {
			near = q[off : off+1]
		}
	}
	if m[3] != "" {
		if i := lastIndexFoldASCII(q[:end], near); i >= 0 {
			off = i
		} else if strings.HasPrefix(near, ":v") && end > 0 && q[end-1] == '?' {
			off = end - 1
		} else if end-len(near) >= 0 {
			off = end - len(near)
		}
		if off < len(q) && q[off] == '?' {
			near = "?"
		}
		if off > 0 && (q[off-1] == '\'' || q[off-1] == '"') && off+len(near) >= len(q) {
			off-- // an unterminated string: point at its quote
		}
	}
	off = max(0, min(off, len(q)))
	return &ParseError{Query: q, Offset: off, Msg: m[1], Near: near}
}

// lastIndexFoldASCII is strings.LastIndex ignoring ASCII case, on bytes
// (so offsets stay right in text that is not valid UTF-8).
func lastIndexFoldASCII(s, sub string) int {
	lower := func(c byte) byte {
		if 'A' <= c && c <= 'Z' {
			return c + 'a' - 'A'
		}
		return c
	}
outer:
	for i := len(s) - len(sub); i >= 0; i-- {
		for j := 0; j < len(sub); j++ {
			if lower(s[i+j]) != lower(sub[j]) {
				continue outer
			}
		}
		return i
	}
	return -1
}

// txStatement recognises transaction control written as plain words.
func txStatement(q string, w []string) (sqlir.Statement, error, bool) {
	tx := func(kind string) (sqlir.Statement, error, bool) {
		return &sqlir.TxControl{Kind: kind}, nil, true
	}
	switch w[0] {
	case "begin":
		return tx(sqlir.TxBegin)
	case "start":
		if len(w) > 1 && w[1] == "transaction" {
			return tx(sqlir.TxBegin)
		}
	case "commit", "end":
		return tx(sqlir.TxCommit)
	case "rollback", "abort":
		for _, x := range w[1:] {
			if x == "to" {
				return nil, &UnsupportedError{Query: q, Reason: "ROLLBACK TO SAVEPOINT (partial rollback)"}, true
			}
		}
		return tx(sqlir.TxRollback)
	case "savepoint", "release":
		return &sqlir.Other{Text: strings.TrimSpace(q)}, nil, true
	}
	return nil, nil, false
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

func isWordByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// skipSpaceComments returns the offset of the first byte at or after i
// that is not white space or inside a comment.
func skipSpaceComments(s string, i int) int {
	for i < len(s) {
		switch {
		case isSpace(s[i]):
			i++
		case s[i] == '#' || strings.HasPrefix(s[i:], "--"):
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				return len(s)
			}
			i += j + 1
		case strings.HasPrefix(s[i:], "/*"):
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				return len(s)
			}
			i += j + 4
		default:
			return i
		}
	}
	return i
}

// restIsEmpty reports whether s holds only white space, comments and ';'.
func restIsEmpty(s string) bool {
	i := 0
	for {
		i = skipSpaceComments(s, i)
		if i >= len(s) {
			return true
		}
		if s[i] != ';' {
			return false
		}
		i++
	}
}

// leadingWords returns the lower-cased words at the start of s (comments
// skipped) up to the first other character; onlyWords reports whether
// nothing but ';', white space and comments follows them.
func leadingWords(s string) (words []string, onlyWords bool) {
	i := 0
	for {
		i = skipSpaceComments(s, i)
		if i >= len(s) || !isWordByte(s[i]) {
			break
		}
		j := i
		for j < len(s) && isWordByte(s[j]) {
			j++
		}
		words = append(words, strings.ToLower(s[i:j]))
		i = j
	}
	return words, restIsEmpty(s[i:])
}

// paramInfo is the result of scanning a query's placeholders.
type paramInfo struct {
	index      map[string]int // sqlparser argument text (":v1", ":x", "::x") → index
	names      []string
	count      int
	positional bool
}

// scanParams numbers the placeholders of q: "?" by position, names by
// first appearance.
func scanParams(q string) (*paramInfo, error) {
	info := &paramInfo{index: map[string]int{}}
	tk := sqlparser.NewStringTokenizer(q)
	named := 0
	for {
		typ, val := tk.Scan()
		if typ == 0 || typ == sqlparser.LEX_ERROR {
			break
		}
		if typ != sqlparser.VALUE_ARG && typ != sqlparser.LIST_ARG {
			continue
		}
		end := tk.Position - 2 // index of the token's last byte
		if typ == sqlparser.VALUE_ARG && end >= 0 && end < len(q) && q[end] == '?' {
			info.positional = true
			info.index[string(val)] = info.count
			info.count++
			continue
		}
		named++
		name := strings.TrimLeft(string(val), ":")
		idx := -1
		for i, n := range info.names {
			if n == name {
				idx = i
			}
		}
		if idx < 0 {
			idx = len(info.names)
			info.names = append(info.names, name)
		}
		info.index[string(val)] = idx
	}
	if info.positional && named > 0 {
		return nil, errors.New("query mixes ? and :name placeholders")
	}
	if !info.positional {
		info.count = len(info.names)
	}
	return info, nil
}
