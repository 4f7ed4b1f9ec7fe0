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

func lexDDL(s string) ([]tok, error) {
	var out []tok
	i := 0
	for {
		i = rules.SkipSpaceComments(s, i)
		if i >= len(s) {
			return out, nil
		}
		c := s[i]
		start := i
		switch {
		case c == '\'':
			j := skipQuoted(s, i)
			if j > len(s) || s[j-1] != '\'' || j == i+1 {
				return nil, fmt.Errorf("unterminated string at offset %d", i)
			}
			out = append(out, tok{kind: tString, val: unquote(s[i+1:j-1], '\''), pos: start, end: j})
			i = j
		case c == '"' || c == '`':
			j := skipQuoted(s, i)
			if j > len(s) || s[j-1] != c || j == i+1 {
				return nil, fmt.Errorf("unterminated quoted identifier at offset %d", i)
			}
			out = append(out, tok{kind: tQuoted, val: unquote(s[i+1:j-1], c), pos: start, end: j})
			i = j
		case c == '$':
			if tag, ok := dollarTag(s, i); ok {
				j := strings.Index(s[i+len(tag):], tag)
				if j < 0 {
					return nil, fmt.Errorf("unterminated %s string at offset %d", tag, i)
				}
				body := s[i+len(tag) : i+len(tag)+j]
				i += len(tag) + j + len(tag)
				out = append(out, tok{kind: tString, val: body, pos: start, end: i})
				continue
			}
			out = append(out, tok{kind: tPunct, val: "$", pos: i, end: i + 1})
			i++
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			j := i
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.') {
				j++
			}
			if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
				k := j + 1
				if k < len(s) && (s[k] == '+' || s[k] == '-') {
					k++
				}
				if k < len(s) && s[k] >= '0' && s[k] <= '9' {
					j = k
					for j < len(s) && s[j] >= '0' && s[j] <= '9' {
						j++
					}
				}
			}
			out = append(out, tok{kind: tNum, val: s[i:j], pos: i, end: j})
			i = j
		case rules.IsWordByte(c) || c >= 0x80:
			j := i
			for j < len(s) && (rules.IsWordByte(s[j]) || s[j] == '$' || s[j] >= 0x80) {
				j++
			}
			out = append(out, tok{kind: tWord, val: s[i:j], pos: i, end: j})
			i = j
		case c == ':' && strings.HasPrefix(s[i:], "::"):
			out = append(out, tok{kind: tPunct, val: "::", pos: i, end: i + 2})
			i += 2
		default:
			out = append(out, tok{kind: tPunct, val: string(c), pos: i, end: i + 1})
			i++
		}
	}
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
