package schema

import (
	"regexp"
	"strings"

	"github.com/dbverify/dbverify/sqlparse/internal/rules"
)

// rawStmt is one statement of a DDL file; Off is the byte offset of Text
// (which starts at the statement's first token) within the file.
type rawStmt struct {
	Text string
	Off  int
}

// sectionMarker matches the up/down markers of goose ("-- +goose Up"),
// sql-migrate ("-- +migrate Up") and dbmate ("-- migrate:up").
var sectionMarker = regexp.MustCompile(`(?i)^\s*--\s*(?:\+\s*(?:goose|migrate)\s+(up|down)|migrate:(up|down))\b`)

// upSections blanks everything outside the "up" sections of a migration
// file that has section markers (keeping line breaks, so offsets and line
// numbers stay right). A file without markers is returned unchanged.
func upSections(src string) string {
	lines := strings.SplitAfter(src, "\n")
	marked := false
	for _, l := range lines {
		if sectionMarker.MatchString(l) {
			marked = true
			break
		}
	}
	if !marked {
		return src
	}
	var b strings.Builder
	up := false
	for _, l := range lines {
		if m := sectionMarker.FindStringSubmatch(l); m != nil {
			dir := strings.ToLower(m[1] + m[2])
			up = dir == "up"
			b.WriteString(blank(l))
			continue
		}
		if up {
			b.WriteString(l)
		} else {
			b.WriteString(blank(l))
		}
	}
	return b.String()
}

// blank replaces every byte of s except line breaks by a space.
func blank(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return r
		}
		return ' '
	}, strings.ToValidUTF8(s, " "))
}

var (
	stmtBeginRE = regexp.MustCompile(`(?i)^--\s*\+\s*(?:goose|migrate)\s+statementbegin\b`)
	stmtEndRE   = regexp.MustCompile(`(?i)^--\s*\+\s*(?:goose|migrate)\s+statementend\b`)
	delimiterRE = regexp.MustCompile(`(?i)^[ \t]*delimiter[ \t]+(\S+)[ \t]*\r?$`)
)

// splitStatements splits a DDL file into statements at ';' (or the
// delimiter set by a MySQL client "DELIMITER" line), ignoring semicolons
// in strings, quoted identifiers, comments and Postgres dollar-quoted
// bodies, and keeping goose/sql-migrate StatementBegin…StatementEnd blocks
// whole.
func splitStatements(src string) []rawStmt {
	var out []rawStmt
	emit := func(start, end int) {
		if end > len(src) {
			end = len(src)
		}
		if start >= end {
			return
		}
		text := src[start:end]
		i := rules.SkipSpaceComments(text, 0)
		if i >= len(text) {
			return
		}
		text = strings.TrimRight(text[i:], " \t\r\n;")
		if text != "" {
			out = append(out, rawStmt{Text: text, Off: start + i})
		}
	}
	delim := ";"
	block := false
	start := 0
	i := 0
	for i < len(src) {
		// A DELIMITER line between statements changes the delimiter.
		if (i == 0 || src[i-1] == '\n') && rules.RestIsEmpty(src[start:i]) {
			eol := strings.IndexByte(src[i:], '\n')
			line := src[i:]
			if eol >= 0 {
				line = src[i : i+eol]
			}
			if m := delimiterRE.FindStringSubmatch(line); m != nil {
				delim = m[1]
				i += len(line)
				start = i
				continue
			}
		}
		c := src[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			i = skipQuoted(src, i)
		case c == '-' && strings.HasPrefix(src[i:], "--"):
			eol := strings.IndexByte(src[i:], '\n')
			if eol < 0 {
				eol = len(src) - i
			}
			comment := src[i : i+eol]
			switch {
			case stmtBeginRE.MatchString(comment):
				emit(start, i)
				start = i + eol
				block = true
			case stmtEndRE.MatchString(comment):
				emit(start, i)
				start = i + eol
				block = false
			}
			i += eol
		case c == '#':
			eol := strings.IndexByte(src[i:], '\n')
			if eol < 0 {
				eol = len(src) - i
			}
			i += eol
		case c == '/' && strings.HasPrefix(src[i:], "/*"):
			j := strings.Index(src[i+2:], "*/")
			if j < 0 {
				i = len(src)
			} else {
				i += j + 4
			}
		case c == '$':
			if tag, ok := dollarTag(src, i); ok {
				j := strings.Index(src[i+len(tag):], tag)
				if j < 0 {
					i = len(src)
				} else {
					i += len(tag) + j + len(tag)
				}
			} else {
				i++
			}
		case !block && strings.HasPrefix(src[i:], delim):
			emit(start, i)
			i += len(delim)
			start = i
		default:
			i++
		}
	}
	emit(start, len(src))
	return out
}

// skipQuoted returns the offset just past the quoted string or identifier
// that starts at src[i]. Quotes are escaped by doubling; in '…' and "…"
// a backslash escapes the next byte (MySQL).
func skipQuoted(src string, i int) int {
	q := src[i]
	j := i + 1
	for j < len(src) {
		switch src[j] {
		case '\\':
			if q != '`' {
				j += 2
				continue
			}
		case q:
			if j+1 < len(src) && src[j+1] == q {
				j += 2
				continue
			}
			return j + 1
		}
		j++
	}
	return len(src)
}

// dollarTag reports the Postgres dollar-quote tag ("$$" or "$name$")
// starting at src[i].
func dollarTag(src string, i int) (string, bool) {
	if i > 0 && (rules.IsWordByte(src[i-1]) || src[i-1] == '$') {
		return "", false
	}
	j := i + 1
	for j < len(src) && (rules.IsWordByte(src[j])) {
		if j == i+1 && src[j] >= '0' && src[j] <= '9' {
			return "", false // $1 is a parameter
		}
		j++
	}
	if j < len(src) && src[j] == '$' {
		return src[i : j+1], true
	}
	return "", false
}

// lineAt returns the 1-based line of byte offset off in src.
func lineAt(src string, off int) int {
	if off > len(src) {
		off = len(src)
	}
	return 1 + strings.Count(src[:off], "\n")
}
