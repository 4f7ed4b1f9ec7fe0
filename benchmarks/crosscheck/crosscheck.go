package crosscheck

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/dbverify/dbverify/benchmarks/harness"
	"github.com/dbverify/dbverify/groundtruth"
	"github.com/dbverify/dbverify/report"
	"github.com/dbverify/dbverify/sqlparse"
	"github.com/dbverify/dbverify/witness"
)

// Config says what to cross-check.
type Config struct {
	// CorpusDir is the corpus module's root; Bin the dbverify binary.
	CorpusDir, Bin string
	Cases          []*harness.Case
	// Runs is the number of random runs per SAFE or UNKNOWN entry.
	Runs int
	Seed int64
	// WorkDir holds the driver build and the engines' files.
	WorkDir string
	// Engines by dialect; nil entries are started under WorkDir.
	Engines map[sqlparse.Dialect]*groundtruth.Engine
	// TrustExpected skips running dbverify on cases that expect no UNSAFE:
	// their verdicts are taken from expect.json (the end-to-end test checks
	// that dbverify gives them). Cases with an UNSAFE are always run, for
	// the counterexamples.
	TrustExpected bool
	// Reports are dbverify's reports by case name, when the caller has
	// already run it (make bench); cases without one are run.
	Reports map[string]*harness.Report
	// Log receives progress lines (may be nil).
	Log func(format string, args ...any)
}

const modulePath = "example.com/corpus"

// checkFailure is an engine's error for a write a CHECK refused:
// PostgreSQL's "violates check constraint", SQLite's "CHECK constraint
// failed", MariaDB's "CONSTRAINT `name` failed" — not SQLite's "UNIQUE
// constraint failed", a key the write duplicated.
var checkFailure = regexp.MustCompile("(?i)violates check constraint|check constraint failed|constraint `[^`]*` failed")

// mariaDBSyntax is MariaDB's syntax error: SQL of MySQL 8 it does not run.
var mariaDBSyntax = regexp.MustCompile(`Error 1064 \(42000\).*MariaDB server version`)

// typeFailure is an engine's error for a value of the wrong type.
var typeFailure = regexp.MustCompile(`SQLSTATE (42P08|42804|22P02|22007|22008)|Error 1366|Incorrect \w+ value`)

// Run cross-checks the cases.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	logf := cfg.Log
	if logf == nil {
		logf = func(string, ...any) {}
	}
	rep := &Report{CaseProblems: map[string]string{}, Cases: len(cfg.Cases)}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // stops the verdicts' dbverify runs on an early return
	// dbverify's verdicts, computed while the corpus loads and the driver
	// builds.
	verdicts := make([]chan verdictResult, len(cfg.Cases))
	for i := range verdicts {
		verdicts[i] = make(chan verdictResult, 1)
	}
	go func() {
		for i, c := range cfg.Cases {
			byKey, problem := caseVerdicts(ctx, cfg, c)
			verdicts[i] <- verdictResult{byKey, problem}
		}
	}()

	// Load every case with syntax and types, and the handle packages.
	var patterns []string
	for _, c := range cfg.Cases {
		rel, err := filepath.Rel(cfg.CorpusDir, c.Dir)
		if err != nil {
			return nil, err
		}
		patterns = append(patterns, "./"+filepath.ToSlash(rel)+"/...")
	}
	start := time.Now()
	pkgs, err := witness.LoadProgram(cfg.CorpusDir, patterns...)
	if err != nil {
		return nil, fmt.Errorf("loading the corpus: %w", err)
	}
	logf("loaded %d packages in %s", len(pkgs), time.Since(start).Round(time.Millisecond))

	var entries []string
	for _, c := range cfg.Cases {
		for _, e := range c.Expect {
			entries = append(entries, e.Entry)
		}
	}
	src, err := witness.GenerateDriver(pkgs, cfg.CorpusDir, modulePath, entries)
	if err != nil {
		return nil, err
	}
	buildDir := filepath.Join(cfg.WorkDir, "driver")
	if err := os.MkdirAll(buildDir, 0o755); err != nil {
		return nil, err
	}
	start = time.Now()
	bin, err := src.Build(buildDir)
	if err != nil {
		return nil, err
	}
	logf("built the driver in %s", time.Since(start).Round(time.Millisecond))
	drv, err := witness.StartDriver(bin)
	if err != nil {
		return nil, err
	}
	defer drv.Close()

	engines := cfg.Engines
	if engines == nil {
		engines = map[sqlparse.Dialect]*groundtruth.Engine{}
	}
	var started []*groundtruth.Engine
	defer func() {
		for _, e := range started {
			e.Close()
		}
	}()
	engineFor := func(d sqlparse.Dialect) (*groundtruth.Engine, error) {
		if e := engines[d]; e != nil {
			return e, nil
		}
		e, err := groundtruth.Start(ctx, witness.EngineDialect(d), filepath.Join(cfg.WorkDir, "engines"))
		if err != nil {
			return nil, err
		}
		started = append(started, e)
		engines[d] = e
		return e, nil
	}

	for i, c := range cfg.Cases {
		cc := &caseCheck{cfg: cfg, c: c, src: src, drv: drv, pkgs: casePackages(c, pkgs),
			rng: rand.New(rand.NewSource(cfg.Seed + int64(i))), verdicts: <-verdicts[i]}
		results, problem := cc.run(ctx, engineFor)
		if problem != "" {
			rep.CaseProblems[c.Name] = problem
		}
		rep.Results = append(rep.Results, results...)
		logf("%s: %s", c.Name, caseLine(results, problem))
	}
	return rep, nil
}

func caseLine(rs []*EntryResult, problem string) string {
	if problem != "" {
		return "not run: " + problem
	}
	var parts []string
	for _, r := range rs {
		s := fmt.Sprintf("%s %s ×%d", ShortEntry(r.Entry), r.Verdict, r.Executions)
		if r.NotExecutable != "" {
			s += " (not executable: " + r.NotExecutable + ")"
		}
		if r.Confirmed {
			s += " broken"
		}
		if r.Finding != nil {
			s += " FINDING " + string(r.Finding.Kind)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

type verdictResult struct {
	byKey   map[harness.Key]*harness.Result
	problem string
}

// caseCheck cross-checks one case.
type caseCheck struct {
	cfg  Config
	c    *harness.Case
	src  *witness.DriverSource
	drv  *witness.Driver
	pkgs []*packages.Package
	rng  *rand.Rand
	// verdicts are dbverify's results for the case.
	verdicts verdictResult

	dialect    sqlparse.Dialect
	schema     *witness.Schema
	program    *witness.ProgramSQL
	args       caseArgs
	paramFacts []string
	tableFacts []*witness.Constraint
}

func (cc *caseCheck) run(ctx context.Context, engineFor func(sqlparse.Dialect) (*groundtruth.Engine, error)) ([]*EntryResult, string) {
	cc.args = parseArgs(cc.c.Args)
	byKey, problem := cc.verdicts.byKey, cc.verdicts.problem
	if problem != "" {
		return nil, problem
	}
	cc.dialect = caseDialect(cc.args, cc.pkgs)
	if d, ok := entriesDialect(byKey); ok && cc.args.dialect == "" {
		// A program of two dialects whose checked entries all read
		// their SQL in one: the case runs on that one's engine.
		cc.dialect = d
	}
	cc.program = witness.CollectSQL(cc.pkgs, cc.dialect)

	// The schema, the constraints and the facts.
	if cc.args.schema != "" {
		s, err := witness.LoadSchemaFiles(filepath.Join(cc.c.Dir, cc.args.schema))
		if err != nil {
			return nil, err.Error()
		}
		cc.schema = s
	}
	extra, numeric, timed := map[string][]string{}, map[string][]string{}, map[string][]string{}
	cons := map[string]*witness.Constraint{}
	checkNames := map[string]string{}
	for _, e := range cc.c.Expect {
		k, check, err := witness.ResolveConstraint(cc.schema, e.Constraint, cc.args.table)
		if err != nil {
			return nil, fmt.Sprintf("constraint %s: %v", e.Constraint, err)
		}
		if check != "" {
			checkNames[e.Constraint] = check
		}
		cons[e.Constraint] = k
		numeric[k.Table] = append(numeric[k.Table], k.Columns...)
		if r := byKey[harness.KeyOf(e.Entry, e.Constraint)]; r != nil {
			if cex := r.Counterexample; cex != nil {
				for _, row := range cex.Rows {
					for col, v := range row.Values {
						extra[row.Table] = append(extra[row.Table], col)
						if witness.IsTimestamp(v) {
							timed[row.Table] = append(timed[row.Table], col)
						}
					}
				}
			}
		}
	}
	for _, a := range cc.args.assume {
		if k, err := witness.ParseConstraint(a, ""); err == nil {
			cc.tableFacts = append(cc.tableFacts, k)
		} else {
			cc.paramFacts = append(cc.paramFacts, a)
		}
	}
	if cc.schema == nil {
		cc.schema = witness.Synthesize(cc.dialect, cc.program.Statements, extra, numeric, timed, cc.args.noInferKey)
	}
	for _, k := range cons {
		// The table as replay names it (quoted; qualified as the DDL
		// creates it: CREATE TABLE bank.accounts).
		k.From = cc.schema.TableSQL(cc.dialect, k.Table)
	}

	// A fresh database.
	eng, err := engineFor(cc.dialect)
	if err != nil {
		return nil, fmt.Sprintf("engine %s: %v", cc.dialect, err)
	}
	db, name, err := eng.NewDatabase(ctx)
	if err != nil {
		return nil, err.Error()
	}
	db.Close()
	dsn, _ := witness.ProgramDSN(eng.DriverName(), witness.DriverDSN(eng, name), cc.pkgs)
	if err := cc.drv.Open(eng.DriverName(), dsn); err != nil {
		return nil, fmt.Sprintf("opening the database: %v", err)
	}
	if err := witness.Create(ctx, cc.drv, cc.dialect, cc.schema); err != nil {
		return nil, err.Error()
	}

	var out []*EntryResult
	for _, e := range cc.c.Expect {
		res := &EntryResult{Case: cc.c.Name, Entry: e.Entry, Constraint: e.Constraint, Final: e.FinalVerdict(),
			Dialect: cc.dialect.String(), Schema: schemaName(cc.schema)}
		out = append(out, res)
		r := byKey[harness.KeyOf(e.Entry, e.Constraint)]
		if r == nil {
			res.NotExecutable = "dbverify gave no result for the entry"
			continue
		}
		res.Verdict = string(r.Verdict)
		spec := cc.src.Entries[e.Entry]
		if spec == nil || spec.NotExecutable != "" {
			why := "no driver"
			if spec != nil {
				why = spec.NotExecutable
			}
			res.NotExecutable = why
			continue
		}
		res.Notes = append(res.Notes, spec.Approximations...)
		if name, ok := checkNames[e.Constraint]; ok {
			restore, err := witness.SuspendCheck(ctx, cc.drv, cc.dialect, cc.schema, cons[e.Constraint], name)
			if err != nil {
				res.NotExecutable = "the constraint is a schema CHECK the engine enforces: " + err.Error()
				continue
			}
			cc.check(ctx, res, r, spec, cons[e.Constraint])
			if err := restore(); err != nil {
				return out, "restoring CHECK " + name + ": " + err.Error()
			}
			continue
		}
		cc.check(ctx, res, r, spec, cons[e.Constraint])
	}
	return out, ""
}

// verdicts are dbverify's results for the case: from running it, or from
// expect.json when the case expects no UNSAFE and TrustExpected is set
// (then, in a run of several constraints, which are one invariant, each
// is taken to assume the others on entry, as a SAFE decided together
// does: see factsFor).
func caseVerdicts(ctx context.Context, cfg Config, c *harness.Case) (map[harness.Key]*harness.Result, string) {
	byKey := map[harness.Key]*harness.Result{}
	if rep := cfg.Reports[c.Name]; rep != nil {
		for i := range rep.Results {
			r := rep.Results[i]
			byKey[harness.KeyOf(r.Entry, r.Constraint)] = r
		}
		return byKey, ""
	}
	needRun := !cfg.TrustExpected
	for _, e := range c.Expect {
		needRun = needRun || e.Verdict == harness.Unsafe
	}
	if !needRun {
		var assumed []string
		if len(parseArgs(c.Args).constraints) > 1 {
			assumed = []string{report.TogetherAssumption + " (a run of several constraints; its report not read)"}
		}
		for _, e := range c.Expect {
			byKey[harness.KeyOf(e.Entry, e.Constraint)] = &harness.Result{Entry: e.Entry, Constraint: e.Constraint, Verdict: report.Verdict(e.Verdict), Assumptions: assumed}
		}
		return byKey, ""
	}
	inv := harness.Exec(ctx, cfg.Bin, c.Dir, harness.CheckArgs(c, harness.Options{}), 5*time.Minute)
	if inv.Err != nil {
		return nil, fmt.Sprintf("dbverify: %v", inv.Err)
	}
	rep, err := harness.ParseReport(inv.Stdout)
	if err != nil {
		return nil, fmt.Sprintf("dbverify output: %v", err)
	}
	for i := range rep.Results {
		r := rep.Results[i]
		byKey[harness.KeyOf(r.Entry, r.Constraint)] = r
	}
	return byKey, ""
}

func schemaName(s *witness.Schema) string {
	if strings.HasPrefix(s.Source, "synthesised") {
		return "synthesised"
	}
	return filepath.Base(s.Source)
}

// check runs one entry: the counterexample of an UNSAFE, random runs for
// the others (and for an UNSAFE whose counterexample did not reproduce).
func (cc *caseCheck) check(ctx context.Context, res *EntryResult, r *harness.Result, spec *witness.EntrySpec, k *witness.Constraint) {
	if r.Verdict == harness.Unsafe {
		cc.replay(ctx, res, r, spec, k)
		return
	}
	gen := &witness.Generator{Rng: cc.rng, Schema: cc.schema, Constraint: k, TableFacts: cc.factsFor(r),
		Ints: witness.Domain(cc.program.Ints), MaxRows: 3}
	for i := 0; i < cc.cfg.Runs; i++ {
		run := cc.randomRun(ctx, gen, spec)
		if run == nil {
			res.Notes = append(res.Notes, "no inputs satisfy the --assume facts")
			return
		}
		out, err := witness.Execute(ctx, cc.drv, cc.dialect, cc.schema, k, spec.Pkg, spec.Key, run)
		res.Executions++
		if err != nil {
			res.Errors++
			if res.Errors == 1 {
				res.Notes = append(res.Notes, "execution error: "+err.Error())
			}
			continue
		}
		if !out.Broken() {
			continue
		}
		res.Confirmed = true
		switch {
		case r.Verdict == harness.Safe:
			res.Finding = &Finding{Kind: WrongSafe, Run: witness.Describe(run, out)}
		case res.Final == harness.Safe:
			res.Finding = &Finding{Kind: WrongFinal, Run: witness.Describe(run, out)}
		default:
			res.Notes = append(res.Notes, "broken by "+witness.Describe(run, out))
		}
		return
	}
}

// factsFor returns the table facts the initial rows of r's random runs
// satisfy: the --assume facts and, when r is SAFE only assuming the
// run's other constraints on entry (its claim is about databases where
// all hold, by induction over the entries), those constraints too.
func (cc *caseCheck) factsFor(r *harness.Result) []*witness.Constraint {
	together := false
	for _, a := range r.Assumptions {
		together = together || strings.HasPrefix(a, report.TogetherAssumption)
	}
	if !together {
		return cc.tableFacts
	}
	facts := slices.Clone(cc.tableFacts)
	for _, c := range cc.args.constraints {
		if c == r.Constraint {
			continue
		}
		if k, _, err := witness.ResolveConstraint(cc.schema, c, cc.args.table); err == nil {
			facts = append(facts, k)
		}
	}
	return facts
}

// randomRun draws a run whose inputs satisfy the parameter facts (nil when
// none is found in 50 draws).
func (cc *caseCheck) randomRun(ctx context.Context, gen *witness.Generator, spec *witness.EntrySpec) *witness.Run {
	for try := 0; try < 50; try++ {
		run := gen.Run(spec.Inputs)
		ok := true
		for _, f := range cc.paramFacts {
			q, applies := witness.FactQuery(f, run.Inputs)
			if !applies {
				continue
			}
			res, err := cc.drv.Query(ctx, q)
			if err != nil || len(res.Rows) != 1 || res.Rows[0][0] != "1" {
				ok = false
				break
			}
		}
		if ok {
			return run
		}
	}
	return nil
}

// replay runs an UNSAFE's counterexample.
func (cc *caseCheck) replay(ctx context.Context, res *EntryResult, r *harness.Result, spec *witness.EntrySpec, k *witness.Constraint) {
	hcex := r.Counterexample
	if hcex == nil {
		res.NotExecutable = "UNSAFE without a counterexample"
		return
	}
	if interleaved(r) {
		res.Finding = &Finding{Kind: Interleaved, Run: "requests " + strings.Join(requestNames(r), ", ") + " interleaved as the schedule says; not run sequentially"}
		return
	}
	cex := convertCex(hcex)
	run, notes := witness.ReplayRun(cex, cc.schema, cc.dialect, cc.program.Strings)
	res.Notes = append(append(res.Notes, notes...), run.Unordered...)
	rep, err := witness.ReplayExecute(ctx, cc.drv, cc.dialect, cc.schema, k, spec.Pkg, spec.Key, cex, run)
	if err != nil {
		res.Executions++
		res.Errors++
		res.Finding = &Finding{Kind: FalseUnsafe, Run: witness.Describe(run, nil) + "; the replay failed: " + err.Error()}
		return
	}
	res.Executions += rep.Executions
	res.Notes = append(res.Notes, rep.Added...)
	run, out := rep.Run, rep.Outcome
	if out.Broken() {
		res.Confirmed = true
		return
	}
	first := witness.Describe(run, out)
	if other := cc.confirm(ctx, res, run, spec, k); other != "" {
		res.Confirmed = true
		res.Finding = &Finding{Kind: CexDoesNotReplay, Run: first + "; broken instead by " + other}
		return
	}
	kind := FalseUnsafe
	if out.Call != nil && cc.dialect == sqlparse.MySQL && mariaDBSyntax.MatchString(out.Call.Err) {
		kind = EngineLacks
	} else if out.Call != nil && checkFailure.MatchString(out.Call.Err) {
		kind = BreaksOtherCheck
	} else if out.Call != nil && typeFailure.MatchString(out.Call.Err) && res.Schema == "synthesised" {
		kind = SchemaGuess
	} else if fails := cex.FailingCalls(); len(fails) > 0 {
		kind = NeedsFailure
		res.Notes = append(res.Notes, "the trace makes these calls fail: "+strings.Join(fails, "; "))
	} else if missing := missingInputs(cex, spec); len(missing) > 0 {
		kind = NeedsExternal
		res.Notes = append(res.Notes, "inputs the driver does not set: "+strings.Join(missing, ", "))
	} else if draws := randomDraws(cex); len(draws) > 0 {
		kind = NeedsExternal
		res.Notes = append(res.Notes, "the path depends on random draws execution cannot force: "+strings.Join(draws, "; "))
	} else if ds := importedDialects(cc.pkgs); len(ds) > 1 {
		kind = OtherEngine
		res.Notes = append(res.Notes, fmt.Sprintf("the program opens databases of %d dialects; the case ran on %s only", len(ds), cc.dialect))
	}
	res.Finding = &Finding{Kind: kind, Run: first}
}

// entriesDialect returns the dialect every result that names its own
// (report.Result.Dialect: a program that uses two dialects) names, when
// there is one.
func entriesDialect(byKey map[harness.Key]*harness.Result) (sqlparse.Dialect, bool) {
	name := ""
	for _, r := range byKey {
		switch {
		case r.Dialect == "":
		case name == "":
			name = r.Dialect
		case r.Dialect != name:
			return 0, false
		}
	}
	if name == "" {
		return 0, false
	}
	d, err := sqlparse.ParseDialect(name)
	return d, err == nil
}

// interleaved reports whether r's counterexample is a concurrent one: two
// requests and the schedule of their database operations.
func interleaved(r *harness.Result) bool {
	return r.ConcurrentWith != "" || len(r.Schedule) > 0 || len(r.Requests) > 1
}

// requestNames are the requests of a concurrent counterexample with their
// entries ("A: (*Store).Withdraw").
func requestNames(r *harness.Result) []string {
	var out []string
	for _, q := range r.Requests {
		out = append(out, q.Request+": "+ShortEntry(q.Entry))
	}
	return out
}

// confirm looks for another run that breaks the constraint when a
// counterexample does not: first the counterexample's inputs and rows with
// random rows added, then random runs. It returns the run's description,
// or "".
func (cc *caseCheck) confirm(ctx context.Context, res *EntryResult, cex *witness.Run, spec *witness.EntrySpec, k *witness.Constraint) string {
	// The counterexample's rows in the reverse order (a table without a
	// key: which row a SELECT returns first), then with copies of its rows
	// under every key value among the inputs (a row the trace omits).
	for _, run := range witness.Variants(cex, cc.schema) {
		out, err := witness.Execute(ctx, cc.drv, cc.dialect, cc.schema, k, spec.Pkg, spec.Key, run)
		res.Executions++
		if err != nil {
			res.Errors++
			continue
		}
		if out.Broken() {
			return witness.Describe(run, out)
		}
	}
	gen := &witness.Generator{Rng: cc.rng, Schema: cc.schema, Constraint: k, TableFacts: cc.tableFacts,
		Ints: witness.Domain(cc.program.Ints), MaxRows: 3}
	for i := 0; i < 2*cc.cfg.Runs; i++ {
		run := gen.Run(spec.Inputs)
		if i < cc.cfg.Runs {
			// The counterexample's rows and inputs, random rows besides.
			run.Rows = append(append([]witness.Row(nil), cex.Rows...), run.Rows...)
			run.Inputs = cex.Inputs
			run.Prune = []string{k.PruneQuery()}
		}
		out, err := witness.Execute(ctx, cc.drv, cc.dialect, cc.schema, k, spec.Pkg, spec.Key, run)
		res.Executions++
		if err != nil {
			res.Errors++
			continue
		}
		if out.Broken() {
			return witness.Describe(run, out)
		}
	}
	return ""
}

// randomDraw is a call of math/rand (or math/rand/v2) in a trace step.
var randomDraw = regexp.MustCompile(`\brand\.(Int|Uint|Float|Exp|Norm|N\b|Perm|Shuffle)\w*\(`)

// randomDraws are the trace's steps that draw a random number: the value
// the path needs is one a run may not draw.
func randomDraws(cex *witness.Counterexample) []string {
	var out []string
	for _, st := range cex.Steps {
		if randomDraw.MatchString(st.Text) {
			out = append(out, st.Position+": "+strings.TrimSpace(st.Text))
		}
	}
	return out
}

// missingInputs are the counterexample's inputs that are not leaves the
// driver reads.
func missingInputs(cex *witness.Counterexample, spec *witness.EntrySpec) []string {
	leaves := map[string]bool{}
	for _, in := range spec.Inputs {
		leaves[in.Path] = true
	}
	var out []string
	for _, name := range cex.InputNames() {
		generic := name
		for {
			i := strings.Index(generic, "[")
			if i < 0 {
				break
			}
			j := strings.Index(generic[i:], "]")
			if j < 0 {
				break
			}
			generic = generic[:i] + "\x00" + generic[i+j+1:]
		}
		generic = strings.ReplaceAll(generic, "\x00", "[]")
		if !leaves[name] && !leaves[generic] {
			out = append(out, name)
		}
	}
	return out
}

func convertCex(h *report.Counterexample) *witness.Counterexample {
	c := &witness.Counterexample{Inputs: h.Inputs.Map(), Clock: h.Clock}
	for _, r := range h.Rows {
		c.Rows = append(c.Rows, witness.CexRow{Symbol: r.Symbol, Table: r.Table, Values: r.Values})
	}
	for _, s := range h.Steps {
		c.Steps = append(c.Steps, witness.CexStep{Position: s.Position, Kind: s.Kind, Text: s.Text, Values: s.Values, SQL: s.SQL, NoRows: s.NoRows})
	}
	if h.Violation != nil {
		c.Violation = &witness.CexRow{Symbol: h.Violation.Symbol, Table: h.Violation.Table, Values: h.Violation.Values}
	}
	return c
}
