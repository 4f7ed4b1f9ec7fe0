package pipeline

import (
	"context"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestMethodValueEntries: a method that runs a writer through a method
// value a helper wraps (f := WithRetry(s.chargeback); f(ctx, id, amt)) is
// an entry point, and the coverage counts the writer as run by it (adv16
// mini/methval: Batch was not listed, and with --entry Batch the writer
// was "NOT RUN by any verified entry" while Batch's counterexample ran
// it). A function that only returns the wrapped value (Handler) is not.
func TestMethodValueEntries(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("testdata", "src"))
	const pkg = "example.com/pl/methval."
	cfg := Config{Dir: dir, Patterns: []string{"./methval"}, Constraints: []string{"accounts.balance >= 0"}, Workers: 1}
	rep, err := runShared(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]report.Verdict{}
	for _, r := range rep.Results {
		got[strings.TrimPrefix(r.Entry, pkg)] = r.Verdict
	}
	want := map[string]report.Verdict{
		"(*Service).Batch":      report.Unsafe,
		"(*Service).SafeBatch":  report.Safe,
		"(*Service).chargeback": report.Unsafe, // its value escapes (WithRetry returns it)
		"(*Service).withdraw":   report.Safe,
	}
	if !maps.Equal(got, want) {
		t.Errorf("verdicts %v, want %v", got, want)
	}
	cfg.Entry = "Batch$"
	rep, err = runShared(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 2 {
		t.Errorf("--entry Batch$: %d results, want Batch and SafeBatch", len(rep.Results))
	}
	runs := map[string][]string{}
	for _, c := range rep.Coverage {
		runs[strings.TrimPrefix(c.Writer, pkg)] = c.Entries
	}
	if !slices.Equal(runs["(*Service).chargeback"], []string{pkg + "(*Service).Batch"}) ||
		!slices.Equal(runs["(*Service).withdraw"], []string{pkg + "(*Service).SafeBatch"}) {
		t.Errorf("--entry Batch$: coverage %v, want chargeback run by Batch, withdraw by SafeBatch", runs)
	}
	if len(rep.Warnings) != 0 {
		t.Errorf("--entry Batch$: warnings %q, want none", rep.Warnings)
	}
}

// TestInitFilledTables: a package map of functions filled only by the
// package's initialisation with named functions is a table of operations
// whose entries are known when any entry runs: a lookup runs one of them
// by key, each on its branch (Apply: UNSAFE through chargeback;
// ApplyGuarded: SAFE). An exported one (Hooks) may hold anything: a call
// through it is UNKNOWN naming the map, and so is one init fills on some
// paths only (flagged). Before, none of the three was an
// entry point (adv16 cand/initmap), and with --entry Apply was UNKNOWN
// "call through a function value".
func TestInitFilledTables(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("testdata", "src"))
	const pkg = "example.com/pl/initops."
	cfg := Config{Dir: dir, Patterns: []string{"./initops"}, Constraints: []string{"accounts.balance >= 0"}, Workers: 1}
	rep, err := runShared(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*report.Result{}
	for _, r := range rep.Results {
		got[strings.TrimPrefix(r.Entry, pkg)] = r
	}
	want := map[string]report.Verdict{
		"Apply":        report.Unsafe,
		"ApplyGuarded": report.Safe,
		"RunHook":      report.Unknown,
		"ApplyFlagged": report.Unknown, // filled on some paths of init only
		"chargeback":   report.Unsafe,  // stored in a table: entries of their own
		"debit":        report.Safe,
		"credit":       report.Safe,
	}
	verdicts := map[string]report.Verdict{}
	for name, r := range got {
		verdicts[name] = r.Verdict
	}
	if !maps.Equal(verdicts, want) {
		t.Errorf("verdicts %v, want %v", verdicts, want)
	}
	if r := got["RunHook"]; r != nil && !strings.Contains(r.Reason, "package map Hooks, which is exported") {
		t.Errorf("RunHook's UNKNOWN does not name the map Hooks: %s", r.Reason)
	}
	if r := got["ApplyFlagged"]; r != nil && !strings.Contains(r.Reason, `package map flagged, which gets the key "chargeback" only on some paths of init at initops/initops.go:`) {
		t.Errorf("ApplyFlagged's UNKNOWN does not name the map flagged: %s", r.Reason)
	}
	if r := got["Apply"]; r != nil && r.Verdict == report.Unsafe {
		var text strings.Builder
		if err := report.WriteText(&text, &report.Report{Results: []*report.Result{r}}, report.Options{}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text.String(), "kind = \"chargeback\"") {
			t.Errorf("Apply's counterexample does not pick kind = \"chargeback\":\n%s", text.String())
		}
	}
}
