package pipeline

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"time"

	"golang.org/x/tools/go/ssa"

	"errors"
	"github.com/dbverify/dbverify/frontend"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/report"
	"github.com/dbverify/dbverify/smt"
	"github.com/dbverify/dbverify/spec"
	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
	sqlschema "github.com/dbverify/dbverify/sqlparse/schema"
	"slices"
)

// Config is one dbverify run.
type Config struct {
	Dir      string
	Patterns []string
	// Packages, when set, holds the packages already loaded (for
	// several runs over one module): Patterns are matched against it
	// (frontend.PackageSet).
	Packages *frontend.PackageSet
	// Solvers, when set, lends the run its Z3 solvers and takes them back
	// (for several runs in one process; smt.Pool): a run of its own
	// creates and closes them.
	Solvers     *smt.Pool
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
	// CheckGenerated verifies sqlc query methods nothing in the module
	// calls too (by default the coverage lists them as not checked).
	CheckGenerated bool
	// NoOverflow makes Go integer arithmetic mathematical (an assumption
	// printed with the results) instead of wrapping around.
	NoOverflow bool
	// ConfigInputs makes package-level variables set at initialisation
	// or by the program's code outside it inputs instead of
	// approximations (frontend.Config.ConfigInputs).
	ConfigInputs bool
	KeepBoolProg bool
	KeepIR       bool
	Workers      int // 0 = GOMAXPROCS
	// The work limits decide when a result is UNKNOWN: the same input
	// gets the same verdict however busy the machine is.
	//
	// RLimit bounds each SMT check in Z3's deterministic resource units;
	// 0 = smt.DefaultRLimit, negative = none. MaxQueries, MaxPredicates
	// and MaxStates bound the SMT queries, the predicates and the
	// abstract states of one search, per (entry, constraint); 0 = refine's
	// defaults (refine.DefaultMaxQueries …).
	RLimit        int
	MaxQueries    int
	MaxPredicates int
	MaxStates     int

	// The wall-clock limits are the user's safety net, off by default:
	// TimeoutMS bounds each SMT check, TimeLimit each (entry,
	// constraint), Deadline the whole run after loading; 0 = none.
	TimeoutMS int
	TimeLimit time.Duration
	Deadline  time.Duration
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
	// NoReduction searches every interleaving of a pair, without the
	// partial-order reduction (--por=none).
	NoReduction bool
	// Requests is how many requests the search puts together where the
	// stability proof fails: 2 (0 means 2), or 3 (threerequests.go).
	Requests int

	// Progress, if set, is called after each (entry, constraint) is done.
	Progress func(done, total int, r *report.Result)
	// Started, if set, is called when a worker starts deciding an
	// (entry, constraint), so that a slow one can be named while it runs.
	Started func(entry, constraint string)
	// Phase, if set, is told what the run does once every result is
	// decided (the re-checks under the run's other constraints, each
	// named as it starts and as it ends), so that a long tail is not
	// silent.
	Phase func(msg string)
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
		Assume:  tableFactTexts(in.facts),
	}
	jobs, err := plan(cfg, in, rep)
	if err != nil {
		return nil, err
	}
	if in.schema != nil {
		// What the schema's loader left out or does not assume (a CHECK
		// skipped, one NOT ENFORCED).
		rep.Warnings = append(rep.Warnings, in.schema.Warnings...)
	}
	rep.Warnings = append(rep.Warnings, in.warnings...)
	if cfg.Concurrent {
		rep.Findings = txEscapeFindings(jobs)
		lost, err := lostUpdateFindings(jobs, cfg, in.levels)
		if err != nil {
			return nil, err
		}
		rep.Findings = append(rep.Findings, lost...)
		dup, err := checkInsertFindings(jobs, cfg, in)
		if err != nil {
			return nil, err
		}
		rep.Findings = append(rep.Findings, dup...)
		order, cut, err := orderDepFindings(jobs, cfg, in.schema)
		if err != nil {
			return nil, err
		}
		rep.Findings = append(rep.Findings, order...)
		rep.Findings = append(rep.Findings, deadlockFindings(jobs, cfg, in)...)
		if cut != "" {
			rep.Warnings = append(rep.Warnings, cut)
		}
	}
	if cfg.Deadline > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.Deadline)
		defer cancel()
	}
	results, cut, err := runJobs(ctx, cfg, in, jobs, jobs)
	if err != nil {
		return nil, err
	}
	// Interrupted before every result was decided; an interruption in
	// the re-checks below leaves the first verdicts, all decided.
	rep.Interrupted = cut && interrupted(ctx)
	if err := checkTogether(ctx, cfg, in, jobs, results); err != nil {
		return nil, err
	}
	for _, r := range results {
		rep.Stats.SMTQueries += r.SMTQueries
		rep.Stats.SolverRestarts += r.SolverRestarts
		if r.Vacuous {
			return nil, &UsageError{fmt.Errorf("constraint %q: no database state and arguments satisfy it together with the --assume facts and the schema's CHECKs (checked at %s): every verdict would be vacuous", r.Constraint, r.Entry)}
		}
	}
	dir := cfg.Dir
	if dir == "" {
		dir, _ = os.Getwd()
	}
	rep.Warnings = append(rep.Warnings, applyIgnores(results, in.ignores, dir, in.loaded.RelFile)...)
	markDatabaseChecks(results, in.constraints, in.schema, string(cfg.Dialect))
	printUUIDs(results, in.schema)
	printDates(results, in.schema)
	noteSameColumnRows(results, in.schema, cfg.NoInferKey)
	printSQLiteReals(results, string(cfg.Dialect))
	noteEngineSemantics(results, string(cfg.Dialect))
	rep.Results = results
	rep.Tally()
	rep.Stats.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// interrupted reports whether ctx was cancelled (SIGINT), not stopped by
// the run's --deadline.
func interrupted(ctx context.Context) bool {
	return errors.Is(ctx.Err(), context.Canceled)
}

// inputs are what the jobs of a run share: the loaded program, the
// schema, the constraints, the facts and the ignore directives.
type inputs struct {
	loaded      *frontend.Loaded
	schema      *sqlir.Schema
	entryRE     *regexp.Regexp
	constraints []spec.Property
	facts       []spec.Fact
	ignores     []*ignoreDirective
	levels      *codeLevels // the isolation levels the code sets, read once
	// warnings are the run-wide warnings of loading: the objects the
	// code creates, the relations it writes that --schema lacks
	// (codeddl.go).
	warnings []string
}

// load reads the schema, loads the packages and resolves the constraints
// and facts against them.
func load(cfg Config) (*inputs, error) {
	in := &inputs{levels: newCodeLevels(cfg.Dir)}
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
	loaded, err := frontend.Load(frontend.Config{Dir: cfg.Dir, Patterns: cfg.Patterns, Dialect: string(cfg.Dialect), Schema: in.schema, AssumeNoOverflow: cfg.NoOverflow, CheckGenerated: cfg.CheckGenerated, ConfigInputs: cfg.ConfigInputs, Packages: cfg.Packages})
	if err != nil {
		return nil, err
	}
	in.loaded = loaded
	if in.constraints, in.facts, err = readSpec(cfg, in.schema, loaded); err != nil {
		return nil, &UsageError{err}
	}
	declared := in.schema != nil
	in.schema, in.warnings = withCodeObjects(in.schema, loaded.CodeObjects())
	if declared {
		in.warnings = append(in.warnings, undeclaredWrites(in.schema, loaded.RelationWrites())...)
	}
	if in.ignores, err = readIgnores(loaded.Files, loaded.RelFile); err != nil {
		return nil, &UsageError{err}
	}
	return in, nil
}

// readSpec returns the properties to check (--constraint, or the schema's
// CHECKs) and the --assume facts, and checks the properties' names.
func readSpec(cfg Config, schema *sqlir.Schema, loaded *frontend.Loaded) ([]spec.Property, []spec.Fact, error) {
	props, err := spec.Resolve(cfg.Constraints, cfg.Table, schema, loaded)
	if errors.Is(err, spec.ErrNoProperty) {
		return nil, nil, fmt.Errorf("schema %s has no CHECK constraints and no --constraint was given", cfg.Schema)
	}
	if err != nil {
		return nil, nil, err
	}
	if err := spec.CheckNames(props, schema, loaded); err != nil {
		return nil, nil, err
	}
	if loaded != nil && loaded.Dialect == sqlparse.Postgres {
		if msg := spec.TextComparedWithNumber(props, schema); msg != "" {
			return nil, nil, errors.New(msg)
		}
	}
	facts, err := spec.ParseFacts(cfg.Assume)
	if err != nil {
		return nil, nil, err
	}
	return props, facts, nil
}

// withCheckFacts returns facts and the schema's CHECKs that hold on entry
// of prog for property c (spec.CheckFacts), and those CHECKs.
func withCheckFacts(schema *sqlir.Schema, c spec.Property, prog *ir.Program, facts []spec.Fact) ([]spec.Fact, []*spec.TableFact) {
	checks := spec.CheckFacts(schema, c, readTables(prog))
	all := slices.Clone(facts)
	for _, f := range checks {
		all = append(all, f)
	}
	return all, checks
}

// writersOf returns the tables whose writes may change a table of
// property p: its tables, and those a trigger or view writes them through.
func writersOf(schema *sqlir.Schema, p spec.Property) []string {
	var out []string
	for _, t := range p.Tables() {
		out = append(out, schema.WritersOf(t)...)
	}
	return out
}

// readTables returns the tables the SELECTs of prog read.
func readTables(prog *ir.Program) []string {
	var out []string
	for _, e := range prog.Edges {
		if s, ok := e.Stmt.(*ir.Select); ok {
			out = append(out, s.SQL.Tables()...)
		}
	}
	return out
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

// tableFactTexts returns the texts of the facts about a table's rows.
func tableFactTexts(facts []spec.Fact) []string {
	var out []string
	for _, f := range facts {
		if tf, ok := f.(*spec.TableFact); ok {
			out = append(out, tf.Text)
		}
	}
	return out
}
