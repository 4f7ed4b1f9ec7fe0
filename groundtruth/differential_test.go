package groundtruth_test

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbverify/dbverify/groundtruth"
	"github.com/dbverify/dbverify/smt"
)

// casesPerForm is the number of random executions of each form on each
// dialect: -groundtruth.n, or GROUNDTRUTH_N; a small default for make test
// (4: 352 executions, 95 s of CPU, most of it the model's comparison;
// make bench runs 100 per form).
var casesPerForm = flag.Int("groundtruth.n", envInt("GROUNDTRUTH_N", 4), "random executions per statement form and dialect")

// seed selects the random cases (-groundtruth.seed or GROUNDTRUTH_SEED).
var seed = flag.Uint64("groundtruth.seed", uint64(envInt("GROUNDTRUTH_SEED", 1)), "seed of the differential suite's generator")

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// stepResult is what an engine returned for one statement.
type stepResult struct {
	failed   bool
	errText  string
	affected int64
	returned []any
}

// engineResult is what an engine did with a case.
type engineResult struct {
	steps  []stepResult // up to the first failure
	before map[int64]groundtruth.Row
	after  map[int64]groundtruth.Row
}

// querier is a *sql.DB or a *sql.Tx.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// runOnEngine runs c on a fresh copy of the table in db: the statements
// in order until one fails, in a transaction when c.tx says so (a failure
// rolls it back, as a Go function returning the error would).
func runOnEngine(ctx context.Context, db *sql.DB, c stmtCase) (engineResult, error) {
	var res engineResult
	if _, err := db.ExecContext(ctx, "DELETE FROM "+table); err != nil {
		return res, err
	}
	if err := groundtruth.InsertRows(ctx, db, c.dial, table, c.rows...); err != nil {
		return res, err
	}
	before, err := readRows(ctx, db)
	if err != nil {
		return res, err
	}
	var q querier = db
	var tx *sql.Tx
	if c.tx != "" {
		if tx, err = db.BeginTx(ctx, nil); err != nil {
			return res, err
		}
		q = tx
	}
	failed := false
	for i, st := range c.steps {
		r := runStep(ctx, q, c.query(i), st)
		res.steps = append(res.steps, r)
		if r.failed {
			failed = true
			break
		}
	}
	if tx != nil {
		if failed || c.tx == "rollback" {
			err = tx.Rollback()
		} else {
			err = tx.Commit()
		}
		if err != nil {
			return res, fmt.Errorf("end of transaction: %w", err)
		}
	}
	after, err := readRows(ctx, db)
	if err != nil {
		return res, err
	}
	res.before, res.after = before, after
	return res, nil
}

// runStep runs one statement: Exec for a write, QueryRow and Scan for
// RETURNING or a SELECT.
func runStep(ctx context.Context, q querier, query string, st step) stepResult {
	var r stepResult
	args := make([]any, len(st.args))
	for i, a := range st.args {
		args[i] = a
	}
	if st.kind == execKind {
		res, err := q.ExecContext(ctx, query, args...)
		if err == nil {
			r.affected, err = res.RowsAffected()
		}
		if err != nil {
			r.failed, r.errText = true, err.Error()
		}
		return r
	}
	vals := make([]any, st.nret)
	ptrs := make([]any, st.nret)
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := q.QueryRowContext(ctx, query, args...).Scan(ptrs...); err != nil {
		r.failed, r.errText = true, err.Error()
		return r
	}
	for i := range vals {
		vals[i] = groundtruth.Normalize(vals[i])
	}
	r.returned = vals
	return r
}

// readRows reads the table, by id.
func readRows(ctx context.Context, db *sql.DB) (map[int64]groundtruth.Row, error) {
	t, err := groundtruth.ReadTable(ctx, db, table)
	if err != nil {
		return nil, err
	}
	out := map[int64]groundtruth.Row{}
	for _, vals := range t.Rows {
		row := groundtruth.Row{}
		for i, c := range t.Columns {
			row[strings.ToLower(c)] = vals[i]
		}
		id, ok := row["id"].(int64)
		if !ok {
			return nil, fmt.Errorf("row without an integer id: %v", vals)
		}
		out[id] = row
	}
	return out, nil
}

// divergence is a disagreement between an engine and the model.
type divergence struct {
	form    string
	dialect groundtruth.Dialect
	aspect  string // "statement" (error, RowsAffected, returned values) or "row"
	cause   string // "affected" (it goes away when RowsAffected is not observed) or "values"
	hasNull bool   // some initial row has a NULL
	c       stmtCase
	detail  string
}

func (d divergence) String() string {
	return fmt.Sprintf("%s on %s (%s, %s): rows %s; %s\n    %s", d.form, d.dialect, d.aspect, d.cause, formatRows(d.c.rows), d.c.text(), d.detail)
}

// formatRows prints rows as (id,k,a,b) tuples.
func formatRows(rows []groundtruth.Row) string {
	var out []string
	for _, r := range rows {
		out = append(out, formatRow(r))
	}
	return "[" + strings.Join(out, " ") + "]"
}

func formatRow(r groundtruth.Row) string {
	var kv []string
	for _, c := range []string{"id", "k", "a", "b"} {
		v := r[c]
		if v == nil {
			kv = append(kv, c+"=NULL")
		} else {
			kv = append(kv, fmt.Sprintf("%s=%v", c, v))
		}
	}
	return "(" + strings.Join(kv, ",") + ")"
}

// checker compares engines with the model; the model side is cached per
// case text.
type checker struct {
	solver *smt.Solver
	models map[string]*modelCase
	unsup  map[string]string // form/dialect → why the model does not support it
}

func newChecker(t testing.TB) *checker {
	s, err := smt.NewSolver(60000) // small queries; generous for a loaded machine
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return &checker{solver: s, models: map[string]*modelCase{}, unsup: map[string]string{}}
}

// model returns the lowered statements of c (nil, nil when unsupported).
func (ck *checker) model(c stmtCase) (*modelCase, error) {
	var key strings.Builder
	fmt.Fprintf(&key, "%s\x00%s\x00%v", c.dial, c.tx, c.noSchema)
	for i, st := range c.steps {
		fmt.Fprintf(&key, "\x00%s\x00%d\x00%d\x00%d", c.query(i), len(st.args), st.nret, st.kind)
	}
	if mc, ok := ck.models[key.String()]; ok {
		return mc, nil
	}
	mc, err := lowerCase(c, ddl, table)
	var ue *unsupportedError
	if errors.As(err, &ue) {
		ck.unsup[c.form+"/"+string(c.dial)] = ue.why
		ck.models[key.String()] = nil
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.text(), err)
	}
	ck.models[key.String()] = mc
	return mc, nil
}

// compare returns the first disagreement between the engine's result and
// the model (nil: the model admits what the engine did), and whether the
// model supports the statements.
func (ck *checker) compare(c stmtCase, er engineResult) (*divergence, bool, error) {
	ms, err := ck.model(c)
	if err != nil || ms == nil {
		return nil, false, err
	}
	so := stmtObservation{steps: er.steps}
	for _, st := range c.steps {
		so.args = append(so.args, st.args)
	}
	engineText := func(ro *rowObservation) string {
		var parts []string
		for i, r := range er.steps {
			switch {
			case r.failed:
				parts = append(parts, fmt.Sprintf("s%d error: %s", i+1, r.errText))
			case c.steps[i].kind == execKind:
				parts = append(parts, fmt.Sprintf("s%d affected=%d", i+1, r.affected))
			default:
				parts = append(parts, fmt.Sprintf("s%d returned=%v", i+1, r.returned))
			}
		}
		if ro != nil {
			if ro.exists {
				parts = append(parts, "r after="+formatRow(ro.final))
			} else {
				parts = append(parts, "r deleted")
			}
		}
		return strings.Join(parts, ", ")
	}
	// Each row: existing rows as r before, inserted rows as r after.
	var ids []int64
	for id := range er.before {
		ids = append(ids, id)
	}
	for id := range er.after {
		if _, ok := er.before[id]; !ok {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for _, id := range ids {
		ro := rowObservation{initial: er.before[id]}
		ro.final, ro.exists = er.after[id]
		ok, err := ms.admits(ck.solver, so, ro)
		if err != nil {
			return nil, true, err
		}
		if ok {
			continue
		}
		dv := &divergence{form: c.form, dialect: c.dial, aspect: "row", c: c, cause: "values", hasNull: hasNull(c.rows)}
		// Is it about the statements' outcomes alone, whatever r?
		if ok, err := ms.admitsStatements(ck.solver, so); err != nil {
			return nil, true, err
		} else if !ok {
			dv.aspect = "statement"
		}
		// Does it go away when RowsAffected is not observed?
		if hasAffected(c, er) {
			so2 := so
			so2.ignoreAffected = true
			if ok, err := ms.admits(ck.solver, so2, ro); err != nil {
				return nil, true, err
			} else if ok {
				dv.cause = "affected"
			}
		}
		who := fmt.Sprintf("r = the row id=%d", id)
		if ro.initial == nil {
			who = fmt.Sprintf("r = the inserted row id=%d", id)
		}
		dv.detail = fmt.Sprintf("%s: engine: %s; model: %s", who, engineText(&ro), ms.describeModel(ck.solver, so, ro))
		return dv, true, nil
	}
	return nil, true, nil
}

// hasAffected reports whether the engine returned some RowsAffected.
func hasAffected(c stmtCase, er engineResult) bool {
	for i, r := range er.steps {
		if !r.failed && c.steps[i].kind == execKind {
			return true
		}
	}
	return false
}

// hasNull reports whether some row has a NULL.
func hasNull(rows []groundtruth.Row) bool {
	for _, r := range rows {
		for _, v := range r {
			if v == nil {
				return true
			}
		}
	}
	return false
}

// shrink removes initial rows while the same kind of divergence remains.
func shrink(ctx context.Context, db *sql.DB, ck *checker, dv *divergence) (*divergence, error) {
	for changed := true; changed; {
		changed = false
		for i := range dv.c.rows {
			c := dv.c
			c.rows = append(append([]groundtruth.Row(nil), c.rows[:i]...), c.rows[i+1:]...)
			er, err := runOnEngine(ctx, db, c)
			if err != nil {
				return nil, err
			}
			d2, _, err := ck.compare(c, er)
			if err != nil {
				return nil, err
			}
			if d2 != nil && d2.aspect == dv.aspect && d2.cause == dv.cause {
				dv, changed = d2, true
				break
			}
		}
	}
	return dv, nil
}

// TestDifferential runs every statement form on SQLite, PostgreSQL and
// MariaDB with random rows and arguments and checks that the model admits
// what each engine did: the error, RowsAffected, the values returned, and
// the final state of every row. A divergence not in knownDivergences fails
// the test with a minimal reproduction.
func TestDifferential(t *testing.T) {
	start := time.Now()
	ctx := context.Background()
	var mu sync.Mutex
	stats := map[groundtruth.Dialect]*runStats{}
	for _, d := range groundtruth.Dialects() {
		stats[d] = &runStats{unsupported: map[string]string{}, diverged: map[string]int{}}
	}
	t.Run("engines", func(t *testing.T) {
		for _, d := range groundtruth.Dialects() {
			if only := os.Getenv("GROUNDTRUTH_DIALECTS"); only != "" && !strings.Contains(only, string(d)) {
				continue
			}
			t.Run(string(d), func(t *testing.T) {
				t.Parallel()
				db := tableDB(t, d)
				ck := newChecker(t)
				st := stats[d]
				for _, f := range forms {
					if only := os.Getenv("GROUNDTRUTH_FORMS"); !f.runsOn(d) || only != "" && !slices.Contains(strings.Split(only, ","), f.name) {
						continue
					}
					st.forms++
					for i := 0; i < *casesPerForm; i++ {
						c := newCase(f, d, *seed, i)
						t0 := time.Now()
						er, err := runOnEngine(ctx, db, c)
						if err != nil {
							t.Fatalf("%s: %v", c.text(), err)
						}
						t1 := time.Now()
						st.executions++
						dv, supported, err := ck.compare(c, er)
						st.engineTime += t1.Sub(t0)
						st.modelTime += time.Since(t1)
						if err != nil {
							t.Fatalf("%s %s: model: %v", f.name, c.text(), err)
						}
						if !supported {
							continue
						}
						st.modelled++
						if dv == nil {
							continue
						}
						st.diverged[f.name]++
						if known := findKnown(dv); known != nil {
							continue
						}
						dv, err = shrink(ctx, db, ck, dv)
						if err != nil {
							t.Fatal(err)
						}
						t.Errorf("divergence not in knownDivergences:\n  %s", dv)
					}
				}
				mu.Lock()
				for k, v := range ck.unsup {
					st.unsupported[k] = v
				}
				mu.Unlock()
			})
		}
	})
	var lines []string
	total := 0
	for _, d := range groundtruth.Dialects() {
		st := stats[d]
		total += st.executions
		lines = append(lines, fmt.Sprintf("%s: %d forms, %d executions (%d modelled; engine %s, model %s), divergent cases by form %v",
			d, st.forms, st.executions, st.modelled, st.engineTime.Round(time.Millisecond), st.modelTime.Round(time.Millisecond), st.diverged))
		var unsup []string
		for k, v := range st.unsupported {
			unsup = append(unsup, k+": "+v)
		}
		sort.Strings(unsup)
		for _, u := range unsup {
			lines = append(lines, "  unsupported by the model (not compared): "+u)
		}
	}
	t.Logf("differential suite, seed %d, %d cases per form: %d executions in %s\n%s", *seed, *casesPerForm, total, time.Since(start).Round(time.Millisecond), strings.Join(lines, "\n"))
}

type runStats struct {
	forms, executions, modelled int
	engineTime, modelTime       time.Duration
	unsupported                 map[string]string
	diverged                    map[string]int
}
