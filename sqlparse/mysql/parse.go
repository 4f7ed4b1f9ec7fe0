package mysql

import (
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/xwb1989/sqlparser"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/internal/rules"
)

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

var errPosRE = regexp.MustCompile(`(?s)^(.*) at position (\d+)(?: near '(.*)')?$`)

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

// Parse parses one MySQL statement (see sqlparse.Parse).
func Parse(query string) (*rules.Result, error) {
	words, onlyWords := rules.LeadingWords(query)
	if len(words) == 0 && rules.RestIsEmpty(query) {
		return nil, errors.New("empty SQL query")
	}
	if onlyWords && len(words) > 0 {
		if st, err, ok := rules.TxStatement(query, words); ok {
			if err != nil {
				return nil, err
			}
			return &rules.Result{Stmt: st}, nil
		}
	}

	query, ignore := stripUpdateIgnore(query)
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
		if rules.IsOtherFirstWord(first) {
			return &rules.Result{Stmt: &sqlir.Other{Text: strings.TrimSpace(query)}}, nil
		}
		if why, ok := unsupportedReason(first); ok {
			return nil, &rules.UnsupportedError{Query: query, Reason: why}
		}
		return nil, pe
	}
	if off := tk.Position; off <= len(q) && !rules.RestIsEmpty(q[off:]) {
		start := off
		for start < len(q) && rules.IsSpace(q[start]) {
			start++
		}
		return nil, &rules.ParseError{Query: query, Offset: start, Msg: "more than one statement in one query"}
	}

	tr := &translator{params: params.index}
	st, err := tr.statement(ast, query)
	if err == nil && ignore {
		st, err = markIgnore(query, st)
	}
	if err != nil {
		return nil, err
	}
	if sel, ok := st.(*sqlir.Select); ok {
		if m := lockSuffix.FindStringSubmatch(query); m != nil && strings.HasPrefix(strings.ToLower(m[5]), "skip") {
			sel.SkipLocked = true
		}
	}
	res := &rules.Result{Stmt: st, NumParams: params.count}
	if !params.positional && params.count > 0 {
		res.ParamNames = params.names
	}
	return res, nil
}

// toParseError converts a sqlparser error ("syntax error at position 12
// near 'frm'") into a *sqlparse.ParseError with a byte offset into q.
func toParseError(q string, err error) *rules.ParseError {
	m := errPosRE.FindStringSubmatch(err.Error())
	if m == nil {
		return &rules.ParseError{Query: q, Offset: 0, Msg: err.Error()}
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
		if near == "" && !rules.IsSpace(q[off]) {
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
	return &rules.ParseError{Query: q, Offset: off, Msg: m[1], Near: near}
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
