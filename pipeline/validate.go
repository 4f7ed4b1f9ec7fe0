package pipeline

import (
	"fmt"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/frontend"
)

// checkEntries reports a run with no entry point: an --entry that matches
// nothing, or packages in which no function may write a constrained
// table. Either would otherwise end in "0 results" and exit 0.
func checkEntries(cfg Config, entries []*ssa.Function, tables []string, l *frontend.Loaded) error {
	if len(entries) > 0 {
		return nil
	}
	if cfg.Entry != "" {
		var names []string
		for _, fn := range l.Entries(tables, nil) {
			names = append(names, frontend.EntryName(fn))
		}
		if len(names) == 0 {
			return fmt.Errorf("--entry %q matches no function, and no function in %s may write %s", cfg.Entry, patterns(cfg), strings.Join(tables, ", "))
		}
		return fmt.Errorf("--entry %q matches no function (entry points that write %s: %s)", cfg.Entry, strings.Join(tables, ", "), strings.Join(names, ", "))
	}
	written := l.WrittenTables()
	if len(written) == 0 {
		return fmt.Errorf("nothing to check: no function in %s may write %s (the packages run no UPDATE, INSERT or DELETE the tool can see)", patterns(cfg), strings.Join(tables, ", "))
	}
	return fmt.Errorf("nothing to check: no function in %s may write %s (tables written: %s)", patterns(cfg), strings.Join(tables, ", "), strings.Join(written, ", "))
}

func patterns(cfg Config) string {
	if len(cfg.Patterns) == 0 {
		return "./..."
	}
	return strings.Join(cfg.Patterns, " ")
}
