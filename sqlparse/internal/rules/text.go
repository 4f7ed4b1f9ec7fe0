package rules

import (
	"fmt"
	"strings"

	"github.com/dbverify/dbverify/sqlir"
)

// Recover turns a panic inside the third-party parser into an error,
// so one odd query cannot crash a whole verification run.
func Recover(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("internal SQL parser error: %v", r)
	}
}

// TxStatement recognises transaction control written as plain words.
func TxStatement(q string, w []string) (sqlir.Statement, error, bool) {
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
		for i, x := range w[1:] {
			if x == "to" {
				return savepointStatement(q, sqlir.TxRollbackTo, w[i+2:])
			}
		}
		return tx(sqlir.TxRollback)
	case "savepoint":
		return savepointStatement(q, sqlir.TxSavepoint, w[1:])
	case "release":
		return savepointStatement(q, sqlir.TxRelease, w[1:])
	}
	return nil, nil, false
}

// savepointStatement reads the savepoint name of SAVEPOINT name,
// RELEASE [SAVEPOINT] name or ROLLBACK … TO [SAVEPOINT] name; rest are
// the words after SAVEPOINT, RELEASE or TO.
func savepointStatement(q, kind string, rest []string) (sqlir.Statement, error, bool) {
	if kind != sqlir.TxSavepoint && len(rest) == 2 && rest[0] == "savepoint" {
		rest = rest[1:]
	}
	if len(rest) != 1 || rest[0] == "savepoint" {
		return nil, &UnsupportedError{Query: q, Reason: kind + " without one savepoint name"}, true
	}
	return &sqlir.TxControl{Kind: kind, Name: rest[0]}, nil, true
}

// IsSpace reports an ASCII white-space byte.
func IsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

// IsWordByte reports a byte of an unquoted identifier or keyword.
func IsWordByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// SkipSpaceComments returns the offset of the first byte at or after i
// that is not white space or inside a comment.
func SkipSpaceComments(s string, i int) int {
	for i < len(s) {
		switch {
		case IsSpace(s[i]):
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

// RestIsEmpty reports whether s holds only white space, comments and ';'.
func RestIsEmpty(s string) bool {
	i := 0
	for {
		i = SkipSpaceComments(s, i)
		if i >= len(s) {
			return true
		}
		if s[i] != ';' {
			return false
		}
		i++
	}
}

// LeadingWords returns the lower-cased words at the start of s (comments
// skipped) up to the first other character; onlyWords reports whether
// nothing but ';', white space and comments follows them.
func LeadingWords(s string) (words []string, onlyWords bool) {
	i := 0
	for {
		i = SkipSpaceComments(s, i)
		if i >= len(s) || !IsWordByte(s[i]) {
			break
		}
		j := i
		for j < len(s) && IsWordByte(s[j]) {
			j++
		}
		words = append(words, strings.ToLower(s[i:j]))
		i = j
	}
	return words, RestIsEmpty(s[i:])
}

// QuotedEnd returns the offset just past the quoted token starting at i
// (a doubled quote is an escaped one), or len(q) when it is unterminated.
func QuotedEnd(q string, i int, quote byte) int {
	for j := i + 1; j < len(q); j++ {
		if q[j] == quote {
			if j+1 < len(q) && q[j+1] == quote {
				j++
				continue
			}
			return j + 1
		}
	}
	return len(q)
}

// IsOtherFirstWord reports statements that cannot change rows: when
// sqlparser cannot parse them they become sqlir.Other rather than an error.
func IsOtherFirstWord(w string) bool {
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
