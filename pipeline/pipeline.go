package pipeline

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/dbmodel"
	"github.com/dbverify/dbverify/frontend"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/refine"
	"github.com/dbverify/dbverify/smt"
	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
	sqlschema "github.com/dbverify/dbverify/sqlparse/schema"
)

// Config is one dbverify run.
type Config struct {
	Dir         string
	Patterns    []string
	Constraints []string // as the user wrote them
	Table       string   // default table for bare column names
	Schema      string   // file or directory of DDL ("" = none)
	Entry       string   // regexp overriding entry discovery ("" = none)
	// Assume lists facts: over a table's columns (qualified, e.g.
	// "products.price >= 0") they hold for the initial database; over bare
	// names, for the entry's parameters ("amount > 0").
	Assume  []string
	Dialect string // "" = the frontend detects it (sql.Open, driver imports, $n)

	MaxRefinements int
	NoInferKey     bool
	KeepBoolProg   bool
	KeepIR         bool
	Workers        int // 0 = GOMAXPROCS
	TimeoutMS      int // per SMT check, wall clock (the safety net); 0 = none
	// RLimit bounds each SMT check in Z3's deterministic resource units,
	// so that the verdict does not depend on the machine's load; 0 =
	// smt.DefaultRLimit, negative = none.
	RLimit int
	// TimeLimit bounds each (entry, constraint); 0 = none.
	TimeLimit time.Duration
	// Engine is "lbe" (default; large-block encoding: a loop-free
	// program decided by one formula, loops abstracted at their heads
	// only, fixpoint when that gives up), "fixpoint" (per-statement
	// predicate abstraction) or "paths", the seed paper's path enumeration
	// (a baseline for the scaling study), listing at most MaxPaths paths
	// per abstraction.
	Engine   string
	MaxPaths int

	// CacheDir, if set, holds decided results across runs (see
	// resultCache); ToolID identifies the tool's build in the cache keys.
	CacheDir string
	ToolID   string

	// Progress, if set, is called after each (entry, constraint) is done.
	Progress func(done, total int, r *Result)
}

// UsageError is a problem with the command line or its inputs (a bad
// constraint, a schema that does not parse): exit code 2.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Result is the verdict for one (entry, constraint).
type Result struct {
	Entry string
	// EntryPosition is "file:line" of the entry function's declaration.
	EntryPosition string
	Constraint    string
	Verdict       refine.Verdict
	Reason        string
	Position      string
	Refinements   int
	Predicates    []string
	Assumptions   []string
	Trace         *refine.Result // the CEGAR result (trace, stats); nil if not run
	IR            string         // lowered program, if KeepIR
	BoolProg      string         // last boolean program, if KeepBoolProg
	Seconds       float64
	SMTQueries    int
	// InBaseline is set by the command when the finding is in the
	// --baseline report: it is shown but does not fail the run.
	InBaseline bool
	// Cached is set when the verdict comes from the result cache (no
	// verification ran, SMTQueries is 0).
	Cached bool
	// Suppressed is the reason of the //dbverify:ignore directive that
	// suppresses this result ("" = not suppressed).
	Suppressed string
	// Vacuous is set when no initial state satisfies the constraint, the
	// facts and the schema's CHECKs together: nothing was checked.
	Vacuous bool
}

// Report is the outcome of a run.
type Report struct {
	Results []*Result
	Entries int
	// Dialect is the SQL dialect the program's SQL was read in, and
	// DialectSource why ("driver github.com/lib/pq", "sql.Open(\"sqlite\", …)").
	Dialect, DialectSource string
	// Coverage lists the functions of the checked packages that write a
	// constrained table, each with the verified entries that run it.
	Coverage []Coverage
	// Warnings are problems with what the run checks (a writer no
	// verified entry runs).
	Warnings []string
	Seconds  float64
	// FrontendSeconds is the time spent loading and building SSA.
	FrontendSeconds float64
	SMTQueries      int
}

// Coverage says which verified entries run a function that writes a
// constrained table. A writer no discovered entry runs is made an entry
// of its own (Added); with --entry, it is left out and warned about.
type Coverage struct {
	Writer   string
	Position string
	Tables   []string // "?" for SQL whose text is not known
	Entries  []string
	Added    bool
}

// Run runs the pipeline. Errors are a *frontend.LoadError or *UsageError
// (exit 2) or an internal error.
func Run(cfg Config) (*Report, error) {
	start := time.Now()
	if len(cfg.Constraints) == 0 && cfg.Schema == "" {
		return nil, &UsageError{errors.New("no constraint: pass --constraint EXPR (or --schema with CHECK constraints)")}
	}
	switch cfg.Engine {
	case "", "fixpoint", "paths", "lbe":
	default:
		return nil, &UsageError{fmt.Errorf("unknown engine %q (want lbe, fixpoint or paths)", cfg.Engine)}
	}
	if cfg.Dialect != "" {
		if _, err := sqlparse.ParseDialect(cfg.Dialect); err != nil {
			return nil, &UsageError{err}
		}
	}
	var schema *sqlir.Schema
	if cfg.Schema != "" {
		s, err := sqlschema.Load(cfg.Schema)
		if err != nil {
			return nil, &UsageError{fmt.Errorf("schema: %w", err)}
		}
		schema = s
	}
	var entryRE *regexp.Regexp
	if cfg.Entry != "" {
		re, err := regexp.Compile(cfg.Entry)
		if err != nil {
			return nil, &UsageError{fmt.Errorf("--entry: %w", err)}
		}
		entryRE = re
	}
	loaded, err := frontend.Load(frontend.Config{Dir: cfg.Dir, Patterns: cfg.Patterns, Dialect: cfg.Dialect, Schema: schema})
	if err != nil {
		return nil, err
	}
	cfg.Dialect = loaded.Dialect.String() // as given or detected: the row model's dialect
	rep := &Report{FrontendSeconds: time.Since(start).Seconds(), Dialect: loaded.Dialect.String(), DialectSource: loaded.DialectSource}
	constraints, err := resolveConstraints(cfg, schema, loaded)
	if err != nil {
		return nil, err
	}
	if err := checkNames(constraints, schema, loaded); err != nil {
		return nil, &UsageError{err}
	}
	facts, err := parseFacts(cfg.Assume)
	if err != nil {
		return nil, err
	}
	ignores, err := readIgnores(loaded.Files, loaded.RelFile)
	if err != nil {
		return nil, &UsageError{err}
	}

	// Translate every entry once (the frontend is not safe for concurrent use).
	// A write to a table with a trigger, or to a view, may change the
	// constrained table (the row model reports it UNKNOWN).
	var tables []string
	for _, c := range constraints {
		tables = append(tables, schema.WritersOf(c.Table)...)
	}
	entries := loaded.Entries(tables, entryRE)
	entries, rep.Coverage, rep.Warnings = cover(loaded, tables, entries, entryRE != nil)
	rep.Entries = len(entries)
	if err := checkEntries(cfg, entries, tables, loaded); err != nil {
		return nil, &UsageError{err}
	}
	type job struct {
		entry, pos string
		prog       *ir.Program
		c          *sqlir.Constraint
	}
	var jobs []job
	checked := map[*sqlir.Constraint]bool{}
	for _, fn := range entries {
		prog := loaded.Translate(fn)
		for _, c := range constraints {
			if entryRE == nil && !reachesWrite(loaded, fn, schema.WritersOf(c.Table)) {
				continue
			}
			checked[c] = true
			jobs = append(jobs, job{frontend.EntryName(fn), loaded.FuncPosition(fn), prog, c})
		}
	}
	for _, c := range constraints {
		if !checked[c] && len(jobs) > 0 {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("constraint %q not checked: no entry point may write %s", c.Text, c.Table))
		}
	}

	results := make([]*Result, len(jobs))
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers > len(jobs) {
		workers = len(jobs)
	}
	var mu sync.Mutex
	done := 0
	next := make(chan int)
	var wg sync.WaitGroup
	var werr error
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			solver, err := smt.NewSolver(cfg.TimeoutMS)
			if err != nil {
				mu.Lock()
				werr = fmt.Errorf("starting Z3: %w", err)
				mu.Unlock()
				for range next {
				}
				return
			}
			defer solver.Close()
			if err := solver.SetRLimit(rlimitUnits(cfg.RLimit)); err != nil {
				mu.Lock()
				werr = fmt.Errorf("starting Z3: %w", err)
				mu.Unlock()
				for range next {
				}
				return
			}
			for i := range next {
				j := jobs[i]
				r := verify(j.entry, j.prog, j.c, schema, facts, solver, cfg)
				r.EntryPosition = j.pos
				mu.Lock()
				results[i] = r
				done++
				if cfg.Progress != nil {
					cfg.Progress(done, len(jobs), r)
				}
				mu.Unlock()
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	if werr != nil {
		return nil, werr
	}
	if len(jobs) == 0 {
		return nil, &UsageError{fmt.Errorf("nothing to check: no entry point in %s may write %s", strings.Join(cfg.Patterns, " "), strings.Join(tables, ", "))}
	}
	for _, r := range results {
		rep.SMTQueries += r.SMTQueries
		if r.Vacuous {
			return nil, &UsageError{fmt.Errorf("constraint %q: no database state and arguments satisfy it together with the --assume facts and the schema's CHECKs (checked at %s): every verdict would be vacuous", r.Constraint, r.Entry)}
		}
	}
	dir := cfg.Dir
	if dir == "" {
		dir, _ = os.Getwd()
	}
	rep.Warnings = append(rep.Warnings, applyIgnores(results, ignores, dir, loaded.RelFile)...)
	rep.Results = results
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// cover computes the coverage of the constrained tables' writers by the
// entries. A writer no entry runs becomes an entry itself, unless the
// entries were selected by --entry (then it is a warning).
func cover(l *frontend.Loaded, tables []string, entries []*ssa.Function, selected bool) ([]*ssa.Function, []Coverage, []string) {
	var reached []map[*ssa.Function]bool
	for _, e := range entries {
		reached = append(reached, l.Reached(e))
	}
	var out []Coverage
	var warnings []string
	for _, w := range l.Writers(tables) {
		c := Coverage{Writer: w.Name, Position: w.Position, Tables: w.Tables, Entries: []string{}}
		for i, e := range entries {
			if reached[i][w.Fn] {
				c.Entries = append(c.Entries, frontend.EntryName(e))
			}
		}
		if len(c.Entries) == 0 {
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

// verify decides one (entry, constraint).
func verify(entry string, prog *ir.Program, c *sqlir.Constraint, schema *sqlir.Schema, facts []*sqlir.Constraint, s *smt.Solver, cfg Config) *Result {
	start := time.Now()
	r := &Result{Entry: entry, Constraint: c.Text}
	if c.Name != "" {
		r.Constraint = c.Name + ": " + c.Text
	}
	defer func() { r.Seconds = time.Since(start).Seconds() }()
	if len(prog.Unsupported) > 0 {
		r.Verdict = refine.Unknown
		var parts []string
		for _, u := range prog.Unsupported {
			parts = append(parts, fmt.Sprintf("%s at %s", u.What, u.Position()))
		}
		r.Reason = "unsupported: " + strings.Join(dedupe(parts), "; ")
		r.Position = prog.Unsupported[0].Position()
		return r
	}
	checks := checkFacts(schema, c, prog)
	facts = append(append([]*sqlir.Constraint(nil), facts...), checks...)
	dialect := cfg.Dialect
	if prog.Dialect != "" {
		dialect = prog.Dialect // the entry's own (handles of two dialects)
	}
	low, err := dbmodel.Lower(prog, c, dbmodel.Options{Schema: schema, NoInferKey: cfg.NoInferKey, Facts: facts, Dialect: dialect})
	if err != nil {
		r.Verdict, r.Reason = refine.Unknown, "internal: "+err.Error()
		return r
	}
	// One name per value: no formula or predicate over a plain copy.
	ir.PropagateCopies(low.Program)
	r.Assumptions = append(append([]string(nil), prog.Assumptions...), low.Assumptions...)
	if len(checks) > 0 {
		var names []string
		for _, f := range checks {
			names = append(names, f.Name)
		}
		r.Assumptions = append(r.Assumptions, "the schema's CHECK constraints hold on entry (the database enforces them): "+strings.Join(names, ", "))
	}
	if cfg.KeepIR {
		r.IR = low.Program.String()
	}
	if sat, err := s.Sat(low.OnEntry); err == nil && sat == smt.Unsat {
		r.Verdict, r.Vacuous = refine.Unknown, true
		r.Reason = "vacuous: no database state and arguments satisfy the constraint together with the --assume facts and the schema's CHECKs, so nothing can be checked"
		return r
	}
	max := cfg.MaxRefinements
	if max == 0 {
		max = 20
	}
	opt := refine.Options{MaxRefinements: max, KeepBoolProg: cfg.KeepBoolProg, Timeout: cfg.TimeLimit}
	cache := resultCache{dir: cfg.CacheDir}
	var key string
	if cfg.CacheDir != "" && !cfg.KeepBoolProg {
		key = cache.key(cfg.ToolID, cfg, low.Program)
		if res, ok := cache.get(key); ok {
			r.Trace, r.Cached = res, true
			r.Verdict, r.Reason, r.Position = res.Verdict, res.Reason, res.Position
			r.Refinements, r.Predicates = res.Refinements, res.Predicates
			return r
		}
	}
	var res *refine.Result
	switch cfg.Engine {
	case "paths":
		maxPaths := cfg.MaxPaths
		if maxPaths == 0 {
			maxPaths = 100000
		}
		res = refine.CheckPaths(low.Program, s, opt, maxPaths)
	case "fixpoint":
		res = refine.Check(low.Program, s, opt)
	default:
		res = refine.CheckLBE(low.Program, s, opt)
	}
	r.Trace = res
	r.Verdict, r.Reason, r.Position = res.Verdict, res.Reason, res.Position
	r.Refinements, r.Predicates = res.Refinements, res.Predicates
	r.BoolProg = res.BoolProg
	r.SMTQueries = res.Stats.SMTQueries
	if key != "" {
		cache.put(key, res)
	}
	return r
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// resolveConstraints parses --constraint flags and, when none is given,
// takes the schema's CHECK constraints.
func resolveConstraints(cfg Config, schema *sqlir.Schema, l *frontend.Loaded) ([]*sqlir.Constraint, error) {
	var out []*sqlir.Constraint
	for _, text := range cfg.Constraints {
		c, err := sqlparse.ParseConstraint(text, cfg.Table)
		if err != nil && cfg.Table == "" {
			// Bare columns: the table is clear if exactly one table the
			// program uses has them all.
			if t := guessTable(text, l, schema); t != "" {
				c, err = sqlparse.ParseConstraint(text, t)
			}
		}
		if err != nil {
			return nil, &UsageError{err}
		}
		out = append(out, c)
	}
	if len(out) == 0 && schema != nil {
		var names []string
		for n := range schema.Tables {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			for i := range schema.Tables[n].Checks {
				ck := schema.Tables[n].Checks[i]
				out = append(out, &ck)
			}
		}
		if len(out) == 0 {
			return nil, &UsageError{fmt.Errorf("schema %s has no CHECK constraints and no --constraint was given", cfg.Schema)}
		}
	}
	return out, nil
}

// checkFacts returns the schema's CHECK constraints other than c, as
// facts about the initial database: the database enforces them, so every
// row satisfies them on entry. Only the checks of c's table and of the
// tables prog reads can matter. A CHECK over a column that may be NULL is
// left out: it also accepts the NULL rows (the condition is unknown
// there), which the row model, without NULLs, cannot express.
func checkFacts(schema *sqlir.Schema, c *sqlir.Constraint, prog *ir.Program) []*sqlir.Constraint {
	if schema == nil {
		return nil
	}
	read := map[string]bool{strings.ToLower(c.Table): true}
	for _, e := range prog.Edges {
		if s, ok := e.Stmt.(*ir.Select); ok {
			for _, t := range s.SQL.Tables() {
				read[t] = true
			}
		}
	}
	var names []string
	for n := range schema.Tables {
		if read[n] {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var out []*sqlir.Constraint
	for _, n := range names {
		t := schema.Tables[n]
		for i := range t.Checks {
			ck := &t.Checks[i]
			if strings.EqualFold(ck.Table, c.Table) && ck.Name == c.Name && ck.Text == c.Text {
				continue // c itself: ψ is assumed on entry anyway
			}
			if ck.Table == "" || !notNullColumns(t, ck.Expr) {
				continue
			}
			out = append(out, ck)
		}
	}
	return out
}

// notNullColumns reports whether every column e mentions is a NOT NULL
// column of t.
func notNullColumns(t *sqlir.Table, e sqlir.Expr) bool {
	ok := true
	sqlir.Rewrite(e, func(x sqlir.Expr) (sqlir.Expr, bool) {
		c, isCol := x.(*sqlir.ColRef)
		if !isCol {
			return nil, false
		}
		if c.Table != "" && !strings.EqualFold(c.Table, t.Name) {
			ok = false
			return nil, false
		}
		found := false
		for _, col := range t.Columns {
			if strings.EqualFold(col.Name, c.Name) {
				found = col.NotNull
			}
		}
		ok = ok && found
		return nil, false
	})
	return ok
}

// parseFacts parses --assume expressions. A fact whose columns are
// qualified is about that table; one with bare names is about the entry's
// parameters (Table "").
func parseFacts(texts []string) ([]*sqlir.Constraint, error) {
	const params = "__parameters__"
	var out []*sqlir.Constraint
	for _, text := range texts {
		f, err := sqlparse.ParseConstraint(text, "")
		if err != nil {
			// No table named: a fact about the parameters.
			f, err = sqlparse.ParseConstraint(text, params)
		}
		if err != nil {
			return nil, &UsageError{fmt.Errorf("--assume: %w", err)}
		}
		if f.Table == params {
			f.Table = ""
		}
		out = append(out, f)
	}
	return out, nil
}

// guessTable returns the only table the program uses, if there is one.
func guessTable(text string, l *frontend.Loaded, schema *sqlir.Schema) string {
	tables := l.Tables()
	if len(tables) == 1 {
		return tables[0]
	}
	return ""
}

// reachesWrite reports whether fn may write one of tables.
func reachesWrite(l *frontend.Loaded, fn *ssa.Function, tables []string) bool {
	for _, t := range tables {
		if l.ReachesWrite(fn, t) {
			return true
		}
	}
	return false
}

// rlimitUnits is the per-check resource limit of Config.RLimit.
func rlimitUnits(cfg int) uint {
	switch {
	case cfg < 0:
		return 0
	case cfg == 0:
		return smt.DefaultRLimit
	}
	return uint(cfg)
}
