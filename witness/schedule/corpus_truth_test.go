package schedule_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/benchmarks/harness"
	"github.com/dbverify/dbverify/groundtruth"
	"github.com/dbverify/dbverify/sqlparse"
	"github.com/dbverify/dbverify/witness"
	"github.com/dbverify/dbverify/witness/schedule"
)

// concurrentRounds is the number of random concurrent runs per SAFE case of
// benchmarks/corpus/concurrent (make bench runs 200).
var concurrentRounds = flag.Int("concurrent.rounds", 4, "random concurrent runs per SAFE concurrent corpus case")

// sqliteRounds is the number of random concurrent runs per SAFE SQLite
// case and journal mode (at least concurrentRounds): SQLite's runs are
// quick, and its serial proof rests on them (TestSQLiteSerialStress runs
// more, without the gate).
var sqliteRounds = flag.Int("concurrent.sqlite_rounds", 15, "random concurrent runs per SAFE SQLite concurrent corpus case and journal mode")

// sqliteJournals are the journal modes the SQLite cases run under: the
// rollback journal (the engine's DSN keeps it in memory) and WAL, whose
// readers keep a snapshot and fail to write with SQLITE_BUSY_SNAPSHOT.
var sqliteJournals = []string{"MEMORY", "WAL"}

// concurrentDiagnostics runs what yields make bench's figures but decides
// no verdict: random runs of the UNSAFE cases (how often random schedules
// find a known race) and the two serial orders of each two-request UNSAFE
// schedule (how many of the races need the interleaving). make test leaves
// them out (they were about half of this test's runs).
var concurrentDiagnostics = flag.Bool("concurrent.diagnostics", false, "also run the UNSAFE cases' random runs and serial orders (figures, no verdict)")

// concurrentCases narrows the ground-truth test to matching cases.
var concurrentCases = flag.String("concurrent.cases", "", "regexp of the concurrent corpus cases to run")

// replayAttempts bounds the runs of an UNSAFE schedule that do not follow
// it as written.
const replayAttempts = 3

// minConcurrentCases is issue 11's acceptance: at least 40 cases.
const minConcurrentCases = 40

// concurrentCase is a case of benchmarks/corpus/concurrent with what its
// ground truth needs.
type concurrentCase struct {
	c       *harness.Case
	dialect groundtruth.Dialect
	schema  *witness.Schema
	// rows are the initial rows of the random runs (rows.json).
	rows []schedule.Row
}

// TestConcurrentGroundTruth establishes the verdicts of the concurrent
// corpus by execution on real engines: every UNSAFE expectation's schedule,
// replayed on PostgreSQL 15 or MariaDB 10.11 through witness/schedule,
// follows its steps and breaks the constraint; every SAFE case survives
// random concurrent runs (2–4 requests, random inputs, random schedules)
// from its rows.json without a violation.
func TestConcurrentGroundTruth(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "..", "benchmarks", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	all, err := harness.LoadCases(root)
	if err != nil {
		t.Fatal(err)
	}
	filter := regexp.MustCompile(*concurrentCases)
	var cases []*concurrentCase
	var entries []string
	total := 0
	for _, c := range all {
		if !strings.HasPrefix(c.Name, "concurrent/") {
			continue
		}
		total++
		if !filter.MatchString(c.Name) {
			continue
		}
		cc, err := readConcurrentCase(c)
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		cases = append(cases, cc)
		for _, e := range c.Expect {
			entries = append(entries, e.Entry)
		}
	}
	if *concurrentCases == "" && total < minConcurrentCases {
		t.Errorf("the concurrent corpus has %d cases, want at least %d", total, minConcurrentCases)
	}
	if len(cases) == 0 {
		t.Fatal("no concurrent case to run")
	}
	d := sqlparse.Postgres
	for _, cc := range cases {
		if cc.dialect == groundtruth.SQLite {
			d = sqlparse.SQLite // the driver registers modernc.org/sqlite too
		}
	}
	prog, err := schedule.BuildFor(root, d, entries, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	engines := map[groundtruth.Dialect]*groundtruth.Engine{}
	tally := truthTally{engineErrors: map[string]int{}}
	for _, cc := range cases {
		eng := engines[cc.dialect]
		if eng == nil {
			eng = groundtruth.StartForTest(t, cc.dialect)
			engines[cc.dialect] = eng
		}
		name := strings.TrimPrefix(cc.c.Name, "concurrent/")
		if cc.dialect != groundtruth.SQLite {
			t.Run(name, func(t *testing.T) {
				checkConcurrentCase(t, prog, eng, cc, "", &tally)
			})
			continue
		}
		for _, mode := range sqliteJournals {
			t.Run(name+"/"+mode, func(t *testing.T) {
				checkConcurrentCase(t, prog, eng, cc, mode, &tally)
			})
		}
	}
	t.Logf("concurrent ground truth: %d cases; %d UNSAFE schedules replayed, %d broke the constraint; %d SAFE expectations, %d random runs (%d requests, %d operations, %d lock waits), %d broke the constraint; engine errors in the SAFE runs: %s",
		len(cases), tally.schedules, tally.reproduced, tally.safe, tally.runs, tally.requests, tally.ops, tally.waits, tally.safeBroken, tally.engineErrorSummary())
	if !*concurrentDiagnostics {
		t.Logf("(the serial orders of the UNSAFE schedules and the UNSAFE cases' random runs: -concurrent.diagnostics, as make bench runs)")
		return
	}
	t.Logf("diagnostics: %d of the %d two-request UNSAFE schedules are concurrency-only (both serial orders keep the constraint); random runs found a violation in %d of %d UNSAFE cases",
		tally.concurrencyOnly, tally.pairs, tally.unsafeFound, tally.unsafeStressed)
}

type truthTally struct {
	schedules, reproduced, pairs, concurrencyOnly int
	safe, runs, requests, ops, waits, safeBroken  int
	// unsafeStressed UNSAFE cases also ran the random runs, which broke
	// the constraint in unsafeFound of them.
	unsafeStressed, unsafeFound int
	// engineErrors counts the SAFE runs' requests that failed with an
	// engine error, by SQLSTATE or MySQL error number: the races the
	// engine itself decided (serialization failures, deadlocks, duplicate
	// keys).
	engineErrors map[string]int
}

// engineCode finds the engine's error code in a request's error.
// (SQLite: modernc's "database is locked (5)", 517 for
// SQLITE_BUSY_SNAPSHOT.)
var engineCode = regexp.MustCompile(`SQLSTATE ([0-9A-Z]{5})|Error ([0-9]{4})|(database is locked \([0-9]+\))`)

func (t *truthTally) engineErrorSummary() string {
	var parts []string
	for code, n := range t.engineErrors {
		parts = append(parts, fmt.Sprintf("%s×%d", code, n))
	}
	sort.Strings(parts)
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func readConcurrentCase(c *harness.Case) (*concurrentCase, error) {
	cc := &concurrentCase{c: c}
	schemaPath := ""
	for i, a := range c.Args {
		if i+1 >= len(c.Args) {
			break
		}
		switch a {
		case "--dialect":
			switch c.Args[i+1] {
			case "postgres":
				cc.dialect = groundtruth.Postgres
			case "mysql":
				cc.dialect = groundtruth.MySQL
			case "sqlite":
				cc.dialect = groundtruth.SQLite
			}
		case "--schema":
			schemaPath = c.Args[i+1]
		}
	}
	if cc.dialect == "" || schemaPath == "" {
		return nil, fmt.Errorf("args must name the dialect (postgres, mysql or sqlite) and the schema")
	}
	if c.Fast || c.Args[0] != "--concurrent" {
		return nil, fmt.Errorf("a concurrent case runs with --concurrent and is not fast (the engine does not exist yet)")
	}
	var err error
	if cc.schema, err = witness.LoadSchemaFiles(filepath.Join(c.Dir, schemaPath)); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(filepath.Join(c.Dir, "rows.json"))
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cc.rows); err != nil {
		return nil, fmt.Errorf("rows.json: %w", err)
	}
	for _, e := range c.Expect {
		if e.FinalVerdict() != e.Verdict {
			return nil, fmt.Errorf("%s: verdict and final must both be the ground truth", e.Entry)
		}
		if (e.Verdict == harness.Unsafe) != (len(e.Schedule) > 0) {
			return nil, fmt.Errorf("%s: an UNSAFE expectation needs a schedule, and only an UNSAFE has one", e.Entry)
		}
	}
	return cc, nil
}

// truthConstraint is the constraint's violation check. A constraint with a
// subquery (a multi-row property such as write skew's "another doctor is
// on call") is not a row constraint the witness parses: its text, a SQL
// condition on its first table's rows, is used as is.
func truthConstraint(text string) (*witness.Constraint, error) {
	if k, err := witness.ParseConstraint(text, ""); err == nil {
		return k, nil
	}
	m := regexp.MustCompile(`^\s*([A-Za-z_][A-Za-z0-9_]*)\.`).FindStringSubmatch(text)
	if m == nil || !strings.Contains(strings.ToUpper(text), "SELECT") {
		return nil, fmt.Errorf("constraint %q: neither a row constraint nor a condition with a subquery", text)
	}
	return &witness.Constraint{Text: text, Table: m[1], Cond: text}, nil
}

// checkConcurrentCase replays the case's UNSAFE schedules and stresses its
// SAFE entries on a fresh database of eng; journal is a SQLite case's
// journal mode ("" for the other engines).
func checkConcurrentCase(t *testing.T, prog *schedule.Program, eng *groundtruth.Engine, cc *concurrentCase, journal string, tally *truthTally) {
	ctx := context.Background()
	db, name, err := eng.NewDatabase(ctx)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	dsn := witness.DriverDSN(eng, name)
	if journal != "" {
		dsn = strings.Replace(dsn, "journal_mode(MEMORY)", "journal_mode("+journal+")", 1)
	}
	sess, err := prog.Open(eng.DriverName(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if err := sess.Prepare(ctx, cc.schema); err != nil {
		t.Fatal(err)
	}
	safeDone, stressed := map[string]bool{}, map[string]bool{}
	for _, e := range cc.c.Expect {
		k, err := truthConstraint(e.Constraint)
		if err != nil {
			t.Fatal(err)
		}
		if e.Verdict == harness.Unsafe {
			replayUnsafe(t, ctx, sess, cc, e, k, tally)
			if *concurrentDiagnostics && !stressed[e.Constraint] {
				// The random runs' power: how often they find a known race.
				stressed[e.Constraint] = true
				tally.unsafeStressed++
				n, rounds := stress(t, ctx, sess, prog, cc, k, tally, false)
				if n > 0 {
					tally.unsafeFound++
				}
				t.Logf("the random runs broke %s in %d of %d runs", k.Text, n, rounds)
			}
			continue
		}
		tally.safe++
		if safeDone[e.Constraint] {
			continue // the random runs mix every entry of the case
		}
		safeDone[e.Constraint] = true
		_, _ = stress(t, ctx, sess, prog, cc, k, tally, true)
	}
}

func replayUnsafe(t *testing.T, ctx context.Context, sess *schedule.Session, cc *concurrentCase, e harness.Expectation, k *witness.Constraint, tally *truthTally) {
	var sch schedule.Schedule
	dec := json.NewDecoder(bytes.NewReader(e.Schedule))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sch); err != nil {
		t.Fatalf("%s: schedule: %v", e.Entry, err)
	}
	named := false
	for _, r := range sch.Requests {
		named = named || r.Entry == e.Entry
	}
	if !named {
		t.Errorf("%s: the schedule does not call the entry", e.Entry)
	}
	tally.schedules++
	// A run that could not follow the schedule (the goroutines of one
	// request number their operations as they arrive, which a starved
	// process can reorder) proves nothing either way: run it again.
	var out *schedule.Outcome
	for attempt := 1; attempt <= replayAttempts; attempt++ {
		var err error
		out, err = sess.Run(ctx, cc.schema, k, &sch, schedule.DefaultTiming)
		if err != nil {
			t.Fatalf("%s: %v", e.Entry, err)
		}
		if out.Followed() {
			break
		}
		t.Logf("%s: attempt %d did not follow the schedule:\n%s", e.Entry, attempt, out.Timeline())
	}
	if !out.Followed() || !out.Broken() {
		t.Errorf("%s: the UNSAFE schedule %s did not %s:\n%s", e.Entry, sch.Order,
			map[bool]string{true: "break the constraint", false: "run as written"}[out.Followed()], out.Timeline())
		return
	}
	tally.reproduced++
	t.Logf("%s: reproduced\n%s", e.Entry, out.Timeline())
	if len(sch.Requests) != 2 || !*concurrentDiagnostics {
		return
	}
	tally.pairs++
	// The two serial orders of the same requests: a violation that needs
	// the interleaving is concurrency-only.
	serialBroken := false
	for _, swap := range []bool{false, true} {
		serial := sch
		serial.Schedule, serial.Order = nil, ""
		serial.Requests = append([]schedule.Request(nil), sch.Requests...)
		if swap {
			a, b := serial.Requests[0], serial.Requests[1]
			serial.Requests[0], serial.Requests[1] = b, a
			serial.Requests[0].Request, serial.Requests[1].Request = a.Request, b.Request
		}
		out, err := sess.Run(ctx, cc.schema, k, &serial, schedule.DefaultTiming)
		if err != nil {
			t.Fatalf("%s: serial run: %v", e.Entry, err)
		}
		if !out.Followed() || blockedOps(out) > 0 {
			t.Errorf("%s: a serial run waited or did not finish:\n%s", e.Entry, out.Timeline())
		}
		if out.Broken() {
			serialBroken = true
			t.Logf("%s: a serial order breaks it too:\n%s", e.Entry, out.Timeline())
		}
	}
	if !serialBroken {
		tally.concurrencyOnly++
	}
}

// blockedOps counts the operations that waited for a lock.
func blockedOps(out *schedule.Outcome) int {
	n := 0
	for _, r := range out.Requests {
		for _, op := range r.Ops {
			if op.Blocked {
				n++
			}
		}
	}
	return n
}

// stress runs the case's entries concurrently: rounds of 2–4 requests with
// random inputs under random schedules, from rows.json. It returns the
// number of runs that broke the constraint and the number of runs; when
// safe, the first such run fails the test.
func stress(t *testing.T, ctx context.Context, sess *schedule.Session, prog *schedule.Program, cc *concurrentCase, k *witness.Constraint, tally *truthTally, safe bool) (broken, rounds int) {
	var entries []string
	for _, e := range cc.c.Expect {
		entries = append(entries, e.Entry)
	}
	sort.Strings(entries)
	rng := rand.New(rand.NewSource(int64(len(cc.c.Name)) * 7919))
	problems := 0
	rounds = *concurrentRounds
	if safe && cc.dialect == groundtruth.SQLite {
		rounds = max(rounds, *sqliteRounds)
	}
	for round := 0; round < rounds; round++ {
		n := 2 + rng.Intn(3)
		var reqs []schedule.Request
		for i := 0; i < n; i++ {
			entry := entries[rng.Intn(len(entries))]
			spec := prog.Entries[entry]
			if spec == nil || spec.NotExecutable != "" {
				t.Fatalf("%s: the driver cannot call it: %v", entry, spec)
			}
			reqs = append(reqs, schedule.Request{Request: string(rune('A' + i)), Entry: entry, Inputs: append(randomInputs(rng, spec.Inputs), randomRequest(rng, spec)...)})
		}
		out, err := sess.RunRandom(ctx, cc.schema, k, reqs, cc.rows, rng.Int63(), schedule.DefaultTiming)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if !safe {
			if out.Broken() {
				broken++
			}
			continue
		}
		tally.runs++
		tally.requests += n
		for _, r := range out.Requests {
			if m := engineCode.FindStringSubmatch(r.Err); m != nil {
				tally.engineErrors[m[1]+m[2]+m[3]]++
			}
			tally.ops += len(r.Ops)
			for _, op := range r.Ops {
				if op.Blocked {
					tally.waits++
				}
			}
		}
		// A slow operation the engine did not show waiting is only noted;
		// a request that did not return makes the run unclean.
		unclean := false
		for _, r := range out.Requests {
			unclean = unclean || !r.Returned
		}
		if unclean {
			problems++
			t.Logf("round %d did not finish cleanly:\n%s", round, out.Timeline())
		} else if len(out.Problems) > 0 {
			t.Logf("round %d: %s", round, strings.Join(out.Problems, "; "))
		}
		if out.Broken() {
			tally.safeBroken++
			t.Errorf("round %d broke %s, expected SAFE:\n%s", round, k.Text, out.Timeline())
			return 1, rounds
		}
	}
	if problems > rounds/10 {
		t.Errorf("%d of %d random runs did not finish cleanly", problems, rounds)
	}
	return broken, rounds
}

// randomInputs draws an entry's inputs: keys (a name ending in id) from
// the rows' small key range, amounts from a few sizes around the rows'
// values.
func randomInputs(rng *rand.Rand, inputs []witness.Input) []schedule.Input {
	amounts := []string{"1", "5", "10", "40", "60", "100"}
	var out []schedule.Input
	for _, in := range inputs {
		var v string
		lower := strings.ToLower(in.Path)
		switch in.Kind {
		case witness.KindInt, witness.KindUint, witness.KindFloat, witness.KindDecimal:
			if strings.HasSuffix(lower, "id") {
				v = fmt.Sprint(1 + rng.Intn(2))
			} else {
				v = amounts[rng.Intn(len(amounts))]
			}
		case witness.KindBool:
			v = fmt.Sprint(rng.Intn(2) == 1)
		case witness.KindString:
			v = []string{`"a"`, `"b"`}[rng.Intn(2)]
		}
		out = append(out, schedule.Input{Name: in.Path, Value: v})
	}
	return out
}

// randomRequest draws the request of an HTTP handler entry (none for
// another): the path parameter id from the rows' key range and a JSON
// body whose fields the driver sets where the handler's body type has
// them (Amount, Delta: an amount, Delta of either sign; Reason: a word).
// Without a body every handler of the corpus refuses the request before
// its first database operation, and the random runs would say nothing.
func randomRequest(rng *rand.Rand, spec *witness.EntrySpec) []schedule.Input {
	if !spec.HTTP {
		return nil
	}
	amounts := []string{"1", "5", "10", "40", "60", "100"}
	amount := amounts[rng.Intn(len(amounts))]
	delta := amount
	if rng.Intn(2) == 0 {
		delta = "-" + amount
	}
	return []schedule.Input{
		{Name: "$http.path.id", Value: fmt.Sprint(1 + rng.Intn(2))},
		{Name: "$http.body", Value: "{}"},
		{Name: witness.JSONFieldPrefix + "Amount", Value: amount},
		{Name: witness.JSONFieldPrefix + "Delta", Value: delta},
		{Name: witness.JSONFieldPrefix + "Reason", Value: `"x"`},
	}
}
