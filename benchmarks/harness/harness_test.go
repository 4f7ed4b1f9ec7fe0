package harness

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestGrade(t *testing.T) {
	safe := Expectation{Verdict: Safe, Final: Safe}
	unsafe := Expectation{Verdict: Unsafe, Final: Unsafe}
	unknownSafe := Expectation{Verdict: Unknown, Final: Safe}
	unknownUnsafe := Expectation{Verdict: Unknown, Final: Unsafe}
	tests := []struct {
		name     string
		e        Expectation
		got      string
		status   Status
		points   int
		improved bool
	}{
		{"correct SAFE", safe, Safe, StatusCorrect, 2, false},
		{"correct UNSAFE", unsafe, Unsafe, StatusCorrect, 1, false},
		{"wrong SAFE", unsafe, Safe, StatusWrong, -32, false},
		{"wrong UNSAFE", safe, Unsafe, StatusWrong, -16, false},
		{"undecided SAFE", safe, Unknown, StatusUndecided, 0, false},
		{"undecided UNSAFE", unsafe, Unknown, StatusUndecided, 0, false},
		{"UNKNOWN as expected", unknownSafe, Unknown, StatusCorrect, 0, false},
		{"improved SAFE", unknownSafe, Safe, StatusCorrect, 2, true},
		{"improved UNSAFE", unknownUnsafe, Unsafe, StatusCorrect, 1, true},
		{"UNKNOWN today, wrong SAFE", unknownUnsafe, Safe, StatusWrong, -32, false},
		{"UNKNOWN today, wrong UNSAFE", unknownSafe, Unsafe, StatusWrong, -16, false},
		{"final omitted", Expectation{Verdict: Safe}, Safe, StatusCorrect, 2, false},
		{"garbage verdict", safe, "MAYBE", StatusError, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, p, imp := Grade(tt.e, tt.got)
			if s != tt.status || p != tt.points || imp != tt.improved {
				t.Errorf("Grade(%s/%s, %s) = %s, %d, %v; want %s, %d, %v",
					tt.e.Verdict, tt.e.Final, tt.got, s, p, imp, tt.status, tt.points, tt.improved)
			}
		})
	}
}

func testCase() *Case {
	return &Case{
		Name: "x/y",
		Expect: []Expectation{
			{Entry: "m/x/y.A", Constraint: "t.a >= 0", Verdict: Safe, Final: Safe, PredicatesContain: []string{"a >="}},
			{Entry: "m/x/y.B", Constraint: "t.a >= 0", Verdict: Unsafe, Final: Unsafe, TraceContains: []string{"UPDATE t SET a = a - ?", `"amt"`, "a >= 0"}},
			{Entry: "m/x/y.C", Constraint: "t.a >= 0", Verdict: Unknown, Final: Safe},
			{Entry: "m/x/y.D", Constraint: "t.a >= 0", Verdict: Safe, Final: Safe},
		},
	}
}

const goodCex = `{"inputs":{"amt":"5"},"rows":[{"symbol":"r","table":"t","values":{"a":"0"}}],
 "steps":[{"position":"y.go:3","kind":"sql","text":"UPDATE t SET a = a - ? WHERE id = ? AND a \u003e= 0","values":{}}],
 "violation":{"table":"t","values":{"a":"-5"}}}`

// cex decodes a counterexample as ParseReport does ("null" is none).
func cex(text string) *Counterexample {
	var c *Counterexample
	if err := json.Unmarshal([]byte(text), &c); err != nil {
		panic(err)
	}
	return c
}

func TestCompare(t *testing.T) {
	c := testCase()
	rep := &Report{Results: []*Result{
		{Entry: "m/x/y.A", Constraint: "t.a>=0", Verdict: Safe, Predicates: []string{"r.a >= 0"}, Refinements: 3, SMTQueries: 9, Seconds: 0.5},
		{Entry: "m/x/y.B", Constraint: " t.a  >= 0 ", Verdict: Unsafe, Counterexample: cex(goodCex)},
		{Entry: "m/x/y.C", Constraint: "t.a >= 0", Verdict: Safe},
		{Entry: "m/x/y.E", Constraint: "t.a >= 0", Verdict: Safe},
		{Entry: "m/x/y.A", Constraint: "t.a >= 0", Verdict: Safe},
	}}
	out := Compare(c, rep)
	if len(out) != 6 {
		t.Fatalf("%d outcomes, want 6: %+v", len(out), out)
	}
	want := []struct {
		status   Status
		points   int
		improved bool
	}{
		{StatusCorrect, 2, false},
		{StatusCorrect, 1, false},
		{StatusCorrect, 2, true},
		{StatusMissing, 0, false},
		{StatusUnexpected, 0, false}, // E
		{StatusUnexpected, 0, false}, // second A
	}
	for i, w := range want {
		o := out[i]
		if o.Status != w.status || o.Points != w.points || o.Improved != w.improved {
			t.Errorf("outcome %d (%s): %s %d %v, want %s %d %v", i, o.Entry, o.Status, o.Points, o.Improved, w.status, w.points, w.improved)
		}
		if len(o.CheckFailures) > 0 {
			t.Errorf("outcome %d (%s): unexpected check failures %q", i, o.Entry, o.CheckFailures)
		}
	}
	if out[0].Refinements != 3 || out[0].SMTQueries != 9 || out[0].Predicates != 1 || out[0].Seconds != 0.5 {
		t.Errorf("statistics not copied: %+v", out[0])
	}
	if !strings.Contains(out[5].Reason, "duplicate") {
		t.Errorf("second result for A: reason %q, want a duplicate", out[5].Reason)
	}
	tot := Score([]*CaseRun{{Case: c, Outcomes: out}})
	if tot.Score != 5 || tot.Correct != 3 || tot.Improved != 1 || tot.Missing != 1 || tot.Unexpected != 2 ||
		tot.Expectations != 4 || tot.Decided != 3 || tot.MaxScore != 7 || tot.MaxScoreToday != 5 || !tot.Failed() {
		t.Errorf("Score = %+v", tot)
	}
}

func TestCheckResult(t *testing.T) {
	c := testCase()
	unsafeExp := c.Expect[1]
	tests := []struct {
		name string
		r    Result
		e    Expectation
		want []string // substrings of the failures, in order
	}{
		{"complete counterexample", Result{Verdict: Unsafe, Counterexample: cex(goodCex)}, unsafeExp, nil},
		{"no counterexample", Result{Verdict: Unsafe}, unsafeExp, []string{"without a counterexample", "UPDATE t SET", "amt", "a >= 0"}},
		{"null counterexample", Result{Verdict: Unsafe, Counterexample: cex("null")}, unsafeExp, []string{"without a counterexample", "UPDATE t SET", "amt", "a >= 0"}},
		{"empty steps and violation", Result{Verdict: Unsafe, Counterexample: cex(`{"inputs":{"amt":"1"},"steps":[],"violation":{"table":"","values":{}}}`)},
			Expectation{Verdict: Unsafe}, []string{"no steps", "no violation row"}},
		{"no inputs", Result{Verdict: Unsafe, Counterexample: cex(`{"steps":[{"kind":"sql"}],"violation":{"table":"t","values":{"a":"-1"}}}`)},
			Expectation{Verdict: Unsafe}, []string{"no inputs"}},
		{"predicate found", Result{Verdict: Safe, Predicates: []string{"x", "r.a >= 0"}}, c.Expect[0], nil},
		{"predicate missing", Result{Verdict: Safe, Predicates: []string{"r.a > 0"}}, c.Expect[0], []string{`"a >="`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := CheckResult(tt.e, &tt.r)
			if len(got) != len(tt.want) {
				t.Fatalf("failures %q, want %d matching %q", got, len(tt.want), tt.want)
			}
			for i := range got {
				if !strings.Contains(got[i], tt.want[i]) {
					t.Errorf("failure %d = %q, want it to contain %q", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestParseReport(t *testing.T) {
	good := `{"results":[{"entry":"m.F","constraint":"t.a >= 0","verdict":"SAFE","reason":"","position":"","refinements":1,"predicates":["p"],"smt_queries":2,"seconds":0.1}],"stats":{"entries":1,"safe":1,"smt_queries":2,"seconds":0.3,"frontend_seconds":0.2}}` + "\n"
	rep, err := ParseReport([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 || rep.Results[0].Verdict != Safe || rep.Stats.FrontendSeconds != 0.2 {
		t.Errorf("parsed %+v", rep)
	}
	for name, bad := range map[string]string{
		"two objects":   good + good,
		"trailing text": good + "done\n",
		"not JSON":      "SAFE\n",
		"no results":    `{"stats":{}}`,
		"no stats":      `{"results":[]}`,
		"bad verdict":   strings.Replace(good, `"SAFE"`, `"PROVED"`, 1),
		"empty":         "",
	} {
		if _, err := ParseReport([]byte(bad)); err == nil {
			t.Errorf("%s: ParseReport accepted %q", name, bad)
		}
	}
}

func TestEvaluate(t *testing.T) {
	c := &Case{Name: "x", Expect: []Expectation{{Entry: "m.F", Constraint: "t.a >= 0", Verdict: Unsafe, Final: Unsafe}}}
	out := `{"results":[{"entry":"m.F","constraint":"t.a >= 0","verdict":"UNSAFE","counterexample":` + goodCex + `}],"stats":{}}`
	t.Run("consistent", func(t *testing.T) {
		r := Evaluate(c, &Invocation{ExitCode: 1, Stdout: []byte(out)})
		if r.Failed() || len(r.Outcomes) != 1 || r.Outcomes[0].Status != StatusCorrect {
			t.Errorf("run %+v", r)
		}
	})
	t.Run("exit code contradicts the verdicts", func(t *testing.T) {
		r := Evaluate(c, &Invocation{ExitCode: 0, Stdout: []byte(out)})
		if !r.Failed() || len(r.Problems) != 1 || !strings.Contains(r.Problems[0], "exit code 0") {
			t.Errorf("problems %q", r.Problems)
		}
	})
	t.Run("usage error", func(t *testing.T) {
		r := Evaluate(c, &Invocation{ExitCode: 2, Stderr: []byte("dbverify: x.go:3: boom\n")})
		if !r.Failed() || r.Outcomes[0].Status != StatusError || !strings.Contains(r.Outcomes[0].Reason, "x.go:3: boom") {
			t.Errorf("run %+v", r)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		r := Evaluate(c, &Invocation{ExitCode: -1, TimedOut: true, Wall: time.Minute})
		if !r.Failed() || r.Outcomes[0].Status != StatusError || !strings.Contains(r.Outcomes[0].Reason, "timeout") {
			t.Errorf("run %+v", r)
		}
	})
}

func TestCexTextUnescapes(t *testing.T) {
	r := Result{Counterexample: cex(goodCex)}
	found := false
	for _, s := range CexText(&r) {
		if strings.Contains(s, "a >= 0") {
			found = true
		}
	}
	if !found {
		t.Errorf("CexText %q lacks the unescaped \"a >= 0\"", CexText(&r))
	}
}

func TestShortEntry(t *testing.T) {
	for in, want := range map[string]string{
		"example.com/corpus/core/atm_safe.Withdraw":            "Withdraw",
		"example.com/corpus/bank/transfer_unsafe.(*Store).Pay": "(*Store).Pay",
		"main.F": "F",
		"F":      "F",
	} {
		if got := ShortEntry(in); got != want {
			t.Errorf("ShortEntry(%q) = %q, want %q", in, got, want)
		}
	}
}

func writeCase(t *testing.T, dir, body string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ExpectFile), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadCases(t *testing.T) {
	root := t.TempDir()
	ok := `{"description":"d","args":["--constraint","t.a >= 0"],"fast":true,"expect":[{"entry":"m.F","constraint":"t.a >= 0","verdict":"UNKNOWN","final":"SAFE","why":"w","trace_contains":[],"predicates_contain":[]}]}`
	writeCase(t, filepath.Join(root, "b", "two"), ok)
	writeCase(t, filepath.Join(root, "a", "one"), ok)
	writeCase(t, filepath.Join(root, "a", "testdata", "skipped"), "not JSON")
	cases, err := LoadCases(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 2 || cases[0].Name != "a/one" || cases[1].Name != "b/two" {
		t.Fatalf("cases %+v", cases)
	}
	if c := cases[0]; !c.Fast || len(c.Args) != 2 || c.Expect[0].FinalVerdict() != Safe || c.Dir != filepath.Join(root, "a", "one") {
		t.Errorf("case %+v", c)
	}
	for name, body := range map[string]string{
		"unknown field":          strings.Replace(ok, `"fast"`, `"fastest"`, 1),
		"bad verdict":            strings.Replace(ok, `"UNKNOWN"`, `"MAYBE"`, 1),
		"UNKNOWN without final":  strings.Replace(ok, `"final":"SAFE"`, `"final":""`, 1),
		"verdict differs final":  strings.Replace(ok, `"UNKNOWN"`, `"UNSAFE"`, 1),
		"no expectations":        `{"description":"d","args":[],"fast":false,"expect":[]}`,
		"duplicate expectations": strings.Replace(ok, `"expect":[{`, `"expect":[{"entry":"m.F","constraint":"t.a>=0","verdict":"SAFE"},{`, 1),
	} {
		dir := filepath.Join(t.TempDir(), "c")
		writeCase(t, dir, body)
		if _, err := LoadCases(filepath.Dir(dir)); err == nil {
			t.Errorf("%s: LoadCases accepted %s", name, body)
		}
	}
}

// TestCorpusWellFormed reads the real corpus: every expect.json parses and
// validates, and every case directory holds Go files.
func TestCorpusWellFormed(t *testing.T) {
	cases, err := LoadCases(filepath.Join("..", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	fast := 0
	for _, c := range cases {
		if c.Fast {
			fast++
		}
		gofiles, _ := filepath.Glob(filepath.Join(c.Dir, "*.go"))
		if len(gofiles) == 0 {
			t.Errorf("%s: no Go files", c.Name)
		}
		if len(c.Args) == 0 {
			t.Errorf("%s: no args", c.Name)
		}
	}
	if fast == 0 {
		t.Error("no fast case")
	}
}

func TestCrossover(t *testing.T) {
	pt := func(x int, eng string, verify time.Duration, timedOut bool) ScalingPoint {
		return ScalingPoint{Study: StudySequential, X: x, Engine: eng, Verify: verify, TimedOut: timedOut, OK: true}
	}
	rep := &ScalingReport{Options: ScalingOptions{Timeout: time.Minute}, Points: []ScalingPoint{
		pt(2, EngineFixpoint, 100*time.Millisecond, false), pt(2, EnginePaths, 200*time.Millisecond, false),
		pt(3, EngineFixpoint, 100*time.Millisecond, false), pt(3, EnginePaths, time.Second, false),
		pt(4, EngineFixpoint, 100*time.Millisecond, false), pt(4, EnginePaths, 1100*time.Millisecond, false),
	}}
	if n, ok := rep.Crossover(10); !ok || n != 4 {
		t.Errorf("Crossover = %d, %v; want 4, true", n, ok)
	}
	rep.Points = rep.Points[:4]
	if n, ok := rep.Crossover(10); ok {
		t.Errorf("Crossover = %d, true; want none", n)
	}
	if n, ratio, bound, ok := rep.MaxRatio(); !ok || n != 3 || bound || ratio < 9.99 || ratio > 10.01 {
		t.Errorf("MaxRatio = %d, %v, %v, %v; want 3, 10, false, true", n, ratio, bound, ok)
	}
	rep.Points = append(rep.Points, pt(5, EngineFixpoint, time.Second, false), pt(5, EnginePaths, 0, true))
	if n, ok := rep.Crossover(10); !ok || n != 5 {
		t.Errorf("with a paths timeout: Crossover = %d, %v; want 5, true", n, ok)
	}
	if n, ratio, bound, ok := rep.MaxRatio(); !ok || n != 5 || !bound || ratio != 60 {
		t.Errorf("with a paths timeout: MaxRatio = %d, %v, %v, %v; want 5, 60, true, true", n, ratio, bound, ok)
	}
}
