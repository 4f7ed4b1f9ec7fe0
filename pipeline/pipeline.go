package pipeline

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"time"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/frontend"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/report"
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
	Dialect Dialect // "" = the frontend detects it (sql.Open, driver imports, $n)

	MaxRefinements int // per result (0 = 20)
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
	Engine    Engine // "" = EngineLBE
	// MaxPaths bounds the paths EnginePaths lists per abstraction (0 =
	// 100,000).
	MaxPaths int

	// CacheDir, if set, holds decided results across runs (see
	// resultCache); ToolID identifies the tool's build in the cache keys.
	CacheDir string
	ToolID   string

	// Concurrent checks every entry for concurrent requests too (see
	// verifyConcurrent), at Isolation ("" or "auto": from the code or the
	// dialect's default; rc, rr, ser).
	Concurrent bool
	Isolation  string

	// Progress, if set, is called after each (entry, constraint) is done.
	Progress func(done, total int, r *report.Result)
}

// UsageError is a problem with the command line or its inputs (a bad
// constraint, a schema that does not parse): exit code 2.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Run runs the pipeline: it loads the packages, plans the jobs (entry,
// constraint) and decides them on a pool of workers. Errors are a
// *frontend.LoadError or *UsageError (exit 2) or an internal error.
//
// Cancelling ctx stops the run promptly: the running checks are
// interrupted and every job not decided by then is UNKNOWN with reason
// refine.ReasonCancelled; the report is still returned.
func Run(ctx context.Context, cfg Config) (*report.Report, error) {
	start := time.Now()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	in, err := load(cfg)
	if err != nil {
		return nil, err
	}
	cfg.Dialect = Dialect(in.loaded.Dialect.String()) // as given or detected: the row model's dialect
	rep := &report.Report{
		Dialect: &report.Dialect{Name: in.loaded.Dialect.String(), Source: in.loaded.DialectSource},
		Stats:   report.Stats{FrontendSeconds: time.Since(start).Seconds()},
	}
	jobs, err := plan(cfg, in, rep)
	if err != nil {
		return nil, err
	}
	results, err := runJobs(ctx, cfg, in, jobs)
	if err != nil {
		return nil, err
	}
	for _, r := range results {
		rep.Stats.SMTQueries += r.SMTQueries
		if r.Vacuous {
			return nil, &UsageError{fmt.Errorf("constraint %q: no database state and arguments satisfy it together with the --assume facts and the schema's CHECKs (checked at %s): every verdict would be vacuous", r.Constraint, r.Entry)}
		}
	}
	dir := cfg.Dir
	if dir == "" {
		dir, _ = os.Getwd()
	}
	rep.Warnings = append(rep.Warnings, applyIgnores(results, in.ignores, dir, in.loaded.RelFile)...)
	rep.Results = results
	rep.Tally()
	rep.Stats.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// inputs are what the jobs of a run share: the loaded program, the
// schema, the constraints, the facts and the ignore directives.
type inputs struct {
	loaded      *frontend.Loaded
	schema      *sqlir.Schema
	entryRE     *regexp.Regexp
	constraints []*sqlir.Constraint
	facts       []*sqlir.Constraint
	ignores     []*ignoreDirective
}

// load reads the schema, loads the packages and resolves the constraints
// and facts against them.
func load(cfg Config) (*inputs, error) {
	in := &inputs{}
	if cfg.Schema != "" {
		s, err := sqlschema.Load(cfg.Schema)
		if err != nil {
			return nil, &UsageError{fmt.Errorf("schema: %w", err)}
		}
		in.schema = s
	}
	if cfg.Entry != "" {
		re, err := regexp.Compile(cfg.Entry)
		if err != nil {
			return nil, &UsageError{fmt.Errorf("--entry: %w", err)}
		}
		in.entryRE = re
	}
	loaded, err := frontend.Load(frontend.Config{Dir: cfg.Dir, Patterns: cfg.Patterns, Dialect: string(cfg.Dialect), Schema: in.schema})
	if err != nil {
		return nil, err
	}
	in.loaded = loaded
	if in.constraints, err = resolveConstraints(cfg, in.schema, loaded); err != nil {
		return nil, err
	}
	if err := checkNames(in.constraints, in.schema, loaded); err != nil {
		return nil, &UsageError{err}
	}
	if in.facts, err = parseFacts(cfg.Assume); err != nil {
		return nil, err
	}
	if in.ignores, err = readIgnores(loaded.Files, loaded.RelFile); err != nil {
		return nil, &UsageError{err}
	}
	return in, nil
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
