package mysql

import (
	"regexp"
	"strings"

	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse/internal/rules"
)

// updateModifiers matches the start of MySQL's UPDATE [LOW_PRIORITY]
// [IGNORE], whose modifiers sqlparser cannot read (it took LOW_PRIORITY
// for the table name and the table for its alias): group 1 is
// LOW_PRIORITY (a scheduling hint for table locks, nothing to the rows),
// group 2 IGNORE.
var updateModifiers = regexp.MustCompile(`(?i)^\s*update\s+(low_priority\s)?\s*(ignore\s)?`)

// stripUpdateIgnore blanks the modifiers of UPDATE [LOW_PRIORITY]
// [IGNORE] (offsets into the query are unchanged) and reports whether
// IGNORE was there.
func stripUpdateIgnore(q string) (string, bool) {
	m := updateModifiers.FindStringSubmatchIndex(q)
	if m == nil {
		return q, false
	}
	for g := 1; g <= 2; g++ {
		if m[2*g] >= 0 {
			q = q[:m[2*g]] + strings.Repeat(" ", m[2*g+1]-m[2*g]) + q[m[2*g+1]:]
		}
	}
	return q, m[4] >= 0
}

// markIgnore sets Ignore on the UPDATE st that query (UPDATE IGNORE …)
// parsed to. A joined UPDATE IGNORE is not modelled.
func markIgnore(query string, st sqlir.Statement) (sqlir.Statement, error) {
	u, ok := st.(*sqlir.Update)
	if !ok {
		return st, nil
	}
	if u.Join != nil {
		return nil, &rules.UnsupportedError{Query: query, Tables: u.Tables(), Reason: "UPDATE IGNORE of a join"}
	}
	u.Ignore = true
	return u, nil
}
