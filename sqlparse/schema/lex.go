package schema

import (
	"fmt"
	"strings"

	"github.com/dbverify/dbverify/sqlparse/internal/rules"
)

// A tolerant lexer for DDL of any dialect (MySQL, Postgres, SQLite): just
// enough to find table elements, names, parentheses and commas.

type tokKind int

const (
	tWord   tokKind = iota // unquoted identifier or keyword
	tQuoted                // "ident", `ident` or [ident]
	tString                // 'text', E'text', $$text$$
	tNum
	tPunct
)

type tok struct {
	kind     tokKind
	val      string // word as written; quoted/string content; punctuation
	pos, end int    // byte range in the statement text
}

// is reports whether t is the unquoted keyword w (case-insensitive).
func (t tok) is(w string) bool { return t.kind == tWord && strings.EqualFold(t.val, w) }

// isIdent reports whether t can be a name.
func (t tok) isIdent() bool { return t.kind == tWord || t.kind == tQuoted }

func (t tok) isPunct(p string) bool { return t.kind == tPunct && t.val == p }

// lexDDL splits a DDL statement into tokens; comments and white space
// are dropped.
func lexDDL(s string) ([]tok, error) {
	var out []tok
	i := 0
	for {
		i = rules.SkipSpaceComments(s, i)
		if i >= len(s) {
			return out, nil
		}
		t, err := nextTok(s, i)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
		i = t.end
	}
}

// nextTok returns the token that starts at offset i of s.
func nextTok(s string, i int) (tok, error) {
	c := s[i]
	switch {
	case c == '\'':
		j := skipQuoted(s, i)
		if j > len(s) || s[j-1] != '\'' || j == i+1 {
			return tok{}, fmt.Errorf("unterminated string at offset %d", i)
		}
		return tok{kind: tString, val: unquote(s[i+1:j-1], '\''), pos: i, end: j}, nil
	case c == '"' || c == '`':
		j := skipQuoted(s, i)
		if j > len(s) || s[j-1] != c || j == i+1 {
			return tok{}, fmt.Errorf("unterminated quoted identifier at offset %d", i)
		}
		return tok{kind: tQuoted, val: unquote(s[i+1:j-1], c), pos: i, end: j}, nil
	case c == '$':
		tag, ok := dollarTag(s, i)
		if !ok {
			return tok{kind: tPunct, val: "$", pos: i, end: i + 1}, nil
		}
		j := strings.Index(s[i+len(tag):], tag)
		if j < 0 {
			return tok{}, fmt.Errorf("unterminated %s string at offset %d", tag, i)
		}
		body := s[i+len(tag) : i+len(tag)+j]
		return tok{kind: tString, val: body, pos: i, end: i + len(tag) + j + len(tag)}, nil
	case isDigit(c) || c == '.' && i+1 < len(s) && isDigit(s[i+1]):
		j := numberEnd(s, i)
		return tok{kind: tNum, val: s[i:j], pos: i, end: j}, nil
	case rules.IsWordByte(c) || c >= 0x80:
		j := i
		for j < len(s) && (rules.IsWordByte(s[j]) || s[j] == '$' || s[j] >= 0x80) {
			j++
		}
		return tok{kind: tWord, val: s[i:j], pos: i, end: j}, nil
	case c == ':' && strings.HasPrefix(s[i:], "::"):
		return tok{kind: tPunct, val: "::", pos: i, end: i + 2}, nil
	}
	return tok{kind: tPunct, val: string(c), pos: i, end: i + 1}, nil
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// numberEnd returns the end of the number that starts at i: digits and
// dots, then an exponent if one follows.
func numberEnd(s string, i int) int {
	j := i
	for j < len(s) && (isDigit(s[j]) || s[j] == '.') {
		j++
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k < len(s) && isDigit(s[k]) {
			j = k
			for j < len(s) && isDigit(s[j]) {
				j++
			}
		}
	}
	return j
}

// unquote undoes quote doubling (and backslash escapes outside backquotes).
func unquote(s string, q byte) string {
	if !strings.ContainsRune(s, rune(q)) && (q == '`' || !strings.Contains(s, `\`)) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && q != '`' && i+1 < len(s) {
			i++
			b.WriteByte(s[i])
			continue
		}
		if c == q && i+1 < len(s) && s[i+1] == q {
			i++
		}
		b.WriteByte(c)
	}
	return b.String()
}

// matchParen returns the index of the ')' closing the '(' at toks[i], or -1.
func matchParen(toks []tok, i int) int {
	depth := 0
	for j := i; j < len(toks); j++ {
		switch {
		case toks[j].isPunct("("):
			depth++
		case toks[j].isPunct(")"):
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// splitCommas splits toks at commas outside parentheses.
func splitCommas(toks []tok) [][]tok {
	var out [][]tok
	depth, start := 0, 0
	for j, t := range toks {
		switch {
		case t.isPunct("(") || t.isPunct("["):
			depth++
		case t.isPunct(")") || t.isPunct("]"):
			depth--
		case t.isPunct(",") && depth == 0:
			out = append(out, toks[start:j])
			start = j + 1
		}
	}
	return append(out, toks[start:])
}
