package pipeline

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestConcurrent runs --concurrent on small handlers: the classic
// check-then-act races are UNSAFE with a two-request schedule, the
// locked, atomic and absolute-write forms are proved for any number of
// requests, and what the search cannot model exactly is UNKNOWN.
func TestConcurrent(t *testing.T) {
	src := testdataDir(t, "concurrent")
	type want struct {
		verdict report.Verdict
		scope   string // proved, bounded, search, sequential
		with    string // UNSAFE: the second request's entry (suffix)
		ops     string // UNSAFE: the schedule, as request+op, e.g. "A:select B:select …"
		reason  string // UNKNOWN: part of the reason
	}
	tests := []struct {
		pkg, dialect, isolation string
		want                    map[string]want // by entry suffix
		schema                  string          // in testdata/concurrent
	}{
		{"./relative", "postgres", "", map[string]want{"Withdraw": {verdict: report.Unsafe, scope: "search", with: "Withdraw",
			ops: "select select exec exec"}}, ""},
		{"./absolute", "postgres", "", map[string]want{"Withdraw": {verdict: report.Safe, scope: "proved"}}, ""},
		{"./forupdate", "postgres", "", map[string]want{"Withdraw": {verdict: report.Safe, scope: "proved"}}, ""},
		{"./forshare", "postgres", "", map[string]want{"Withdraw": {verdict: report.Safe, scope: "proved"}}, ""},
		// FOR KEY SHARE does not conflict with the lock of a non-key
		// UPDATE (independent tester c22: proved SAFE before, 240/300
		// PostgreSQL trials broke it).
		{"./forkeyshare", "postgres", "", map[string]want{"Withdraw": {verdict: report.Unsafe, scope: "search", with: "Withdraw"}}, ""},
		{"./txplain", "postgres", "", map[string]want{"Withdraw": {verdict: report.Unsafe, scope: "search", with: "Withdraw"}}, ""},
		{"./guarded", "postgres", "", map[string]want{"Withdraw": {verdict: report.Safe, scope: "proved"}}, ""},
		{"./guardedrows", "postgres", "", map[string]want{"Withdraw": {verdict: report.Safe, scope: "proved"}}, ""},
		{"./bounded", "postgres", "", map[string]want{"Fee": {verdict: report.Safe, scope: "bounded"}}, ""},
		{"./pair", "postgres", "", map[string]want{
			"Charge": {verdict: report.Safe, scope: "proved"},
			"Fee":    {verdict: report.Unsafe, scope: "search", with: "Charge", ops: "select select exec exec"}}, ""},
		// Postgres REPEATABLE READ and SERIALIZABLE: the second debit fails
		// (40001, first updater wins).
		// Check and debit in one SERIALIZABLE transaction: PostgreSQL
		// commits only serializable schedules, and Withdraw alone is SAFE.
		{"./serializable", "postgres", "", map[string]want{"Withdraw": {verdict: report.Safe, scope: "serializable"}}, ""},
		// The check reads on the pool before the transaction: not part of
		// it, so serializability proves nothing, and the schedule the
		// search finds may be one SSI aborts.
		{"./serializable/outside", "postgres", "", map[string]want{"Withdraw": {verdict: report.Unknown, scope: "search", reason: "ssi"}}, ""},
		{"./txplain", "postgres", "rr", map[string]want{"Withdraw": {verdict: report.Safe, scope: "bounded"}}, ""},
		{"./serializable", "postgres", "rc", map[string]want{"Withdraw": {verdict: report.Unsafe, scope: "search", with: "Withdraw"}}, ""},
		// SQLite runs transactions serializably (one writer at a time; a
		// reader whose snapshot is stale cannot write): the check and the
		// debit in one transaction are SAFE for any number of requests, also
		// where a failed write is ignored and the transaction committed, and
		// beside a deposit that commits on its own (one statement).
		{"./sqlitetx/safe", "sqlite", "", map[string]want{"Spend": {verdict: report.Safe, scope: "serializable"},
			"SpendLogged": {verdict: report.Safe, scope: "serializable"}, "Deposit": {verdict: report.Safe, scope: "proved"}}, ""},
		// The check in one transaction, the debit in another: no serial
		// proof; each transaction has one statement, which commits as on
		// its own, and the search finds the race.
		{"./sqlitetx/twotx", "sqlite", "", map[string]want{"Spend": {verdict: report.Unsafe, scope: "search", with: "Spend"}}, ""},
		// The check and the debit in one transaction, with an audit
		// statement on the pool before it: no serial proof (a statement
		// outside the transaction), and the search does not model
		// SQLite's locks across the statements of a transaction.
		{"./sqlitetx/audited", "sqlite", "", map[string]want{"Spend": {verdict: report.Unknown, scope: "search", reason: "sqlite"}}, ""},
		// Each statement commits on its own: the lost update.
		{"./sqlitetx/autocommit", "sqlite", "", map[string]want{"Spend": {verdict: report.Unsafe, scope: "search", with: "Spend",
			ops: "select select exec exec"}}, ""},
		// A SERIALIZABLE transaction of another function (a read-only
		// report) does not protect the withdraw, which runs at the default
		// READ COMMITTED (adversary C1: the file's strongest level was
		// taken for every transaction, a wrong SAFE).
		{"./mixedlevels", "postgres", "", map[string]want{"Withdraw": {verdict: report.Unsafe, scope: "search", with: "Withdraw"}}, ""},
		// Both reads of the balance come from the snapshot: two
		// withdrawals both see the last unit.
		{"./mysqlreread", "mysql", "", map[string]want{"Withdraw": {verdict: report.Unsafe, scope: "search", with: "Withdraw"}}, ""},
		// InnoDB takes the snapshot at the first plain read of any table
		// (settings): the balance read after the users lock may be stale
		// (independent tester c27: SAFE before, 233/300 MariaDB trials
		// broke it).
		// The search follows InnoDB's consistent reads: the schedule where
		// the second request's snapshot predates the first's commit.
		{"./mysqlsnapshot", "mysql", "", map[string]want{"Withdraw": {verdict: report.Unsafe, scope: "search", with: "Withdraw"}}, ""},
		// The level is set by the caller and passed to the BEGIN: the
		// search ran at the default, so its schedule may be impossible
		// (independent tester R1: a non-reproducing UNSAFE before).
		{"./optionsparam", "postgres", "", map[string]want{"Withdraw": {verdict: report.Unknown, reason: "isolation options that are not written there"}}, ""},
		// A lock on the user's row orders two debits of the user's
		// account; without it they race.
		{"./parentlock", "postgres", "", map[string]want{"Spend": {verdict: report.Safe, scope: "bounded"}}, "parentlock/schema.sql"},
		{"./parentlock/nolock", "postgres", "", map[string]want{"Spend": {verdict: report.Unsafe, scope: "search", with: "Spend"}}, "parentlock/schema.sql"},
	}
	// These need the search of few-switch schedule plans (tens of
	// solver runs each).
	slow := map[string]bool{"./sqlitetx/twotx/": true, "./parentlock/": true, "./parentlock/nolock/": true, "./txplain/rr": true}
	for _, tt := range tests {
		t.Run(tt.pkg+"/"+tt.isolation, func(t *testing.T) {
			if testing.Short() && slow[tt.pkg+"/"+tt.isolation] {
				t.Skip("slow: searches schedule plans (run without -short)")
			}
			cfg := Config{Dir: src, Patterns: []string{tt.pkg}, Dialect: Dialect(tt.dialect), Isolation: tt.isolation,
				Constraints: []string{"accounts.balance >= 0"}, Workers: 1, Concurrent: true}
			if tt.schema != "" {
				cfg.Schema = testdataDir(t, "concurrent/"+tt.schema)
			}
			rep, err := runShared(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Results) != len(tt.want) {
				t.Fatalf("%d results, want %d", len(rep.Results), len(tt.want))
			}
			for _, r := range rep.Results {
				var w want
				found := false
				for suffix, x := range tt.want {
					if strings.HasSuffix(r.Entry, "."+suffix) {
						w, found = x, true
					}
				}
				if !found {
					t.Fatalf("unexpected entry %s", r.Entry)
				}
				checkConcurrentResult(t, r, w.verdict, w.scope, w.with, w.ops, w.reason)
			}
		})
	}
}

func checkConcurrentResult(t *testing.T, r *report.Result, verdict report.Verdict, scope, with, ops, reason string) {
	t.Helper()
	cc := r.Concurrency
	if r.Verdict != verdict || cc == nil || r.Isolation == nil {
		t.Fatalf("%s: %s (%s), want %s with the concurrency and isolation", r.Entry, r.Verdict, r.Reason, verdict)
	}
	got := map[string]string{report.ScopeProved: "proved", report.ScopeSerializable: "serializable", report.ScopeBounded: "bounded", report.ScopeBoundedSwitches: "bounded",
		report.ScopeSearch: "search", report.ScopeSequential: "sequential"}[cc.Scope]
	if scope != "" && got != scope {
		t.Errorf("%s: decided by %q, want %q", r.Entry, cc.Scope, scope)
	}
	if reason != "" && !strings.Contains(strings.ToLower(r.Reason), reason) {
		t.Errorf("%s: reason %q lacks %q", r.Entry, r.Reason, reason)
	}
	if verdict != report.Unsafe {
		return
	}
	if !strings.HasSuffix(r.ConcurrentWith, "."+with) || len(r.Labels) != 1 || r.Labels[0] != report.LabelConcurrencyOnly || len(r.Requests) != 2 {
		t.Errorf("%s: concurrent with %q, labels %v, %d requests; want %s, concurrency-only, 2 requests", r.Entry, r.ConcurrentWith, r.Labels, len(r.Requests), with)
	}
	// Both requests run, each with its own inputs; the schedule switches
	// between them.
	var seq []string
	reqs := map[string]bool{}
	for _, s := range r.Schedule {
		seq = append(seq, s.Op)
		reqs[s.Request] = true
		if s.Pos == "" || s.SQL == "" {
			t.Errorf("%s: schedule step without position or SQL: %+v", r.Entry, s)
		}
		if s.Op == "exec" && len(s.Args) == 0 {
			t.Errorf("%s: exec without its arguments: %+v", r.Entry, s)
		}
	}
	if !reqs["A"] || !reqs["B"] {
		t.Errorf("%s: schedule %+v does not run both requests", r.Entry, r.Schedule)
	}
	if ops != "" && strings.Join(seq, " ") != ops {
		t.Errorf("%s: schedule ops %q, want %q", r.Entry, strings.Join(seq, " "), ops)
	}
	for _, q := range r.Requests {
		if len(q.Inputs) == 0 {
			t.Errorf("%s: request %s has no inputs", r.Entry, q.Request)
		}
	}
	if len(r.InitialRows) == 0 {
		t.Errorf("%s: no initial rows", r.Entry)
	}
	if r.Counterexample == nil || r.Counterexample.Violation == nil || !strings.HasPrefix(r.Counterexample.Violation.Values["balance"], "-") {
		t.Errorf("%s: no violation with a negative balance", r.Entry)
	}
}

// TestConstraintNotOneRow: a constraint with a subquery is not a row
// check; every entry that writes a table it names gets UNKNOWN with the
// reason (the run used to fail with a usage error), with and without
// --concurrent.
func TestConstraintNotOneRow(t *testing.T) {
	src := testdataDir(t, "concurrent")
	for _, concurrent := range []bool{false, true} {
		cfg := Config{Dir: src, Patterns: []string{"./relative"}, Dialect: "postgres", Workers: 1, Concurrent: concurrent,
			Constraints: []string{"accounts.balance >= 0", "accounts.balance >= (SELECT min(limit_cents) FROM overdraft_limits)"}}
		rep, err := runShared(context.Background(), cfg)
		if err != nil {
			t.Fatalf("concurrent=%v: %v", concurrent, err)
		}
		var unknown []*report.Result
		for _, r := range rep.Results {
			if strings.Contains(r.Constraint, "SELECT") {
				unknown = append(unknown, r)
			} else if r.Verdict == report.Unknown {
				t.Errorf("concurrent=%v: the row constraint is UNKNOWN too: %s", concurrent, r.Reason)
			}
		}
		if len(unknown) != 1 {
			t.Fatalf("concurrent=%v: %d results of the subquery constraint, want 1", concurrent, len(unknown))
		}
		if r := unknown[0]; r.Verdict != report.Unknown || !strings.Contains(r.Reason, "subqueries are not allowed") || r.EntryPosition == "" {
			t.Errorf("concurrent=%v: %s %q at %q, want UNKNOWN naming the subquery, at the entry", concurrent, r.Verdict, r.Reason, r.EntryPosition)
		}
	}
}

// TestTxEscape: with --concurrent, a statement on the pool while a
// transaction of the request is surely open is a tx-escape finding at the
// statement (an inlined helper's line), naming the BEGIN; the pool in the
// BEGIN's error branch, after COMMIT, or after a COMMIT on one path only
// is not.
func TestTxEscape(t *testing.T) {
	cfg := Config{Dir: testdataDir(t, "concurrent"), Patterns: []string{"./escape"}, Dialect: "postgres", Workers: 1, Concurrent: true,
		Constraints: []string{"accounts.balance >= 0"}}
	rep, err := runShared(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range rep.Findings {
		got = append(got, f.Class+"@"+f.Position+" begin "+f.Related)
		if !strings.Contains(f.Message, "'debit'") || !strings.HasSuffix(f.Entry, "Debit") {
			t.Errorf("finding %+v: want the audit INSERT of Debit", f)
		}
	}
	want := []string{"tx-escape@escape/escape.go:32 begin escape/escape.go:17"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("findings %q, want %q", got, want)
	}
	cfg.Concurrent = false
	if rep, err := runShared(context.Background(), cfg); err != nil || len(rep.Findings) != 0 {
		t.Errorf("without --concurrent: findings %v (error %v), want none", rep.Findings, err)
	}
}

// TestConcurrentUniqueKey: a UNIQUE key on the claims table decides the
// race of two claims (the second INSERT of the user's claim fails, so
// the second credit never commits); without it both credit.
func TestConcurrentUniqueKey(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: searches schedule plans (run without -short)")
	}
	tests := []struct {
		pkg     string
		verdict report.Verdict
		assume  bool // the unique-key assumption is listed
	}{
		{"./claim", report.Safe, true},
		{"./claim/nounique", report.Unsafe, false},
	}
	for _, tt := range tests {
		t.Run(tt.pkg, func(t *testing.T) {
			cfg := Config{Dir: testdataDir(t, "concurrent"), Patterns: []string{tt.pkg}, Dialect: "postgres", Workers: 1, Concurrent: true,
				Constraints: []string{"users.bonus_total <= 100"}, Schema: testdataDir(t, "concurrent/"+strings.TrimPrefix(tt.pkg, "./")+"/schema.sql")}
			rep, err := runShared(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Results) != 1 {
				t.Fatalf("%d results, want 1", len(rep.Results))
			}
			r := rep.Results[0]
			if r.Verdict != tt.verdict {
				t.Fatalf("%s (%s), want %s", r.Verdict, r.Reason, tt.verdict)
			}
			if r.Verdict == report.Unsafe && (len(r.Schedule) == 0 || r.Concurrency == nil || r.Concurrency.Scope != report.ScopeSearch) {
				t.Errorf("UNSAFE without a two-request schedule: %+v", r.Concurrency)
			}
			listed := strings.Contains(strings.Join(r.Assumptions, "\n"), "another request inserted and did not roll back")
			if listed != tt.assume {
				t.Errorf("unique-key assumption listed %v, want %v: %q", listed, tt.assume, r.Assumptions)
			}
		})
	}
}

// TestConcurrentOutsideOnce: a concurrent counterexample of a chi handler
// that decodes a JSON body lists each value of a call outside the
// analysed code once, with the value the request sends (the decoded
// body's fields); later calls that may reach the body (w.WriteHeader)
// made the line list A.body.Delta three times with three values (an
// independent tester's p20twohandlers). The replay reads the body off
// the same steps (benchmarks' TestReplayConcurrentUnsafe replays the case).
func TestConcurrentOutsideOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: searches two requests")
	}
	dir, err := filepath.Abs(filepath.Join("..", "benchmarks", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	const c = "pg_chi_adjust_json_unsafe"
	rep, err := runShared(context.Background(), Config{Dir: dir, Patterns: []string{"./concurrent/" + c}, Dialect: "postgres",
		Schema: filepath.Join(dir, "concurrent", c, "schema.sql"), Constraints: []string{"accounts.balance >= 0"}, Workers: 1, Concurrent: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 || rep.Results[0].Verdict != report.Unsafe || rep.Results[0].Counterexample == nil {
		t.Fatalf("results %+v, want one UNSAFE with a counterexample", rep.Results)
	}
	seen := map[string]bool{}
	for _, b := range rep.Results[0].Counterexample.Outside {
		if seen[b.Name] {
			t.Errorf("outside lists %s twice: %v", b.Name, rep.Results[0].Counterexample.Outside)
		}
		seen[b.Name] = true
	}
	for _, want := range []string{"A.body.Delta", "B.body.Delta"} {
		if !seen[want] {
			t.Errorf("outside %v lacks %s", rep.Results[0].Counterexample.Outside, want)
		}
	}
}

// TestConcurrentUnwatchedReadWrite: a request that reads and writes a
// table the constraint does not watch (a payout queue) is checked under
// --concurrent. It crashed (index out of range in ownWrite: the read's
// location was one of the lowered program, the table of writes the
// source program's; independent tester adv15 concpanic) and lost every
// result of the run.
func TestConcurrentUnwatchedReadWrite(t *testing.T) {
	dir := testdataDir(t, "concurrent")
	rep, err := runShared(context.Background(), Config{Dir: dir, Patterns: []string{"./payoutqueue"}, Dialect: "postgres", Workers: 1, Concurrent: true,
		Constraints: []string{"accounts.balance >= 0"}, Schema: testdataDir(t, "concurrent/payoutqueue/schema.sql")})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 || rep.Results[0].Verdict != report.Safe {
		t.Fatalf("results %+v, want Pay SAFE (the debit's guard is in its UPDATE)", rep.Results)
	}
}
