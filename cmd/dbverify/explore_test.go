package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestExploreFrames drives the explorer with keys and compares the frames
// it draws with testdata/explore-*.golden (-update rewrites them): the
// first UNSAFE result opened, steps walked with n, the result list, help.
func TestExploreFrames(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "bank.report.json"))
	if err != nil {
		t.Fatal(err)
	}
	results, err := readExploreReport(data)
	if err != nil {
		t.Fatal(err)
	}
	key := func(s string) tea.Msg {
		switch s {
		case "tab":
			return tea.KeyMsg{Type: tea.KeyTab}
		case "down":
			return tea.KeyMsg{Type: tea.KeyDown}
		}
		return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
	}
	for _, tt := range []struct {
		name string
		keys []string
		want []string // substrings of the frame
	}{
		{"start", nil, []string{"UNSAFE example.com/bank.Withdraw", "▶ 1 call", "step 1/6  bank.go:23", "▶ 23  func Withdraw"}},
		{"steps", []string{"tab", "n", "n", "n", "n", "n"}, []string{"▶ 6 sql", "step 6/6  bank.go:34", "⇒ err = false, r.balance = -1", "bal = 1", "violation: accounts row balance = -1, id = 3"}},
		{"results", []string{"k"}, []string{"UNKNOWN example.com/bank.Adjust", "SQL text is not a compile-time", "▶ 40"}},
		{"help", []string{"?"}, []string{"dbverify explore — keys", "tab          switch"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := newExploreModel(results, filepath.Join("testdata", "bank"))
			var model tea.Model = m
			model, _ = model.Update(tea.WindowSizeMsg{Width: 120, Height: 34})
			for _, k := range tt.keys {
				model, _ = model.Update(key(k))
			}
			frame := model.View()
			for _, w := range tt.want {
				if !strings.Contains(frame, w) {
					t.Errorf("frame has no %q:\n%s", w, frame)
				}
			}
			file := filepath.Join("testdata", "explore-"+tt.name+".golden")
			if *update {
				if err := os.WriteFile(file, []byte(frame), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (go test ./cmd/dbverify -update)", err)
			}
			if frame != string(want) {
				t.Errorf("frame differs from %s:\n%s", file, frame)
			}
		})
	}
}

// TestExploreSARIFAndPlain checks that a SARIF log is read with its code
// flow as steps, and that without a terminal every result is printed.
func TestExploreSARIFAndPlain(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "bank.report.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	results, err := readExploreReport(data)
	if err != nil {
		t.Fatal(err)
	}
	var unsafe *exploreResult
	for i := range results {
		if results[i].Verdict == "UNSAFE" {
			unsafe = &results[i]
		}
	}
	if unsafe == nil || len(unsafe.Steps) != 7 || unsafe.Steps[6].Kind != "sql" || !strings.Contains(unsafe.Steps[6].Values, "r.balance = -1") {
		t.Fatalf("SARIF result not read with its 7 steps and values: %+v", unsafe)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"dbverify", "explore", "testdata/bank.report.json"}, &out, &errOut); code != exitSafe {
		t.Fatalf("exit code %d: %s", code, errOut.String())
	}
	for _, w := range []string{"[0] UNKNOWN example.com/bank.Adjust", "[1] UNSAFE example.com/bank.Withdraw", " 6 bank.go:34 sql: UPDATE accounts", "violation: accounts row balance = -1"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("plain output has no %q:\n%s", w, out.String())
		}
	}
}

// TestExploreNotes checks that the explorer shows what the text report
// says beside a counterexample: checked on testdata/bank without a schema
// (each result assumes accounts.id is a key), the report made by the
// real pipeline, the frames drawn after keys. The assumption shows under
// the step line at the first and the last step, not on the page of the
// UNKNOWN (which assumes nothing), and in the plain listing.
func TestExploreNotes(t *testing.T) {
	var out, errOut bytes.Buffer
	args := []string{"dbverify", "check", "-C", "testdata/bank", "--no-cache", "--format", "json", "-c", "accounts.balance >= 0", "./..."}
	if code := run(args, &out, &errOut); code != exitUnsafe {
		t.Fatalf("exit code %d, want %d\n%s", code, exitUnsafe, errOut.String())
	}
	results, err := readExploreReport(out.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	const assumption = "assuming accounts.id is a unique key"
	for _, tt := range []struct {
		name string
		keys []string
		want []string
	}{
		{"first step", nil, []string{"step 1/6  bank.go:23", assumption}},
		{"last step", []string{"G"}, []string{"step 6/6  bank.go:34", assumption, "violation: accounts row balance = -1"}},
		{"other result", []string{"k"}, []string{"UNKNOWN example.com/bank.Adjust", "SQL text is not a compile-time"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var model tea.Model = newExploreModel(results, filepath.Join("testdata", "bank"))
			model, _ = model.Update(tea.WindowSizeMsg{Width: 120, Height: 34})
			for _, k := range tt.keys {
				model, _ = model.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)})
			}
			frame := model.View()
			for _, w := range tt.want {
				// (the note wraps: compared with spaces collapsed)
				if !strings.Contains(strings.Join(strings.Fields(frame), " "), strings.Join(strings.Fields(w), " ")) {
					t.Errorf("frame has no %q:\n%s", w, frame)
				}
			}
			if onUnknown := strings.Contains(frame, "UNKNOWN example.com/bank.Adjust ["); onUnknown == strings.Contains(frame, assumption) {
				t.Errorf("the assumption shows on the UNKNOWN's page, or not on the UNSAFE's:\n%s", frame)
			}
		})
	}
	var plain bytes.Buffer
	writeExplorePlain(&plain, newExploreModel(results, filepath.Join("testdata", "bank")))
	if !strings.Contains(plain.String(), "\n  "+assumption) {
		t.Errorf("plain listing has no %q line:\n%s", assumption, plain.String())
	}
}
