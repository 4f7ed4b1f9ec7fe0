package mysql

import (
	"regexp"
	"strings"

	"github.com/dbverify/dbverify/sqlparse/internal/rules"
)

// MySQL 8.0.19 names the row an INSERT proposes with an alias instead of
// VALUES(col):
//
//	INSERT INTO t (a, b) VALUES (?, ?) AS new ON DUPLICATE KEY UPDATE b = b + new.b
//	INSERT INTO t (a, b) VALUES (?, ?) AS new(x, y) ON DUPLICATE KEY UPDATE b = b + y
//
// sqlparser predates it, so rewriteRowAlias turns the alias back into the
// VALUES(col) form it knows: the alias clause is blanked out (offsets
// before ON DUPLICATE KEY UPDATE are unchanged) and alias.col, or a column
// alias, in the assignments becomes VALUES(col).

// rowAliasRE matches "AS alias [(col, …)]" before ON DUPLICATE KEY UPDATE.
var rowAliasRE = regexp.MustCompile("(?is)\\bas\\s+`?(\\w+)`?\\s*(\\(([\\w\\s,`]*)\\))?\\s*(on\\s+duplicate\\s+key\\s+update\\b)")

// rewriteRowAlias returns q with a MySQL 8 row alias rewritten, or q.
func rewriteRowAlias(q string) string {
	words, _ := rules.LeadingWords(q)
	if len(words) == 0 || words[0] != "insert" && words[0] != "replace" {
		return q
	}
	masked := maskQuoted(q)
	m := rowAliasRE.FindStringSubmatchIndex(masked)
	if m == nil {
		return q
	}
	alias := q[m[2]:m[3]]
	var colAliases []string
	if m[6] >= 0 {
		for _, c := range strings.Split(q[m[6]:m[7]], ",") {
			colAliases = append(colAliases, strings.Trim(strings.TrimSpace(c), "`"))
		}
	}
	// The columns the alias's columns name, in order.
	var cols []string
	if len(colAliases) > 0 {
		cols = insertColumns(masked[:m[0]], q[:m[0]])
		if len(cols) != len(colAliases) {
			return q // let the parser report it
		}
	}
	head := q[:m[0]] + strings.Repeat(" ", m[8]-m[0])
	tail := qualifiedRowRefs(q[m[8]:], alias)
	return head + replaceRowRefs(tail, maskQuoted(tail), alias, colAliases, cols)
}

// qualifiedRowRefs rewrites alias.col (either part may be backquoted)
// outside quoted strings into VALUES(`col`).
func qualifiedRowRefs(tail, alias string) string {
	re := regexp.MustCompile("(?i)(^|[^\\w.`])`?" + regexp.QuoteMeta(alias) + "`?\\s*\\.\\s*`?(\\w+)`?")
	masked := maskQuoted(tail)
	ms := re.FindAllStringSubmatchIndex(masked, -1)
	for k := len(ms) - 1; k >= 0; k-- {
		m := ms[k]
		tail = tail[:m[3]] + "VALUES(`" + tail[m[4]:m[5]] + "`)" + tail[m[1]:]
	}
	return tail
}

// maskQuoted replaces the contents of quoted strings and identifiers with
// 'x' so that patterns do not match inside them (offsets unchanged).
func maskQuoted(q string) string {
	b := []byte(q)
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\'' && c != '"' {
			continue
		}
		j := rules.QuotedEnd(q, i, c)
		for k := i + 1; k < j-1; k++ {
			b[k] = 'x'
		}
		i = j - 1
	}
	return string(b)
}

// insertColumns returns the column list of INSERT INTO t (cols) … or of
// INSERT … SET c = …, read from the text before the row alias.
func insertColumns(masked, q string) []string {
	if i := strings.IndexByte(masked, '('); i >= 0 && !strings.Contains(strings.ToLower(masked[:i]), "values") {
		if j := strings.IndexByte(masked[i:], ')'); j >= 0 {
			var out []string
			for _, c := range strings.Split(q[i+1:i+j], ",") {
				out = append(out, strings.Trim(strings.TrimSpace(c), "`"))
			}
			return out
		}
	}
	return nil
}

// replaceRowRefs rewrites the column aliases in the ON DUPLICATE KEY
// UPDATE part into VALUES(col).
func replaceRowRefs(tail, masked, alias string, colAliases, cols []string) string {
	if len(colAliases) == 0 {
		return tail
	}
	var b strings.Builder
	i := 0
	for i < len(tail) {
		if !rules.IsWordByte(masked[i]) || i > 0 && (rules.IsWordByte(masked[i-1]) || masked[i-1] == '.' || masked[i-1] == '`') {
			b.WriteByte(tail[i])
			i++
			continue
		}
		j := i
		for j < len(tail) && rules.IsWordByte(masked[j]) {
			j++
		}
		word := tail[i:j]
		if j >= len(tail) || tail[j] != '.' && tail[j] != '(' {
			if idx := indexFold(colAliases, word); idx >= 0 {
				b.WriteString("VALUES(`" + cols[idx] + "`)")
				i = j
				continue
			}
		}
		b.WriteString(word)
		i = j
	}
	return b.String()
}

func indexFold(list []string, s string) int {
	for i, x := range list {
		if strings.EqualFold(x, s) {
			return i
		}
	}
	return -1
}
