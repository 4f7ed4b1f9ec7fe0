package report

import (
	"maps"
	"strings"
)

// ShownSteps are the counterexample's steps as a reader sees them (the
// text report, explore, SARIF's thread flows): see displaySteps.
func (c *Counterexample) ShownSteps() []Step { return displaySteps(c.Steps) }

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
	out := make([]Step, 0, len(steps))
	for k := 0; k < len(steps); {
		j := k + 1
		for j < len(steps) && sameStatement(steps[j], steps[k]) {
			j++
		}
		out = append(out, foldStatement(steps[k:j])...)
		k = j
	}
	return out
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
