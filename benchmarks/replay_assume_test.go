package benchmarks_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReplayRefusesRowsBreakingAssumptions: a counterexample whose initial
// rows break what the check assumed of every initial row — the run's
// --assume facts, its other constraints — is not run: replay says so
// instead of REPRODUCED (independent tester adv19, insert-select-assume:
// replay seeded products.price = -1 against --assume "products.price >=
// 0" and said REPRODUCED). The report is the one dbverify check gave
// before the fix of that false UNSAFE (testdata/replay_breaks_assume.json),
// with the run's facts and constraints added as a report of the run
// gives them.
func TestReplayRefusesRowsBreakingAssumptions(t *testing.T) {
	recordInputs(t)
	needEngines(t)
	data, err := os.ReadFile(filepath.Join("testdata", "replay_breaks_assume.json"))
	if err != nil {
		t.Fatal(err)
	}
	schema := []string{"--schema", "trust/insertselect_later_write_safe/schema.sql"}
	for _, tc := range []struct{ name, add string }{
		{"--assume", `{"assume": ["products.price >= 0"]}`},
		{"other constraint", `{"results": [{"entry": "example.com/corpus/trust/insertselect_later_write_safe.AddLine", "constraint": "products.price >= 0", "verdict": "SAFE"}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "report.json")
			if err := os.WriteFile(path, mergeReport(t, data, tc.add), 0o644); err != nil {
				t.Fatal(err)
			}
			inv := replay(t, corpusDir(t), append(schema, path)...)
			out := string(inv.Stdout)
			if inv.ExitCode == 0 || !strings.Contains(out, "not run: the seeded rows break products.price >= 0") || strings.Contains(out, "    REPRODUCED") {
				t.Errorf("replay: exit %d, want the counterexample refused for its products row priced -1:\n%s\n%s", inv.ExitCode, out, inv.Stderr)
			}
		})
	}
}

// mergeReport adds add's "assume" and "results" to the JSON report data.
func mergeReport(t *testing.T, data []byte, add string) []byte {
	t.Helper()
	var rep, extra map[string]any
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(add), &extra); err != nil {
		t.Fatal(err)
	}
	if a, ok := extra["assume"]; ok {
		rep["assume"] = a
	}
	if rs, ok := extra["results"].([]any); ok {
		rep["results"] = append(rep["results"].([]any), rs...)
	}
	out, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
