package pipeline

import (
	"fmt"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/frontend"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/report"
	"github.com/dbverify/dbverify/spec"
)

// A job is one (entry, constraint) to decide.
type job struct {
	entry, pos string // the entry's name and the position of its declaration
	prog       *ir.Program
	c          spec.Property
	// rounded is prog with float results rounded (nil: prog does no
	// float arithmetic), wrapped prog with Go's integer wrap-around (nil:
	// prog has it already): a SAFE on prog is checked on them too
	// (rounding.go).
	rounded, wrapped *ir.Program
	// assumed are the run's other row constraints, assumed on entry as
	// facts (together.go); nil: the constraint is decided alone.
	assumed []*spec.TableFact
	// plain are prog, rounded and wrapped without following an element
	// of the slices a loop collects (frontend.Loaded.Unfollowed; nil when
	// prog follows none): decided first, and their SAFE or UNSAFE stands
	// (decideJob).
	plain *programs
}

// programs are a job's programs.
type programs struct {
	prog, rounded, wrapped *ir.Program
}

// unfollowed returns the programs translated again without following the
// elements of collected slices, nil when prog follows none.
func unfollowed(l *frontend.Loaded, prog, rounded, wrapped *ir.Program) *programs {
	plain := l.Unfollowed(prog)
	if plain == nil {
		return nil
	}
	// rounded and wrapped (nil when the job has none) without the
	// following where they have it.
	orSelf := func(p *ir.Program) *ir.Program {
		if u := l.Unfollowed(p); u != nil {
			return u
		}
		return p
	}
	return &programs{prog: plain, rounded: orSelf(rounded), wrapped: orSelf(wrapped)}
}

// plan translates every entry that may write a constrained table once
// (the frontend is not safe for concurrent use) and pairs it with each
// constraint it may break. It records the coverage of the constrained
// tables' writers, the number of entries and the warnings in rep.
func plan(cfg Config, in *inputs, rep *report.Report) ([]job, error) {
	// A write to a table with a trigger, or to a view, may change the
	// constrained table (the row model reports it UNKNOWN).
	var tables []string
	for _, c := range in.constraints {
		tables = append(tables, writersOf(in.schema, c)...)
	}
	entries := in.loaded.Entries(tables, in.entryRE)
	entries, rep.Coverage, rep.Warnings = cover(in.loaded, tables, entries, in.entryRE != nil)
	rep.Stats.Entries = len(entries)
	if err := checkEntries(cfg, entries, tables, in.loaded); err != nil {
		return nil, &UsageError{err}
	}
	var jobs []job
	checked := map[spec.Property]bool{}
	for _, fn := range entries {
		prog := in.loaded.Translate(fn)
		rounded := in.loaded.TranslateRounded(fn, prog)
		wrapped := in.loaded.TranslateWrapped(fn, prog)
		plain := unfollowed(in.loaded, prog, rounded, wrapped)
		for _, p := range []*ir.Program{prog, rounded, wrapped} {
			checkGoroutines(p, in.schema)
		}
		if plain != nil {
			for _, p := range []*ir.Program{plain.prog, plain.rounded, plain.wrapped} {
				checkGoroutines(p, in.schema)
			}
		}
		for _, c := range in.constraints {
			if in.entryRE == nil && !reachesWrite(in.loaded, fn, writersOf(in.schema, c)) {
				continue
			}
			checked[c] = true
			jobs = append(jobs, job{frontend.EntryName(fn), in.loaded.FuncPosition(fn), prog, c, rounded, wrapped, nil, plain})
		}
	}
	if len(jobs) == 0 {
		hint := ""
		if n := countGenerated(rep.Coverage); n > 0 {
			hint = fmt.Sprintf(" (%d generated sqlc query method(s) that nothing calls write it: --check-generated checks them)", n)
		}
		return nil, &UsageError{fmt.Errorf("nothing to check: no entry point in %s may write %s%s", strings.Join(cfg.Patterns, " "), strings.Join(tables, ", "), hint)}
	}
	for _, c := range in.constraints {
		if !checked[c] {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("constraint %q not checked: no entry point may write %s", c.String(), strings.Join(c.Tables(), ", ")))
		}
	}
	return jobs, nil
}

// cover computes the coverage of the constrained tables' writers by the
// entries. A writer no entry runs becomes an entry itself, unless the
// entries were selected by --entry (then it is a warning) or it is a
// generated sqlc query nothing calls (listed as not checked, unless
// --check-generated).
func cover(l *frontend.Loaded, tables []string, entries []*ssa.Function, selected bool) ([]*ssa.Function, []report.Coverage, []string) {
	var reached []map[*ssa.Function]bool
	for _, e := range entries {
		reached = append(reached, l.Reached(e))
	}
	var out []report.Coverage
	var warnings []string
	for _, w := range l.Writers(tables) {
		c := report.Coverage{Writer: w.Name, Position: w.Position, Tables: w.Tables, Entries: []string{}}
		for i, e := range entries {
			if reached[i][w.Fn] {
				c.Entries = append(c.Entries, frontend.EntryName(e))
			}
		}
		sites, bad, fromCaller := l.CallerSQL(w.Fn)
		if bad != "" {
			warnings = append(warnings, fmt.Sprintf("%s (%s) runs the SQL text its callers pass, and the call at %s passes text that is not constant: verified as an entry of its own", w.Name, w.Position, bad))
		}
		if fromCaller && !selected {
			c.CallerSites = sites // checked at its call sites
		} else if len(c.Entries) == 0 && !selected && l.GeneratedNotChecked(w.Fn) {
			c.Generated = true // sqlc's query nothing calls: not checked
		} else if len(c.Entries) == 0 {
			if selected {
				warnings = append(warnings, fmt.Sprintf("%s (%s) writes %s, but no verified entry runs it (not selected by --entry)", w.Name, w.Position, strings.Join(w.Tables, ", ")))
			} else {
				entries = append(entries, w.Fn)
				reached = append(reached, l.Reached(w.Fn))
				c.Entries, c.Added = []string{w.Name}, true
				warnings = append(warnings, fmt.Sprintf("%s (%s) writes %s, but no entry point found runs it: verified as an entry of its own", w.Name, w.Position, strings.Join(w.Tables, ", ")))
			}
		}
		out = append(out, c)
	}
	return entries, out, warnings
}

// countGenerated counts the writers left unchecked as uncalled generated
// queries.
func countGenerated(cov []report.Coverage) int {
	n := 0
	for _, c := range cov {
		if c.Generated {
			n++
		}
	}
	return n
}
