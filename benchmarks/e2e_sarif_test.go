package benchmarks_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/benchmarks/harness"
)

// TestSARIF checks that --format sarif is SARIF 2.1.0 JSON with one error
// result per UNSAFE verdict of the same run in JSON.
func TestSARIF(t *testing.T) {
	recordInputs(t)
	dir := badDir(t, "good")
	c, err := harness.ReadCase(dir, "testdata/bad/good")
	if err != nil {
		t.Fatal(err)
	}
	rep := checkCase(t, c)
	unsafe := 0
	for _, r := range rep.Results {
		if r.Verdict == harness.Unsafe {
			unsafe++
		}
	}
	if unsafe == 0 {
		t.Fatal("no UNSAFE result to report in SARIF")
	}
	args := append([]string{"check", "--format", "sarif"}, c.Args...)
	inv := dbverify(t, dir, append(args, "./...")...)
	if inv.ExitCode != 1 {
		t.Errorf("exit code %d with an UNSAFE result, want 1\nstderr:\n%s", inv.ExitCode, inv.Stderr)
	}
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Results []struct {
				RuleID    string                `json:"ruleId"`
				Level     string                `json:"level"`
				Message   struct{ Text string } `json:"message"`
				Locations []json.RawMessage     `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(inv.Stdout, &log); err != nil {
		t.Fatalf("SARIF output is not JSON: %v\n%s", err, inv.Stdout)
	}
	if log.Version != "2.1.0" {
		t.Errorf("SARIF version %q, want 2.1.0", log.Version)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("%d SARIF runs, want 1", len(log.Runs))
	}
	errors := 0
	for _, r := range log.Runs[0].Results {
		if r.Level == "error" {
			errors++
			if r.RuleID == "" || r.Message.Text == "" || len(r.Locations) == 0 {
				t.Errorf("SARIF error result lacks a rule, message or location: %+v", r)
			}
		}
	}
	if errors != unsafe {
		t.Errorf("%d SARIF error results, want one per UNSAFE verdict (%d)\n%s", errors, unsafe, inv.Stdout)
	}
}

// TestSARIFGitHubRules validates the SARIF of an UNSAFE run, an UNKNOWN
// run and a failed run with Microsoft's SARIF validator and its GitHub
// code-scanning ingestion rules (`make deps` installs it), and checks what
// GitHub shows: the alert on the entry point, the concrete run in its
// message, a fingerprint, a valid log with executionSuccessful=false when
// the run fails.
func TestSARIFGitHubRules(t *testing.T) {
	recordInputs(t)
	tool := os.Getenv("SARIF_MULTITOOL")
	if tool == "" {
		tool = filepath.Join("..", "bin", "tools", "node_modules", "@microsoft", "sarif-multitool-linux", "Sarif.Multitool")
	}
	if _, err := os.Stat(tool); err != nil {
		t.Fatalf("the SARIF validator is not installed (%v): run make deps", err)
	}
	type sarifLog struct {
		Runs []struct {
			Invocations []struct {
				ExecutionSuccessful bool `json:"executionSuccessful"`
			} `json:"invocations"`
			Results []struct {
				RuleID    string                `json:"ruleId"`
				Message   struct{ Text string } `json:"message"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI       string `json:"uri"`
							URIBaseID string `json:"uriBaseId"`
						} `json:"artifactLocation"`
						Region struct{ StartLine int } `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
				PartialFingerprints map[string]string `json:"partialFingerprints"`
			} `json:"results"`
		} `json:"runs"`
	}
	validate := func(t *testing.T, out []byte) sarifLog {
		t.Helper()
		file := filepath.Join(t.TempDir(), "out.sarif")
		if err := os.WriteFile(file, out, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(tool, "validate", "--rule-kind", "Sarif;Gh", "--log", "ForceOverwrite", "-o", file+".val", file)
		msg, err := cmd.CombinedOutput()
		if err != nil || regexp.MustCompile(`(?m)\b(error|warning) (SARIF|GH)\d+`).Match(msg) {
			t.Errorf("validator (%v):\n%s", err, msg)
		}
		var log sarifLog
		if err := json.Unmarshal(out, &log); err != nil || len(log.Runs) != 1 {
			t.Fatalf("not a SARIF log with one run (%v):\n%s", err, out)
		}
		return log
	}
	t.Run("UNSAFE", func(t *testing.T) {
		dir := badDir(t, "good")
		inv := dbverify(t, dir, "check", "--format", "sarif", "--constraint", "accounts.balance >= 0", "./...")
		log := validate(t, inv.Stdout)
		entry := lineOf(t, filepath.Join(dir, "good.go"), "func Withdraw(")
		found := false
		for _, r := range log.Runs[0].Results {
			if r.RuleID != "DBV001" {
				continue
			}
			found = true
			loc := r.Locations[0].PhysicalLocation
			if loc.ArtifactLocation.URI != "benchmarks/testdata/bad/good/good.go" || loc.ArtifactLocation.URIBaseID != "%SRCROOT%" || loc.Region.StartLine != entry {
				t.Errorf("primary location %+v, want the entry point benchmarks/testdata/bad/good/good.go:%d relative to the repository root", loc, entry)
			}
			if !strings.Contains(r.Message.Text, "when called with") || !strings.Contains(r.Message.Text, "amt = ") {
				t.Errorf("message does not give the concrete run: %s", r.Message.Text)
			}
			if r.PartialFingerprints["dbverify/v1"] == "" {
				t.Error("no partialFingerprints")
			}
		}
		if !found {
			t.Fatalf("no DBV001 result:\n%s", inv.Stdout)
		}
	})
	t.Run("UNKNOWN", func(t *testing.T) {
		inv := dbverify(t, badDir(t, "badsql"), "check", "--format", "sarif", "--constraint", "accounts.balance >= 0", "./...")
		log := validate(t, inv.Stdout)
		if len(log.Runs[0].Results) == 0 || log.Runs[0].Results[0].RuleID != "DBV002" || len(log.Runs[0].Results[0].Locations) == 0 {
			t.Errorf("want a DBV002 result with a location:\n%s", inv.Stdout)
		}
	})
	t.Run("failed run", func(t *testing.T) {
		inv := dbverify(t, badDir(t, "nocompile"), "check", "--format", "sarif", "--constraint", "accounts.balance >= 0", "./...")
		if inv.ExitCode != 2 {
			t.Errorf("exit code %d, want 2", inv.ExitCode)
		}
		log := validate(t, inv.Stdout)
		if invs := log.Runs[0].Invocations; len(invs) != 1 || invs[0].ExecutionSuccessful {
			t.Errorf("want one invocation with executionSuccessful=false:\n%s", inv.Stdout)
		}
	})
}
