package benchmarks_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestReplayCouldNotDrive replays (SQLite) the counterexamples of two
// real bugs whose entries the driver cannot run along the counterexample:
// a service whose *slog.Logger field the driver leaves without a handler
// ("panic: nil Handler" before the UPDATE), and an entry that returns an
// error when a call outside the analysed code, net.ParseIP, fails on the
// text the model chose ("0"; the model let it succeed). Replay must say
// it could not drive them, that the counterexample is not refuted, and
// exit 4 — never NOT REPRODUCED, which a user reads as "the finding is
// spurious" (the independent tester adv19: a zero fiber.Ctx, a nil
// logger, uuid.Parse of a timestamp).
// TestReplayNotReproduced keeps NOT REPRODUCED, exit 1, for a run that
// executed the SQL and kept the constraint.
func TestReplayCouldNotDrive(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a replay driver")
	}
	recordInputs(t)
	dir, err := filepath.Abs(filepath.Join("testdata", "readable"))
	if err != nil {
		t.Fatal(err)
	}
	schema := filepath.Join("round20", "schema.sql")
	report := unsafeReport(t, dir, "check", "--no-cache", "--format", "json", "--schema", schema, "-c", "accounts.credits >= 0", "./round20/nillogger", "./round20/ipgrant")
	inv := replay(t, dir, "--schema", schema, report)
	out := string(inv.Stdout)
	if inv.ExitCode != 4 {
		t.Errorf("replay: exit %d, want 4 (could not drive)\nstdout:\n%s\nstderr:\n%s", inv.ExitCode, out, inv.Stderr)
	}
	for _, want := range []string{
		"COULD NOT DRIVE: the entry panicked before its first SQL statement (panic: nil Handler;",
		"COULD NOT DRIVE: the entry returned an error before its first SQL statement (not an IP address;",
		"the counterexample is not refuted",
		"0 of 2 counterexample(s) reproduced, 2 could not be driven (not refuted)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("replay output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "NOT REPRODUCED") {
		t.Errorf("replay says NOT REPRODUCED for entries it could not drive:\n%s", out)
	}
}

// TestReplayFiber replays a fiber v2 handler's counterexample (SQLite):
// the driver serves the request through a fiber route with the path
// parameters and hands its Ctx to the entry, and the bug (the guard
// checks the client's quoted price, the UPDATE subtracts the plan's
// cost) reproduces. It was called with a zero fiber.Ctx, which panicked
// in c.Params (adv19's fiberplans: "NOT REPRODUCED").
func TestReplayFiber(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a replay driver")
	}
	recordInputs(t)
	dir, err := filepath.Abs(filepath.Join("testdata", "readable"))
	if err != nil {
		t.Fatal(err)
	}
	schema := filepath.Join("round20", "schema.sql")
	report := unsafeReport(t, dir, "check", "--no-cache", "--format", "json", "--schema", schema, "-c", "accounts.credits >= 0", "./round20/fiberplans")
	inv := replay(t, dir, "--schema", schema, report)
	if out := string(inv.Stdout); inv.ExitCode != 0 || !strings.Contains(out, "REPRODUCED: violated after the call") {
		t.Errorf("replay: exit %d, want 0 and the violation reproduced:\n%s\nstderr:\n%s", inv.ExitCode, out, inv.Stderr)
	}
}
