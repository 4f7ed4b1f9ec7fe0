package pipeline

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestOrderDepFinding: with --concurrent, two requests whose serial
// orders both succeed and leave a cell of the constrained table with
// different values are an order-dependence finding at the first
// request's write, related to the second's: a relative write against a
// doubling or an absolute write, two guarded state changes that do not
// check RowsAffected. Two relative additions, writes the path conditions
// keep on different rows, a checked state change that fails when it runs
// second, and an absolute write with itself on other inputs (a setter:
// the last writer wins, adv19 svcrepo) give none; nor does a run without
// --concurrent.
func TestOrderDepFinding(t *testing.T) {
	cfg := Config{Dir: testdataDir(t, "concurrent"), Patterns: []string{"./orderdep"}, Dialect: "postgres", Schema: filepath.Join(testdataDir(t, "concurrent"), "orderdep", "schema.sql"), Constraints: []string{"accounts.balance >= 0"},
		Workers: 1, Concurrent: true}
	rep, err := runShared(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	// The pairs, by the lines of their writes (orderdep/orderdep.go).
	const (
		deposit = 26
		with    = 36
		double  = 46
		other   = 59
		set     = 74
		ship    = 83
		cancel  = 90
	)
	want := map[[2]int]string{
		{deposit, double}: "Store.Deposit then Store.Double ends with balance", {deposit, set}: "Store.SetBalance then Store.Deposit",
		{other, set}: "Store.DepositOther (id = ", {double, set}: "on accounts.balance", {with, double}: "Store.Withdraw (id = 1, amount = ",
		{with, set}:    "on accounts.balance",
		{ship, cancel}: `do not commute on accounts.status: from the accounts row (balance = 0, id = 2, status = "open")`,
	}
	got := map[[2]int]bool{}
	for _, f := range rep.Findings {
		if f.Class != report.FindingOrderDependence {
			continue
		}
		k := [2]int{lineOf(t, f.Position), lineOf(t, f.Related)}
		if k[0] > k[1] {
			k[0], k[1] = k[1], k[0]
		}
		says, ok := want[k]
		if !ok || got[k] {
			t.Errorf("unexpected finding %s (related %s): %s", f.Position, f.Related, f.Message)
			continue
		}
		got[k] = true
		for _, s := range []string{says, "both succeed in either order", " then ", "do not commute on accounts."} {
			if !strings.Contains(f.Message, s) {
				t.Errorf("%s: message lacks %q: %s", f.Position, s, f.Message)
			}
		}
	}
	for k := range want {
		if !got[k] {
			t.Errorf("no finding for the writes at lines %d and %d", k[0], k[1])
		}
	}
	for _, w := range rep.Warnings {
		if strings.Contains(w, "order-dependence") {
			t.Errorf("search cut on a small package: %s", w)
		}
	}
	cfg.Concurrent = false
	if rep, err := runShared(context.Background(), cfg); err != nil || len(rep.Findings) != 0 {
		t.Errorf("without --concurrent: findings %v (error %v), want none", rep.Findings, err)
	}
}

// lineOf is the line of "file:line" in orderdep/orderdep.go.
func lineOf(t *testing.T, pos string) int {
	t.Helper()
	return lineIn(t, pos, "orderdep/orderdep.go")
}

// lineIn is the line of position pos ("file:line"), which must be in
// file.
func lineIn(t *testing.T, pos, want string) int {
	t.Helper()
	file, line, ok := strings.Cut(pos, ":")
	if !ok || file != want {
		t.Fatalf("position %q not in %s", pos, want)
	}
	n := 0
	for _, c := range line {
		n = n*10 + int(c-'0')
	}
	return n
}

// TestOrderDepHandlers: an HTTP handler fails by answering an error
// status (http.Error, w.WriteHeader(409)), not by returning an error
// (adv8 F10). Two guarded relative withdrawals, each answering 409 when
// its UPDATE matched no row, give no order-dependence finding (from a
// balance of 2, withdrawals of 2 and 1 end differently by order only
// because one of them is refused), nor does the absolute reset against
// itself (a setter); the reset against the withdrawal does.
func TestOrderDepHandlers(t *testing.T) {
	dir := testdataDir(t, "concurrent")
	rep, err := runShared(context.Background(), Config{Dir: dir, Patterns: []string{"./handlerorder"}, Dialect: "postgres",
		Schema: filepath.Join(dir, "handlerorder", "schema.sql"), Constraints: []string{"accounts.balance >= 0"}, Workers: 1, Concurrent: true})
	if err != nil {
		t.Fatal(err)
	}
	const withdraw, reset, status = 32, 56, 76 // the lines of the writes
	got := map[[2]int]bool{}
	for _, f := range rep.Findings {
		if f.Class != report.FindingOrderDependence {
			continue
		}
		k := [2]int{lineIn(t, f.Position, "handlerorder/handlers.go"), lineIn(t, f.Related, "handlerorder/handlers.go")}
		if k[0] > k[1] {
			k[0], k[1] = k[1], k[0]
		}
		got[k] = true
		if k[0] != reset && k[1] != reset {
			t.Errorf("two guarded relative withdrawals reported: %s", f.Message)
		}
		if k[0] == reset && k[1] == reset {
			t.Errorf("two resets (blind writes, the last wins) reported: %s", f.Message)
		}
	}
	for _, k := range [][2]int{{withdraw, reset}, {reset, status}} {
		if !got[k] {
			t.Errorf("no order-dependence finding for the writes at lines %v; got %v", k, got)
		}
	}
}

// TestOrderDepGinRefusal: a gin handler refuses by answering an error
// status (c.JSON(http.StatusConflict, …)) and returning: the guarded
// withdrawal of the corpus case pg_gin_withdraw_guarded_conflict_safe
// with itself gives no order-dependence finding (it gave one: two
// requests "both succeed in either order", one of them answered 409).
func TestOrderDepGinRefusal(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "benchmarks", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	const c = "pg_gin_withdraw_guarded_conflict_safe"
	rep, err := runShared(context.Background(), Config{Dir: dir, Patterns: []string{"./concurrent/" + c}, Dialect: "postgres",
		Schema: filepath.Join(dir, "concurrent", c, "schema.sql"), Constraints: []string{"accounts.balance >= 0"}, Workers: 1, Concurrent: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 || rep.Results[0].Verdict != report.Safe {
		t.Errorf("results %+v, want one SAFE", rep.Results)
	}
	for _, f := range rep.Findings {
		if f.Class == report.FindingOrderDependence {
			t.Errorf("a refused request taken to succeed: %s", f.Message)
		}
	}
}

// TestOrderDepHTTPInputs: the order-dependence finding names a handler's
// inputs as the requests send them (path parameter "amount" = "1"
// (strconv.Atoi → 1)), not by the model's names of the calls that read
// them (Atoi(PathValue(_, "amount")).0 = 1, Atoi(…).1 = false,
// PathValue(_, "amount") = 1: adv16 progs/quota, issue 8 §9).
func TestOrderDepHTTPInputs(t *testing.T) {
	dir := testdataDir(t, "concurrent")
	cfg := Config{Dir: dir, Patterns: []string{"./orderhttp"}, Dialect: "postgres", Schema: filepath.Join(dir, "orderhttp", "schema.sql"), Constraints: []string{"accounts.balance >= 0"},
		Workers: 1, Concurrent: true}
	rep, err := runShared(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range rep.Findings {
		if f.Class != report.FindingOrderDependence {
			continue
		}
		n++
		for _, s := range []string{`A (path parameter "id" = "`, `path parameter "amount" = "`, "(strconv.Atoi → ", "(strconv.ParseInt → "} {
			if !strings.Contains(f.Message, s) {
				t.Errorf("message lacks %q: %s", s, f.Message)
			}
		}
		for _, s := range []string{"PathValue(", ").0", ").1", "#"} {
			if strings.Contains(f.Message, s) {
				t.Errorf("message shows the model's name %q: %s", s, f.Message)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d order-dependence findings, want 1: %+v", n, rep.Findings)
	}
}
