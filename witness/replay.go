package witness

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/dbverify/dbverify/groundtruth"
	"github.com/dbverify/dbverify/sqlparse"
)

// ReplayTarget is one UNSAFE result to replay.
type ReplayTarget struct {
	Entry, Constraint string
	Cex               *Counterexample
	// Initial are the conditions the check assumed of every initial row
	// besides Constraint (the run's --assume facts about tables, the
	// run's other constraints where the result assumed them), written as
	// constraints are: the replay refuses seeded rows that break one.
	Initial []string
}

// ReplayConfig says what to replay and where.
type ReplayConfig struct {
	// Dir is the analysed module's directory (or one inside it), where
	// dbverify check ran.
	Dir     string
	Dialect sqlparse.Dialect
	// SchemaPath is the program's DDL (file or migrations directory,
	// relative to Dir); "" synthesises tables from the program's SQL.
	SchemaPath string
	// Table is the default table of constraints with bare column names.
	Table string
	// NoInferKey: a synthesised table gets no key from a column named id.
	NoInferKey bool
	Targets    []ReplayTarget
	// DriverName and DSN name an existing database to use (its tables are
	// dropped and created); empty: a throwaway engine under WorkDir.
	DriverName, DSN string
	// WorkDir holds the driver build and the engine's files.
	WorkDir string
}

// ReplayOutcome is what one target's replay did.
type ReplayOutcome struct {
	Target ReplayTarget
	// Run is the replayed run (nil when the entry could not be called).
	Run     *Run
	Outcome *Outcome
	// Reproduced: the run broke the constraint.
	Reproduced bool
	// NotRun says why the entry was not called ("" if it was).
	NotRun string
	// NotDriven, for a run that did not break the constraint, says why
	// the run did not follow the counterexample to the database (the
	// entry panicked or failed before its first SQL statement): the
	// counterexample is not refuted. "" when it did.
	NotDriven string
	// Notes are what the replay approximated (seeded values, driver
	// inputs filled with fixed values).
	Notes []string
	// NotSet are the counterexample's inputs the run could not set (the
	// driver's call does not read them): a run that does not break the
	// constraint is then no run of the counterexample.
	NotSet []UnsetInput
}

// ReplayResult is the replay of every target.
type ReplayResult struct {
	// Engine is where the runs executed ("postgres (throwaway)", a DSN's driver).
	Engine   string
	Schema   *Schema
	Outcomes []*ReplayOutcome

	// For TestFile: the loaded program, the dialect, the constraints.
	pkgs        []*packages.Package
	dialect     sqlparse.Dialect
	constraints map[string]*Constraint
	checkNames  map[string]string
	// initial are the targets' Initial conditions, resolved.
	initial map[string]*Constraint
}

// namedCheck is a constraint reported under its schema CHECK's name
// ("accounts_balance_check: balance >= 0").
var namedCheck = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*):\s`)

// ResolveConstraint reads a reported constraint: a schema CHECK reported
// under its name ("accounts_balance_check: balance >= 0"; check is the
// name) or a constraint as the user wrote it (table is the default table
// of bare column names).
func ResolveConstraint(s *Schema, text, table string) (k *Constraint, check string, err error) {
	if m := namedCheck.FindStringSubmatch(text); m != nil && s != nil {
		if k = CheckConstraint(s, m[1], text); k != nil {
			return k, m[1], nil
		}
	}
	k, err = ParseConstraint(text, table)
	return k, "", err
}

// DriverDSN is the witness driver's DSN for database name of eng: bounded
// lock waits (a run that blocks fails instead of hanging) and, for MySQL,
// multi-statement Execs (seeding runs several statements at once) and
// NO_AUTO_VALUE_ON_ZERO: the model takes an inserted key as given, and
// on the throwaway server an explicit id 0 is stored as 0, not turned
// into the next AUTO_INCREMENT value (a counterexample that re-inserts
// row 0 found no row when it read it back).
func DriverDSN(eng *groundtruth.Engine, name string) string {
	dsn := eng.DSN(name)
	switch eng.Dialect() {
	case groundtruth.Postgres:
		return dsn + " lock_timeout=5000 idle_in_transaction_session_timeout=10000"
	case groundtruth.MySQL:
		return dsn + "?multiStatements=true&innodb_lock_wait_timeout=5&sql_mode=CONCAT(@@sql_mode,%27,NO_AUTO_VALUE_ON_ZERO%27)"
	}
	return dsn
}

// EngineDialect is the groundtruth engine that runs programs of dialect d
// (MySQL programs run on MariaDB).
func EngineDialect(d sqlparse.Dialect) groundtruth.Dialect {
	switch d {
	case sqlparse.Postgres:
		return groundtruth.Postgres
	case sqlparse.SQLite:
		return groundtruth.SQLite
	}
	return groundtruth.MySQL
}

// DriverName is the database/sql driver the witness driver opens a
// database of dialect d with.
func DriverName(d sqlparse.Dialect) string {
	switch d {
	case sqlparse.Postgres:
		return "pgx"
	case sqlparse.SQLite:
		return "sqlite"
	}
	return "mysql"
}

// Replay runs the counterexamples of cfg.Targets on a real database: it
// builds the driver for their entries, creates the schema, and for each
// target seeds the counterexample's initial rows, calls the entry with its
// inputs and checks the constraint. The error is a failure of the harness
// (the program does not load, the driver does not build, the engine does
// not start), not of a replay.
func Replay(ctx context.Context, cfg ReplayConfig) (*ReplayResult, error) {
	prog, err := loadReplayProgram(cfg)
	if err != nil {
		return nil, err
	}
	res, err := replaySchema(cfg, prog)
	if err != nil {
		return nil, err
	}
	src, err := GenerateDriver(prog.pkgs, prog.module.Dir, prog.module.Path, prog.entries)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	if cfg.Dialect == sqlparse.SQLite {
		src.RequireSQLite()
	}
	buildDir := filepath.Join(cfg.WorkDir, "driver")
	if err := os.MkdirAll(buildDir, 0o755); err != nil {
		return nil, err
	}
	bin, err := src.Build(buildDir)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	drv, err := StartDriver(bin)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	defer drv.Close()
	closeEngine, err := res.openDatabase(ctx, cfg, drv, prog.inModule)
	if err != nil {
		return nil, err
	}
	defer closeEngine()
	for _, t := range cfg.Targets {
		res.Outcomes = append(res.Outcomes, res.replayTarget(ctx, drv, src, prog.sql, t))
	}
	return res, nil
}

// replayProgram is the loaded program a replay runs.
type replayProgram struct {
	pkgs    []*packages.Package
	module  *packages.Module
	entries []string
	sql     *ProgramSQL
	// inModule are the program's packages in its module.
	inModule []*packages.Package
}

// loadReplayProgram loads the targets' packages (with the handle
// packages) and collects their module's SQL.
func loadReplayProgram(cfg ReplayConfig) (*replayProgram, error) {
	entryPkgs := map[string]bool{}
	prog := &replayProgram{}
	for _, t := range cfg.Targets {
		pkg, _, ok := splitEntry(t.Entry)
		if !ok {
			return nil, fmt.Errorf("replay: cannot split entry %s into package and function", t.Entry)
		}
		entryPkgs[pkg] = true
		prog.entries = append(prog.entries, t.Entry)
	}
	pkgs, err := LoadProgram(cfg.Dir, sortedKeys(entryPkgs)...)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	prog.pkgs = pkgs
	var programPkgs []*packages.Package
	for _, p := range pkgs {
		if !entryPkgs[p.PkgPath] {
			continue
		}
		if len(p.Errors) > 0 {
			return nil, fmt.Errorf("replay: loading %s: %v", p.PkgPath, p.Errors[0])
		}
		programPkgs = append(programPkgs, p)
		if p.Module != nil {
			prog.module = p.Module
		}
	}
	if prog.module == nil {
		return nil, fmt.Errorf("replay: the entries' packages are not in a module under %s", cfg.Dir)
	}
	// The program's SQL: its packages and the module's packages they import.
	var inModule []*packages.Package
	packages.Visit(programPkgs, nil, func(p *packages.Package) {
		if p.Module != nil && p.Module.Path == prog.module.Path {
			inModule = append(inModule, p)
		}
	})
	prog.sql = CollectSQL(inModule, cfg.Dialect)
	prog.inModule = inModule
	return prog, nil
}

// replaySchema is the replay's schema (the program's DDL, or tables
// synthesised from its SQL and the counterexamples' rows) and its
// resolved constraints.
func replaySchema(cfg ReplayConfig, prog *replayProgram) (*ReplayResult, error) {
	var schema *Schema
	if cfg.SchemaPath != "" {
		path := cfg.SchemaPath
		if !filepath.IsAbs(path) {
			path = filepath.Join(cfg.Dir, path)
		}
		var err error
		if schema, err = LoadSchemaFiles(path); err != nil {
			return nil, fmt.Errorf("replay: %w", err)
		}
	}
	res := &ReplayResult{pkgs: prog.pkgs, dialect: cfg.Dialect, constraints: map[string]*Constraint{}, checkNames: map[string]string{}, initial: map[string]*Constraint{}}
	extra, numeric, timed := map[string][]string{}, map[string][]string{}, map[string][]string{}
	for _, t := range cfg.Targets {
		k, check, err := ResolveConstraint(schema, t.Constraint, cfg.Table)
		if err != nil {
			return nil, fmt.Errorf("replay: constraint %s: %w", t.Constraint, err)
		}
		if check != "" {
			res.checkNames[t.Constraint] = check
		}
		res.constraints[t.Constraint] = k
		numeric[k.Table] = append(numeric[k.Table], k.Columns...)
		for _, text := range t.Initial {
			f, _, err := ResolveConstraint(schema, text, cfg.Table)
			if err != nil {
				return nil, fmt.Errorf("replay: assumed condition %s: %w", text, err)
			}
			if f.Ref == nil { // (a reference is not a condition on one row)
				res.initial[text] = f
			}
		}
		if t.Cex != nil {
			for _, row := range t.Cex.Rows {
				for col, v := range row.Values {
					extra[row.Table] = append(extra[row.Table], col)
					if IsTimestamp(v) {
						timed[row.Table] = append(timed[row.Table], col)
					}
				}
			}
		}
	}
	if schema == nil {
		schema = Synthesize(cfg.Dialect, prog.sql.Statements, extra, numeric, timed, cfg.NoInferKey)
	}
	res.Schema = schema
	for _, k := range res.constraints {
		k.From = schema.TableSQL(cfg.Dialect, k.Table)
	}
	for _, k := range res.initial {
		k.From = schema.TableSQL(cfg.Dialect, k.Table)
	}
	return res, nil
}

// openDatabase makes the driver reach the replay's database — a fresh
// database of a throwaway engine, or cfg.DSN with the schema's tables
// dropped — and creates the schema in it, connecting as the program's
// packages do (ProgramDSN). close stops the engine.
func (r *ReplayResult) openDatabase(ctx context.Context, cfg ReplayConfig, drv *Driver, program []*packages.Package) (close func(), err error) {
	close = func() {}
	driverName, dsn := cfg.DriverName, cfg.DSN
	if dsn == "" {
		gd := EngineDialect(cfg.Dialect)
		eng, err := groundtruth.Start(ctx, gd, filepath.Join(cfg.WorkDir, "engine"))
		if err != nil {
			return nil, fmt.Errorf("replay: starting a %s engine: %w", gd, err)
		}
		close = func() { eng.Close() }
		db, name, err := eng.NewDatabase(ctx)
		if err != nil {
			close()
			return nil, fmt.Errorf("replay: %w", err)
		}
		db.Close()
		driverName, dsn = eng.DriverName(), DriverDSN(eng, name)
		r.Engine = string(gd) + " (a throwaway server)"
		if gd == groundtruth.SQLite {
			r.Engine = "sqlite (a throwaway database file)"
		}
	} else {
		if driverName == "" {
			driverName = DriverName(cfg.Dialect)
		}
		r.Engine = driverName + " (--dsn)"
		if driverName == "mysql" && !strings.Contains(dsn, "multiStatements") {
			// Seeding runs several statements in one Exec.
			sep := "?"
			if strings.Contains(dsn, "?") {
				sep = "&"
			}
			dsn += sep + "multiStatements=true"
		}
	}
	dsn, interpolated := ProgramDSN(driverName, dsn, program)
	if interpolated {
		r.Engine += ", interpolateParams=true as the program connects"
	}
	if err := r.createSchema(ctx, cfg, drv, driverName, dsn); err != nil {
		close()
		return nil, err
	}
	return close, nil
}

func (r *ReplayResult) createSchema(ctx context.Context, cfg ReplayConfig, drv *Driver, driverName, dsn string) error {
	if err := drv.Open(driverName, dsn); err != nil {
		return fmt.Errorf("replay: opening the database: %w", err)
	}
	if cfg.DSN != "" {
		// An existing database: the schema's tables are created afresh.
		for _, name := range sortedKeys(r.Schema.Tables) {
			q := "DROP TABLE IF EXISTS " + r.Schema.TableSQL(cfg.Dialect, r.Schema.Tables[name].Name)
			if cfg.Dialect == sqlparse.Postgres {
				q += " CASCADE"
			}
			if err := drv.Exec(ctx, q); err != nil {
				return fmt.Errorf("replay: %s: %w", q, err)
			}
		}
	}
	if err := Create(ctx, drv, r.dialect, r.Schema); err != nil {
		return fmt.Errorf("replay: creating the schema: %w", err)
	}
	return nil
}

// replayTarget seeds one counterexample's rows, calls its entry and
// checks its constraint.
func (r *ReplayResult) replayTarget(ctx context.Context, drv *Driver, src *DriverSource, prog *ProgramSQL, t ReplayTarget) *ReplayOutcome {
	o := &ReplayOutcome{Target: t}
	spec := src.Entries[t.Entry]
	switch {
	case t.Cex == nil:
		o.NotRun = "the result has no counterexample"
		return o
	case spec == nil:
		o.NotRun = "no driver for the entry"
		return o
	case spec.NotExecutable != "":
		o.NotRun = "the driver cannot call the entry: " + spec.NotExecutable
		return o
	}
	o.Notes = append(o.Notes, spec.Approximations...)
	o.NotSet = spec.unsetInputs(t.Cex)
	run, notes := ReplayRun(t.Cex, r.Schema, r.dialect, prog.Strings)
	if body := spec.sentBody(run.Inputs); body != "" {
		run.Inputs["$http.body"] = body // (as the driver sends it)
	}
	for _, text := range t.Initial {
		// (A table the schema has not got holds no seeded row.)
		if f := r.initial[text]; f != nil && r.Schema.Table(f.Table) != nil {
			run.Facts = append(run.Facts, f)
		}
	}
	o.Run = run
	o.Notes = append(o.Notes, notes...)
	k := r.constraints[t.Constraint]
	restore := func() error { return nil }
	if name, ok := r.checkNames[t.Constraint]; ok {
		rs, err := SuspendCheck(ctx, drv, r.dialect, r.Schema, k, name)
		if err != nil {
			o.NotRun = "the constraint is a schema CHECK the engine enforces: " + err.Error()
			return o
		}
		restore = rs
		o.Notes = append(o.Notes, "the schema's CHECK "+name+" is suspended during the run, so that the write it would refuse is observed")
	}
	rep, err := ReplayExecute(ctx, drv, r.dialect, r.Schema, k, spec.Pkg, spec.Key, t.Cex, run)
	if rerr := restore(); rerr != nil && err == nil {
		err = fmt.Errorf("restoring the CHECK: %w", rerr)
	}
	if err != nil {
		o.NotRun = err.Error()
		return o
	}
	o.Run, o.Outcome = rep.Run, rep.Outcome
	o.Notes = append(o.Notes, rep.Added...)
	o.Reproduced = rep.Outcome.Broken()
	if !o.Reproduced {
		o.NotDriven = notDriven(t.Cex, rep.Outcome)
	}
	return o
}

// Violated describes how the outcome broke the constraint: at a commit
// point during the call, or the rows breaking it after the call.
func (o *Outcome) Violated() []string {
	var out []string
	if o.Call != nil && o.Call.Violation != "" {
		out = append(out, "at a commit point during the call: "+o.Call.Violation)
	}
	if len(o.Violations) > 0 {
		out = append(out, "after the call: "+FormatRows(o.Violations))
	}
	return out
}

// CallError is the entry's returned error (first line), or "nil".
func (o *Outcome) CallError() string {
	if o.Call == nil || o.Call.Err == "" {
		return "nil"
	}
	e := o.Call.Err
	if i := strings.Index(e, "\n"); i >= 0 {
		e = e[:i]
	}
	return e
}
