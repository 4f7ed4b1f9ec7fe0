package pipeline

import (
	"context"
	"fmt"
	"math/rand"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/groundtruth"
	"github.com/dbverify/dbverify/report"
	"github.com/dbverify/dbverify/smt"
	"github.com/dbverify/dbverify/witness"
	sched "github.com/dbverify/dbverify/witness/schedule"
)

// odTruth runs requests serially on a real PostgreSQL through the
// schedule driver built for the entries of testdata/concurrent/orderdep:
// the entries' own code, not a copy of it.
type odTruth struct {
	sess   *sched.Session
	schema *witness.Schema
	c      *witness.Constraint
	table  string // the constrained table, keyed by id
}

// serial runs first then second (each a request: entry and inputs) from
// row and returns the final rows of the constrained table by id, and whether both
// returned without error.
func (o *odTruth) serial(t *testing.T, row map[string]string, first, second sched.Request) (map[string]map[string]string, bool) {
	t.Helper()
	// With no steps the driver runs the requests one after the other, in
	// name order.
	first.Request, second.Request = "A", "B"
	sch := &sched.Schedule{Requests: []sched.Request{first, second}, InitialRows: []sched.Row{{Table: o.table, Values: row}}}
	out, err := o.sess.Run(context.Background(), o.schema, o.c, sch, sched.DefaultTiming)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Problems) > 0 || len(out.Refused) > 0 {
		t.Fatalf("run %s then %s from %v: problems %v, refused rows %v", first.Entry, second.Entry, row, out.Problems, out.Refused)
	}
	ok := true
	for _, r := range out.Requests {
		ok = ok && r.Returned && r.Err == "" && !r.Panic
	}
	final := map[string]map[string]string{}
	for _, r := range out.Final[o.table] {
		final[r["id"]] = r
	}
	return final, ok
}

func unquoted(v string) string {
	if u, err := strconv.Unquote(v); err == nil && strings.HasPrefix(v, `"`) {
		return u
	}
	return v
}

// TestOrderDepFindingGroundTruth runs, for each order-dependence finding
// on testdata/concurrent/orderdep, the two requests with the finding's
// inputs from its initial row one after the other in both orders on
// PostgreSQL 15, through a driver that calls the entries themselves:
// both orders succeed and the cell ends with the two values the finding
// names, which differ. For the pairs without a finding (two relative
// additions, writes forced to different rows, a checked state change
// that fails when it runs second), random inputs and initial rows run
// in both orders end in the same state wherever all four requests
// succeed.
func TestOrderDepFindingGroundTruth(t *testing.T) {
	dir := testdataDir(t, "concurrent")
	o, deps, jobs := newODTruth(t, dir, "./orderdep", filepath.Join(dir, "orderdep", "schema.sql"), "accounts.balance >= 0")
	byName := map[string]string{}
	for _, j := range jobs {
		byName[funcName(j.entry)] = j.entry
	}
	found := map[string]bool{}
	for _, d := range deps {
		found[pairKey(funcName(d.a), funcName(d.b))] = true
		t.Run("finding/"+funcName(d.a)+"+"+funcName(d.b), func(t *testing.T) { checkOrderDepFinding(t, o, d) })
	}
	want := []string{"Store.Cancel+Store.Ship", "Store.Deposit+Store.Double", "Store.Deposit+Store.SetBalance", "Store.DepositOther+Store.SetBalance",
		"Store.Double+Store.SetBalance", "Store.Double+Store.Withdraw", "Store.SetBalance+Store.Withdraw"}
	for _, k := range want {
		if !found[k] {
			t.Errorf("no order-dependence finding for %s", k)
		}
	}
	if len(found) != len(want) {
		t.Errorf("findings for %v, want %v", found, want)
	}
	rng := rand.New(rand.NewSource(11))
	compared := 0
	for _, p := range [][2]string{{"Deposit", "Deposit"}, {"Deposit", "Withdraw"}, {"Deposit", "DepositOther"}, {"Withdraw", "Withdraw"},
		{"Withdraw", "DepositOther"}, {"Double", "Double"}, {"Double", "DepositOther"}, {"Ship", "Ship"}, {"Ship", "Close"}, {"Cancel", "Close"}, {"Close", "Close"}} {
		a, b := byName["Store."+p[0]], byName["Store."+p[1]]
		if found[pairKey(funcName(a), funcName(b))] {
			t.Errorf("%s and %s commute, but have an order-dependence finding", p[0], p[1])
		}
		t.Run("commute/"+p[0]+"+"+p[1], func(t *testing.T) { compared += checkCommute(t, o, rng, a, b) })
	}
	t.Logf("%d order-dependence findings reproduced; %d random serial pairs of commuting requests compared (both orders succeeding)", len(deps), compared)
}

// newODTruth finds the order dependences of the package pattern of the
// module at dir under the constraint (PostgreSQL) and opens a schedule
// driver of its entries on a throwaway PostgreSQL server with the schema.
func newODTruth(t *testing.T, dir, pattern, schemaPath, constraint string) (*odTruth, []orderDep, []job) {
	t.Helper()
	return newODTruthOn(t, groundtruth.Postgres, dir, pattern, schemaPath, constraint)
}

// newODTruthOn is newODTruth on engine d (MySQL: MariaDB).
func newODTruthOn(t *testing.T, d groundtruth.Dialect, dir, pattern, schemaPath, constraint string) (*odTruth, []orderDep, []job) {
	t.Helper()
	dialect := Dialect("postgres")
	if d == groundtruth.MySQL {
		dialect = "mysql"
	}
	cfg := Config{Dir: dir, Patterns: []string{pattern}, Dialect: dialect, Schema: schemaPath, Constraints: []string{constraint}, Workers: 1, Concurrent: true}
	cfg = cfg.withDefaults()
	jobs, in := plannedJobs(t, cfg)
	s, err := smt.NewSolver(cfg.TimeoutMS)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	deps, cut, err := orderDependences(jobs, cfg, in.schema, s)
	if err != nil || cut != "" {
		t.Fatalf("order dependences: %v (cut: %q)", err, cut)
	}
	var entries []string
	for _, j := range jobs {
		entries = append(entries, j.entry)
	}
	prog, err := sched.Build(dir, dedupe(entries), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	schema, err := witness.LoadSchemaFiles(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	c, err := witness.ParseConstraint(constraint, "")
	if err != nil {
		t.Fatal(err)
	}
	eng := groundtruth.StartForTest(t, d)
	db, name, err := eng.NewDatabase(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	sess, err := prog.Open(eng.DriverName(), witness.DriverDSN(eng, name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sess.Close() })
	if err := sess.Prepare(context.Background(), schema); err != nil {
		t.Fatal(err)
	}
	return &odTruth{sess: sess, schema: schema, c: c, table: c.Table}, deps, jobs
}

// TestOrderDepCorpusGroundTruth replays the order-dependence findings of
// the concurrent corpus in both orders: pg_price_discount_order_safe
// (SetPrice and ApplyDiscount, ApplyDiscount with itself; SetPrice with
// itself is two blind writes, no finding) on PostgreSQL,
// mysql_limit_spend_order_safe (SetLimit with itself: its RowsAffected
// check reads credit_limit on MySQL, where an UPDATE that leaves the
// value as it was affects no row) on MariaDB.
func TestOrderDepCorpusGroundTruth(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "benchmarks", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name       string
		engine     groundtruth.Dialect
		constraint string
		want       int
	}{
		{"pg_price_discount_order_safe", groundtruth.Postgres, "products.price >= 0", 2},
		{"mysql_limit_spend_order_safe", groundtruth.MySQL, "cards.spent <= cards.credit_limit", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			o, deps, _ := newODTruthOn(t, c.engine, dir, "./concurrent/"+c.name, filepath.Join(dir, "concurrent", c.name, "schema.sql"), c.constraint)
			if len(deps) != c.want {
				t.Errorf("%d findings, want %d", len(deps), c.want)
			}
			for _, d := range deps {
				t.Run(funcName(d.a)+"+"+funcName(d.b), func(t *testing.T) { checkOrderDepFinding(t, o, d) })
			}
		})
	}
}

// TestOrderDepMySQLGroundTruth: MySQL evaluates an UPDATE's SETs left to
// right (Bump's "last = balance" reads the new balance), so two Bumps
// commute and Bump against Forget ends with last one below the new
// balance or the new balance;
// checked on MariaDB 10.11: the finding's orders end with the values it
// names, and random pairs of Bumps end alike.
func TestOrderDepMySQLGroundTruth(t *testing.T) {
	dir := testdataDir(t, "concurrent")
	o, deps, jobs := newODTruthOn(t, groundtruth.MySQL, dir, "./orderdep/mysql", filepath.Join(dir, "orderdep", "mysql", "schema.sql"), "accounts.balance >= 0")
	if len(deps) != 1 || pairKey(funcName(deps[0].a), funcName(deps[0].b)) != "Store.Bump+Store.Forget" || deps[0].col != "last" {
		t.Fatalf("findings %+v, want one, of Bump and Forget on last", deps)
	}
	checkOrderDepFinding(t, o, deps[0])
	bump := ""
	for _, j := range jobs {
		if funcName(j.entry) == "Store.Bump" {
			bump = j.entry
		}
	}
	rng := rand.New(rand.NewSource(5))
	for i := 0; i < 6; i++ {
		row := map[string]string{"id": "1", "balance": fmt.Sprint(rng.Intn(50)), "last": fmt.Sprint(rng.Intn(50))}
		req := func() sched.Request {
			return sched.Request{Entry: bump, Inputs: []sched.Input{{Name: "id", Value: "1"}, {Name: "amount", Value: fmt.Sprint(1 + rng.Intn(20))}}}
		}
		a, b := req(), req()
		ab, okAB := o.serial(t, row, a, b)
		ba, okBA := o.serial(t, row, b, a)
		if !okAB || !okBA || fmt.Sprint(ab) != fmt.Sprint(ba) {
			t.Errorf("from %v, %v then %v ends %v, the other order %v (ok %v, %v)", row, a.Inputs, b.Inputs, ab, ba, okAB, okBA)
		}
	}
}

func pairKey(a, b string) string {
	if b < a {
		a, b = b, a
	}
	return a + "+" + b
}

// checkOrderDepFinding runs finding d's requests in both orders from its
// initial row.
func checkOrderDepFinding(t *testing.T, o *odTruth, d orderDep) {
	row := map[string]string{}
	for k, v := range d.row {
		row[k] = unquoted(v)
	}
	req := func(entry string, in []report.Input) sched.Request {
		r := sched.Request{Entry: entry, Inputs: []sched.Input{}}
		for _, x := range in {
			r.Inputs = append(r.Inputs, sched.Input{Name: x.Name, Value: unquoted(x.Value)})
		}
		return r
	}
	a, b := req(d.a, d.inputs[0]), req(d.b, d.inputs[1])
	ab, okAB := o.serial(t, row, a, b)
	ba, okBA := o.serial(t, row, b, a)
	if !okAB || !okBA {
		t.Fatalf("a request failed (A;B ok %v, B;A ok %v): %s", okAB, okBA, d.message())
	}
	id := row["id"]
	gotAB, gotBA := ab[id][d.col], ba[id][d.col]
	t.Logf("%s: A;B %s = %s, B;A %s = %s", d.message(), d.col, gotAB, d.col, gotBA)
	if gotAB == gotBA {
		t.Errorf("both orders end with %s = %s: %s", d.col, gotAB, d.message())
	}
	if gotAB != unquoted(d.ab) || gotBA != unquoted(d.ba) {
		t.Errorf("final %s %s and %s, the finding says %s and %s", d.col, gotAB, gotBA, d.ab, d.ba)
	}
}

// commuteRuns is the number of random serial pairs checkCommute runs
// each way (each a serial run of two requests on PostgreSQL: with 11 pairs
// of requests, 8 runs took 50 s of CPU, most of it the engine's).
const commuteRuns = 4

// checkCommute runs entries a and b with random inputs from random rows
// in both orders and returns how many runs had every request succeed;
// those must end in the same state.
func checkCommute(t *testing.T, o *odTruth, rng *rand.Rand, a, b string) int {
	compared := 0
	for i := 0; i < commuteRuns; i++ {
		rowID := 1 + rng.Intn(2)
		inputs := func(entry string) []sched.Input {
			id := rowID // mostly the row's: the writes then meet
			if rng.Intn(4) == 0 {
				id = 3 - rowID
			}
			in := []sched.Input{{Name: "id", Value: fmt.Sprint(id)}}
			switch funcName(entry) {
			case "Store.Deposit", "Store.Withdraw", "Store.DepositOther":
				in = append(in, sched.Input{Name: "amount", Value: fmt.Sprint(rng.Intn(20) - 2)})
			}
			return in
		}
		row := map[string]string{"id": fmt.Sprint(rowID), "balance": fmt.Sprint(rng.Intn(50)), "status": []string{"open", "shipped"}[rng.Intn(2)]}
		ra := sched.Request{Entry: a, Inputs: inputs(a)}
		rb := sched.Request{Entry: b, Inputs: inputs(b)}
		ab, okAB := o.serial(t, row, ra, rb)
		ba, okBA := o.serial(t, row, rb, ra)
		if !okAB || !okBA {
			continue
		}
		compared++
		if fmt.Sprint(ab) != fmt.Sprint(ba) {
			t.Errorf("from %v, %v then %v ends %v, the other order %v", row, ra.Inputs, rb.Inputs, ab, ba)
		}
	}
	return compared
}
