package report

import (
	"maps"
	"regexp"
	"strings"
)

// ShownSteps are the counterexample's steps as a reader sees them (the
// text report, explore, SARIF's thread flows): see displaySteps, with
// the steps of generated code folded (foldGenerated).
func (c *Counterexample) ShownSteps() []Step { return foldGenerated(displaySteps(c.Steps)) }

// VerboseSteps are ShownSteps with the steps of generated code kept (the
// text report's -v).
func (c *Counterexample) VerboseSteps() []Step { return displaySteps(c.Steps) }

// displaySteps are the steps as the text report prints them: one step
// per Go statement around a database call. The statement's other parts
// at its line (the assignment of the call's results, the Scan of a
// QueryRow, the arguments computed before it) are folded into its SQL
// step, which shows the SQL once with its bound values and all their
// values; a part that decides a branch stays a branch step of its own,
// with its outcome (a branch step without one too: a report written
// before outcomes were recorded). The JSON report keeps every step (a
// replay reads the Scan targets off them).
func displaySteps(steps []Step) []Step {
	steps = mergeJoinedReads(steps)
	out := make([]Step, 0, len(steps))
	for k := 0; k < len(steps); {
		j := k + 1
		for j < len(steps) && sameStatement(steps[j], steps[k]) {
			j++
		}
		out = append(out, foldStatement(steps[k:j])...)
		k = j
	}
	markNoopRollbacks(out)
	return dropDeadZeroInits(out)
}

// markNoopRollbacks says so on a ROLLBACK that follows a COMMIT of the
// same request with no BEGIN between: the deferred tx.Rollback() of a
// transaction already committed, which database/sql makes a no-op
// (sql.ErrTxDone). Printed bare after the COMMIT it read as if the
// transaction had rolled back (adv12 p21).
func markNoopRollbacks(steps []Step) {
	committed := map[string]bool{} // request → its last transaction statement was a COMMIT
	for i := range steps {
		s := &steps[i]
		if s.Kind != "sql" {
			continue
		}
		switch strings.ToUpper(strings.TrimRight(strings.TrimSpace(s.Statement()), ";")) {
		case "COMMIT":
			committed[s.Request] = true
		case "BEGIN", "START TRANSACTION":
			committed[s.Request] = false
		case "ROLLBACK":
			if committed[s.Request] {
				s.Text, s.SQL = "(deferred Rollback after Commit: no-op)", ""
			}
		}
	}
}

// sameStatement reports whether two steps are parts of one statement run
// by one request: the same position.
func sameStatement(a, b Step) bool {
	return a.Position == b.Position && a.Request == b.Request
}

// foldStatement folds the parts of one statement (consecutive steps at
// one position) into its SQL steps, when it has one.
func foldStatement(run []Step) []Step {
	sqlAt := -1
	for k, s := range run {
		if isSQLStep(s) {
			sqlAt = k
			break
		}
	}
	if sqlAt < 0 {
		return run
	}
	var out []Step
	into := -1 // index in out of the SQL step parts fold into
	var pending []Step
	for k, s := range run {
		switch {
		case isSQLStep(s):
			s.Values = copyValues(s.Values)
			out = append(out, s)
			into = len(out) - 1
			for _, p := range pending {
				mergeValues(&out[into], p)
			}
			pending = nil
		case s.Outcome != "" || s.Kind == "branch":
			if s.Kind == "sql" {
				s.Kind = "branch" // (the Scan of the call, in an if)
			}
			out = append(out, s)
			into = -1
		case into >= 0:
			mergeValues(&out[into], s)
		case k < sqlAt:
			pending = append(pending, s)
		default:
			out = append(out, s)
		}
	}
	return append(out, pending...)
}

// isSQLStep reports whether s is a statement run on the database (not
// the Go line of a database call: its Scan, its error).
func isSQLStep(s Step) bool {
	return s.Kind == "sql" && (s.SQL != "" || sqlText(s.Text))
}

// sqlText reports whether a step's text is SQL, not a Go line: it starts
// with a keyword that starts a SQL statement, or a comment.
func sqlText(text string) bool {
	text = strings.TrimSpace(text)
	if strings.HasPrefix(text, "--") || strings.HasPrefix(text, "/*") {
		return true
	}
	first := ""
	if f := strings.Fields(text); len(f) > 0 {
		first = strings.ToUpper(strings.TrimRight(f[0], ";"))
	}
	switch first {
	case "SELECT", "INSERT", "UPDATE", "DELETE", "WITH", "BEGIN", "COMMIT", "ROLLBACK", "SET", "REPLACE", "MERGE", "CALL", "SAVEPOINT", "RELEASE", "LOCK", "TRUNCATE", "VALUES", "START", "END", "UPSERT", "TABLE", "CREATE", "ALTER", "DROP":
		return first != "SELECT" || !strings.HasSuffix(text, "{") // (Go's select {)
	}
	return false
}

// mergeValues adds the values of part p to step s, those s shows
// already kept.
func mergeValues(s *Step, p Step) {
	for k, v := range p.Values {
		if _, ok := s.Values[k]; !ok {
			s.Values[k] = v
		}
	}
	if s.Note == "" {
		s.Note = p.Note
	}
}

func copyValues(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	maps.Copy(out, m)
	return out
}

// positionWidth is the width of the position column of steps: the
// longest position's.
func positionWidth(steps []Step) int {
	w := 0
	for _, s := range steps {
		w = max(w, len(s.Position))
	}
	return w
}

// dropDeadZeroInits leaves out a `var x T` step (a declaration without
// a value, which the trace printed as x = 0) when a later step of the
// same request writes x before any step reads it: the zero is never
// used (the `var bal int64` before a Scan(&bal)). A step reads x when its
// text names x, unless it only takes x's address (&x) or assigns x a
// value its right-hand side does not compute from x.
func dropDeadZeroInits(steps []Step) []Step {
	out := steps[:0:0]
	for i, s := range steps {
		if !zeroDeclaration(s) || !overwrittenUnread(steps[i+1:], s) {
			out = append(out, s)
		}
	}
	return out
}

// zeroDeclaration reports whether s declares variables without a value:
// `var x T`, every value it shows a zero.
func zeroDeclaration(s Step) bool {
	if s.Kind != "assign" || !strings.HasPrefix(s.Text, "var ") || strings.Contains(s.Text, "=") || len(s.Values) == 0 {
		return false
	}
	for _, v := range s.Values {
		switch v {
		case "0", "false", `""`, "nil", "0.0":
		default:
			return false
		}
	}
	return true
}

// overwrittenUnread reports whether every variable decl shows a value of
// is written by a step of later (of decl's request) before one reads it.
func overwrittenUnread(later []Step, decl Step) bool {
	for name := range decl.Values {
		goName := name
		if decl.Request != "" {
			goName = strings.TrimPrefix(name, decl.Request+".")
		}
		if !writtenFirst(later, decl.Request, name, goName) {
			return false
		}
	}
	return true
}

// writtenFirst reports whether, among steps of request req, the first
// that names Go variable goName (value key name) writes it without
// reading it.
func writtenFirst(steps []Step, req, name, goName string) bool {
	word := regexp.MustCompile(`(^|[^\w.&])` + regexp.QuoteMeta(goName) + `\b`)
	for _, s := range steps {
		if s.Request != req {
			continue
		}
		_, writes := s.Values[name]
		text := s.Text
		if lhs, rhs, ok := strings.Cut(text, "="); writes && ok && !strings.ContainsAny(lhs, "!<>+-*/|&^%") {
			text = rhs // (an assignment: what it reads is its right-hand side)
		}
		if word.MatchString(text) {
			return false
		}
		if writes {
			return true
		}
	}
	return false
}

// mergeJoinedReads folds the read of an UPDATE … FROM's joined row into
// the UPDATE: the frontend models the join as a read of that row (a step
// whose text is the UPDATE's, " (its row of prices)" added) before the
// write, and the text report printed the statement twice, the second
// time without its bound values (adv12 p11). The UPDATE's step takes the
// read's bound statement and the values of the row read; the read's
// internal results (joined.price, joinedErr) are left out.
func mergeJoinedReads(steps []Step) []Step {
	out := steps[:0:0]
	for i := 0; i < len(steps); i++ {
		s := steps[i]
		base, _, isRead := cutJoinedRead(s.Text)
		if !isRead || i+1 >= len(steps) || steps[i+1].Text != base || !sameStatement(s, steps[i+1]) {
			out = append(out, s)
			continue
		}
		u := steps[i+1]
		u.Values = copyValues(u.Values)
		for k, v := range s.Values {
			if _, ok := u.Values[k]; !ok && !strings.HasPrefix(k, "joined") {
				u.Values[k] = v
			}
		}
		if sql, _, ok := cutJoinedRead(s.SQL); ok && u.SQL == "" {
			u.SQL, u.Args = sql, s.Args
		}
		out = append(out, u)
		i++
	}
	return out
}

// cutJoinedRead splits the text of a joined row's read into the
// UPDATE's text and the table read.
func cutJoinedRead(text string) (update, table string, ok bool) {
	i := strings.LastIndex(text, " (its row of ")
	if i < 0 || !strings.HasSuffix(text, ")") {
		return text, "", false
	}
	return text[:i], strings.TrimSuffix(text[i+len(" (its row of "):], ")"), true
}
