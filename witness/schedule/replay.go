package schedule

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"

	"github.com/dbverify/dbverify/groundtruth"
	"github.com/dbverify/dbverify/sqlparse"
	"github.com/dbverify/dbverify/witness"
)

// ReplayAttempts bounds the runs of a schedule that do not follow it as
// written (a starved process can reorder the operations of one request's
// goroutines): such a run proves nothing either way and is run again.
const ReplayAttempts = 3

// ReplayTarget is one concurrent UNSAFE result of a report: its entry, its
// constraint and the schedule of its counterexample.
type ReplayTarget struct {
	Entry, Constraint string
	Schedule          Schedule
	// Cex is the result's counterexample (nil: the requests' inputs are
	// the driver's as they are). A request's HTTP body, parsed text
	// inputs and slices are read off its steps (driverRequests).
	Cex *witness.Counterexample
}

// ReplayConfig says what to replay and where.
type ReplayConfig struct {
	// Dir is the analysed module's directory (or one inside it).
	Dir     string
	Dialect sqlparse.Dialect
	// SchemaPath is the program's DDL (file or migrations directory,
	// relative to Dir). A concurrent replay needs it.
	SchemaPath string
	// Table is the default table of constraints with bare column names.
	Table   string
	Targets []ReplayTarget
	// DriverName and DSN name an existing database (its schema's tables
	// are dropped and created); empty: a throwaway engine under WorkDir.
	DriverName, DSN string
	WorkDir         string
	Timing          Timing
}

// ReplayOutcome is what one target's replay did.
type ReplayOutcome struct {
	Target ReplayTarget
	// Outcome is the last run (nil when it could not run: Err says why).
	Outcome *Outcome
	// Attempts is the number of runs made.
	Attempts int
	// Reproduced: the run followed the schedule and broke the constraint.
	Reproduced bool
	Err        error
}

// ReplayResult is the replay of every target.
type ReplayResult struct {
	// Engine is where the runs executed.
	Engine   string
	Schema   *witness.Schema
	Outcomes []*ReplayOutcome
}

// Replay runs the schedules of cfg.Targets on a real database through a
// schedule driver built for their entries: each run seeds the initial
// rows, grants the requests' operations in the schedule's order (a lock
// wait lets the other request go on, as Run does) and checks the
// constraint after every commit point and at the end. The error is a
// failure of the harness (no schema, the driver does not build, the
// engine does not start), not of a replay.
func Replay(ctx context.Context, cfg ReplayConfig) (*ReplayResult, error) {
	if cfg.SchemaPath == "" {
		return nil, fmt.Errorf("replay: a concurrent counterexample is replayed with the program's schema: give --schema")
	}
	path := cfg.SchemaPath
	if !filepath.IsAbs(path) {
		path = filepath.Join(cfg.Dir, path)
	}
	schema, err := witness.LoadSchemaFiles(path)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	var entries []string
	seen := map[string]bool{}
	for _, t := range cfg.Targets {
		for _, r := range t.Schedule.Requests {
			if !seen[r.Entry] {
				seen[r.Entry] = true
				entries = append(entries, r.Entry)
			}
		}
	}
	prog, err := BuildFor(cfg.Dir, cfg.Dialect, entries, filepath.Join(cfg.WorkDir, "driver"))
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	res := &ReplayResult{Schema: schema}
	driverName, dsn, closeEngine, err := res.database(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer closeEngine()
	sess, err := prog.Open(driverName, dsn)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	defer sess.Close()
	if cfg.DSN != "" {
		if err := dropTables(ctx, sess, cfg.Dialect, schema); err != nil {
			return nil, err
		}
	}
	if err := sess.Prepare(ctx, schema); err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	timing := cfg.Timing
	if timing == (Timing{}) {
		timing = DefaultTiming
	}
	for _, t := range cfg.Targets {
		res.Outcomes = append(res.Outcomes, replayTarget(ctx, sess, schema, cfg.Table, t, timing))
	}
	return res, nil
}

// database returns the driver name and DSN of the replay's database: a
// fresh database of a throwaway engine (closeEngine stops it), or
// cfg.DSN.
func (r *ReplayResult) database(ctx context.Context, cfg ReplayConfig) (driverName, dsn string, closeEngine func(), err error) {
	if cfg.DSN != "" {
		driverName = cfg.DriverName
		if driverName == "" {
			driverName = witness.DriverName(cfg.Dialect)
		}
		r.Engine = driverName + " (--dsn)"
		return driverName, cfg.DSN, func() {}, nil
	}
	gd := witness.EngineDialect(cfg.Dialect)
	eng, err := groundtruth.Start(ctx, gd, filepath.Join(cfg.WorkDir, "engine"))
	if err != nil {
		return "", "", nil, fmt.Errorf("replay: starting a %s engine: %w", gd, err)
	}
	db, name, err := eng.NewDatabase(ctx)
	if err != nil {
		eng.Close()
		return "", "", nil, fmt.Errorf("replay: %w", err)
	}
	db.Close()
	r.Engine = string(gd) + " (a throwaway server)"
	if gd == groundtruth.SQLite {
		r.Engine = "sqlite (a throwaway database file, a connection per request)"
	}
	return eng.DriverName(), witness.DriverDSN(eng, name), func() { eng.Close() }, nil
}

// dropTables drops the schema's tables from an existing database.
func dropTables(ctx context.Context, sess *Session, d sqlparse.Dialect, schema *witness.Schema) error {
	for _, name := range sortedTables(schema) {
		q := "DROP TABLE IF EXISTS " + schema.TableSQL(d, schema.Tables[name].Name)
		if d == sqlparse.Postgres {
			q += " CASCADE"
		}
		if err := sess.Exec(ctx, q); err != nil {
			return fmt.Errorf("replay: %s: %w", q, err)
		}
	}
	return nil
}

// replayTarget runs one schedule, again while a run does not follow it.
func replayTarget(ctx context.Context, sess *Session, schema *witness.Schema, table string, t ReplayTarget, timing Timing) *ReplayOutcome {
	o := &ReplayOutcome{Target: t}
	k, _, err := witness.ResolveConstraint(schema, t.Constraint, table)
	if err != nil {
		o.Err = fmt.Errorf("constraint %s: %w", t.Constraint, err)
		return o
	}
	k.From = schema.TableSQL(sess.dialect(), k.Table)
	sch := t.Schedule
	sch.Requests = driverRequests(t.Schedule.Requests, t.Cex)
	for o.Attempts < ReplayAttempts {
		o.Attempts++
		out, err := sess.Run(ctx, schema, k, &sch, timing)
		if err != nil {
			o.Err = err
			return o
		}
		o.Outcome = out
		if out.Followed() {
			break
		}
	}
	o.Reproduced = o.Outcome.Followed() && o.Outcome.Broken()
	return o
}

// driverRequests are the requests with the driver's inputs of each, read
// off the counterexample as a sequential replay reads them
// (witness.DriverInputs of the request's part): an HTTP handler's path
// parameters and JSON body (p20twohandlers of an independent tester: the
// handlers ran without the body the trace decodes, refused the request
// and returned after 0 operations), parsed text inputs, slices. Strings
// stay their codes, as the initial rows are seeded.
func driverRequests(reqs []Request, cex *witness.Counterexample) []Request {
	if cex == nil {
		return reqs
	}
	out := make([]Request, len(reqs))
	for i, r := range reqs {
		in := map[string]string{}
		for _, x := range r.Inputs {
			in[x.Name] = x.Value
		}
		for k, v := range witness.DriverInputs(cex.OfRequest(r.Request), nil) {
			if _, given := in[k]; !given {
				in[k] = v
			}
		}
		r.Inputs = nil
		for _, k := range sortedKeys(in) {
			r.Inputs = append(r.Inputs, Input{Name: k, Value: in[k]})
		}
		out[i] = r
	}
	return out
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
