package spec

import (
	"regexp"
	"slices"
	"strings"

	"github.com/dbverify/dbverify/sqlir"
)

// An Unsupported property is a --constraint the row model cannot check:
// one that is not over one row (a subquery, an aggregate). Every entry
// that may write one of the tables it names gets UNKNOWN with Reason,
// instead of the whole run failing.
type Unsupported struct {
	// Text is the condition as written; Reason why it is not checked.
	Text, Reason string
	// On are the tables of the program or the schema the condition
	// names, sorted.
	On []string
}

// Tables returns the tables the condition names.
func (u *Unsupported) Tables() []string { return u.On }

// String returns the condition as written.
func (u *Unsupported) String() string { return u.Text }

// Label returns the condition as written.
func (u *Unsupported) Label() string { return u.Text }

// identifier matches the words of a condition that may name a table.
var identifier = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// namedTables returns the tables of the program's SQL and of the schema
// that text names as a word, lower-cased and sorted.
func namedTables(text string, prog Program, schema *sqlir.Schema) []string {
	known := map[string]bool{}
	for _, t := range prog.Tables() {
		known[strings.ToLower(t)] = true
	}
	if schema != nil {
		for n := range schema.Tables {
			known[strings.ToLower(n)] = true
		}
	}
	var out []string
	for _, w := range identifier.FindAllString(text, -1) {
		if w = strings.ToLower(w); known[w] {
			out = append(out, w)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
