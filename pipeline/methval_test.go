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
