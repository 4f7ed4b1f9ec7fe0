package pipeline

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/dbverify/dbverify/refine"
	"github.com/dbverify/dbverify/report"
)

// An ignore directive, written in the checked code as
//
//	//dbverify:ignore KEY reason
//
// on the line of an entry function's declaration or of the SQL statement
// where a result is reported, or on the line above, suppresses the
// results there that KEY names: a rule (DBV001 for UNSAFE, DBV002 for
// UNKNOWN), a table, a constraint (its text without spaces, e.g.
// accounts.balance>=0), or * for all. The reason is required; a directive
// that suppresses nothing is reported.
type ignoreDirective struct {
	file   string // absolute path
	line   int    // the line of the comment
	target int    // the line it applies to
	key    string
	reason string
	used   bool
}

var ignoreRE = regexp.MustCompile(`//\s*dbverify:ignore\b(.*)$`)

// readIgnores collects the directives of files; a directive without a key
// and a reason is an error with its position.
func readIgnores(files []string, rel func(string) string) ([]*ignoreDirective, error) {
	var out []*ignoreDirective
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("reading %s for //dbverify:ignore: %w", f, err)
		}
		sc := bufio.NewScanner(strings.NewReader(string(data)))
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for n := 1; sc.Scan(); n++ {
			text := sc.Text()
			m := ignoreRE.FindStringSubmatch(text)
			if m == nil {
				continue
			}
			fields := strings.Fields(m[1])
			if len(fields) < 2 {
				return nil, fmt.Errorf("%s:%d: //dbverify:ignore needs what it ignores (a rule, table or constraint, or *) and a reason: //dbverify:ignore DBV001 amounts are validated by the gateway", rel(f), n)
			}
			d := &ignoreDirective{file: f, line: n, target: n, key: fields[0], reason: strings.Join(fields[1:], " ")}
			if strings.HasPrefix(strings.TrimSpace(text), "//") {
				d.target = n + 1 // a comment line applies to the next line
			}
			out = append(out, d)
		}
	}
	return out, nil
}

// matches reports whether d names result r, reported at pos.
func (d *ignoreDirective) matches(r *report.Result, pos string, abs func(string) string) bool {
	i := strings.LastIndexByte(pos, ':')
	if i < 0 {
		return false
	}
	line, err := strconv.Atoi(pos[i+1:])
	if err != nil || line != d.target || abs(pos[:i]) != d.file {
		return false
	}
	switch {
	case d.key == "*":
		return true
	case d.key == "DBV001":
		return r.Verdict == refine.Unsafe
	case d.key == "DBV002":
		return r.Verdict == refine.Unknown
	}
	c := strings.ToLower(strings.Join(strings.Fields(r.Constraint), ""))
	key := strings.ToLower(d.key)
	return c == key || strings.HasPrefix(c, key+".") || strings.Contains(c, key)
}

// applyIgnores marks the results the directives name as suppressed and
// returns a warning for each directive that suppressed nothing.
func applyIgnores(results []*report.Result, ds []*ignoreDirective, dir string, rel func(string) string) []string {
	abs := func(f string) string {
		if filepath.IsAbs(f) {
			return filepath.Clean(f)
		}
		return filepath.Join(dir, f)
	}
	for _, r := range results {
		if r.Verdict == refine.Safe {
			continue
		}
		for _, d := range ds {
			if d.matches(r, r.EntryPosition, abs) || d.matches(r, r.Position, abs) {
				d.used = true
				r.Suppressed = d.reason
				break
			}
		}
	}
	var warns []string
	for _, d := range ds {
		if !d.used {
			warns = append(warns, fmt.Sprintf("%s:%d: //dbverify:ignore %s suppresses nothing (no UNSAFE or UNKNOWN result it names is reported on line %d)", rel(d.file), d.line, d.key, d.target))
		}
	}
	return warns
}
