package benchmarks_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestFieldClosureEntryNames: handlers built as a struct of closures
// (`return Handlers{Redeem: func(c echo.Context) error {…}, TopUp: …}`)
// are named by their field, closurehandlers.NewHandlers.Redeem, in the
// text, JSON and SARIF reports, never by go/ssa's number
// (NewHandlers$1: the independent tester adv19 could not tell which
// closure that was); --entry selects one by either name; replay finds
// it by its field name and calls it through the returned struct, and
// the counterexample reproduces.
func TestFieldClosureEntryNames(t *testing.T) {
	recordInputs(t)
	dir, err := filepath.Abs(filepath.Join("testdata", "readable"))
	if err != nil {
		t.Fatal(err)
	}
	schema := filepath.Join("round20", "schema.sql")
	args := []string{"check", "--no-cache", "--schema", schema, "-c", "accounts.credits >= 0"}
	for _, format := range []string{"text", "json", "sarif"} {
		inv := dbverify(t, dir, append(args, "--format", format, "./round20/closurehandlers")...)
		out := string(inv.Stdout)
		if inv.ExitCode != 1 || !strings.Contains(out, "closurehandlers.NewHandlers.Redeem") || strings.Contains(out, "NewHandlers$") {
			t.Errorf("--format %s: exit %d, want 1 and the entry named closurehandlers.NewHandlers.Redeem, no NewHandlers$n:\n%s", format, inv.ExitCode, out)
		}
	}
	for _, pattern := range []string{`NewHandlers\$1`, `NewHandlers\.Redeem$`, `Redeem`} {
		inv := dbverify(t, dir, append(args, "--entry", pattern, "./round20/closurehandlers")...)
		out := string(inv.Stdout)
		if !strings.Contains(out, "UNSAFE example.com/readable/round20/closurehandlers.NewHandlers.Redeem") || strings.Contains(out, "TopUp [") {
			t.Errorf("--entry %s: want only NewHandlers.Redeem checked:\n%s", pattern, out)
		}
	}
	if testing.Short() {
		return
	}
	report := unsafeReport(t, dir, append(args, "--format", "json", "./round20/closurehandlers")...)
	inv := replay(t, dir, "--schema", schema, report)
	if out := string(inv.Stdout); inv.ExitCode != 0 || !strings.Contains(out, "REPRODUCED: violated after the call") {
		t.Errorf("replay: exit %d, want 0 and the violation reproduced:\n%s\nstderr:\n%s", inv.ExitCode, out, inv.Stderr)
	}
}
