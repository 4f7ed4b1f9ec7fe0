package main

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbverify/dbverify/benchmarks/harness"
)

func fakeScaling() *harness.ScalingReport {
	rep := &harness.ScalingReport{Options: harness.ScalingOptions{
		Engines: []string{harness.EngineFixpoint, harness.EnginePaths}, Timeout: time.Minute,
	}}
	add := func(study string, x int, eng string, verify time.Duration, timedOut bool, skipped string) {
		rep.Points = append(rep.Points, harness.ScalingPoint{
			Study: study, X: x, Engine: eng, Verify: verify, Wall: verify + time.Second,
			TimedOut: timedOut, Skipped: skipped, OK: true, Verdicts: "SAFE×1",
		})
	}
	for n := 2; n <= 6; n++ {
		add(harness.StudySequential, n, harness.EngineFixpoint, time.Duration(n)*10*time.Millisecond, false, "")
		switch {
		case n <= 4:
			add(harness.StudySequential, n, harness.EnginePaths, time.Duration(1<<uint(n))*10*time.Millisecond, false, "")
		case n == 5:
			add(harness.StudySequential, n, harness.EnginePaths, 0, true, "")
		default:
			add(harness.StudySequential, n, harness.EnginePaths, 0, false, "timed out at N = 5")
		}
	}
	for _, m := range []int{1, 2, 4} {
		add(harness.StudyEntries, m, harness.EngineFixpoint, time.Duration(m)*50*time.Millisecond, false, "")
		add(harness.StudyEntries, m, harness.EnginePaths, time.Duration(m)*60*time.Millisecond, false, "")
	}
	add(harness.StudyLoops, 1, harness.EngineFixpoint, 20*time.Millisecond, false, "")
	add(harness.StudyLoops, 1, harness.EnginePaths, 0, true, "")
	return rep
}

func TestWritePlot(t *testing.T) {
	rep := fakeScaling()
	dir := t.TempDir()
	svg := filepath.Join(dir, "scaling.svg")
	if err := writePlot(svg, rep); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	var root struct{ XMLName xml.Name }
	if err := xml.Unmarshal(data, &root); err != nil || root.XMLName.Local != "svg" {
		t.Fatalf("not an SVG document: %v, root %q", err, root.XMLName.Local)
	}
	for _, want := range []string{"fixpoint", "paths", "timeout"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("plot has no %q", want)
		}
	}
	// One polyline per finished series: fixpoint in all three studies,
	// paths in the N and M studies (its D run timed out).
	if n := strings.Count(string(data), "<polyline"); n != 5 {
		t.Errorf("%d polylines, want 5 (one per engine and study with a finished run)", n)
	}
	if err := writePlot(filepath.Join(dir, "scaling.png"), rep); err == nil {
		t.Error("writePlot accepted a .png")
	}
}

func TestResultsMarkdown(t *testing.T) {
	c := &harness.Case{Name: "core/x", Expect: []harness.Expectation{
		{Entry: "example.com/corpus/core/x.F", Constraint: "t.a >= 0", Verdict: harness.Safe, Final: harness.Safe},
		{Entry: "example.com/corpus/core/x.G", Constraint: "t.a >= 0", Verdict: harness.Unsafe, Final: harness.Unsafe},
	}}
	rep := &harness.Report{Results: []*harness.Result{
		{Entry: "example.com/corpus/core/x.F", Constraint: "t.a >= 0", Verdict: harness.Safe, Refinements: 2, Predicates: []string{"p|q"}},
		{Entry: "example.com/corpus/core/x.G", Constraint: "t.a >= 0", Verdict: harness.Unknown, Reason: "refinement limit"},
	}}
	runs := []*harness.CaseRun{{Case: c, Inv: &harness.Invocation{Wall: 3 * time.Second}, Report: rep, Outcomes: harness.Compare(c, rep), FrontendRef: time.Second}}
	totals := harness.Score(runs)
	doc := resultsMarkdown(resultsDoc{
		date: time.Date(2025, 1, 2, 3, 4, 0, 0, time.UTC), machine: machine{uname: "Linux 6 x86_64", cpu: "CPU", cores: 2, goVersion: "go1.26", z3: "libz3-dev 4.8"},
		runs: runs, totals: totals, scaling: fakeScaling(), plotLink: "scaling.svg",
	})
	for _, want := range []string{
		"2025-01-02", "Linux 6 x86_64", "CPU, 2 cores", "go1.26", "libz3-dev 4.8",
		"| core/x | F | t.a >= 0 | SAFE | SAFE |",
		"| core/x | G | t.a >= 0 | UNSAFE | UNKNOWN |", "refinement limit",
		"decided 50.0% (1 of 2)", "score 2 (max possible 3", "3.00×",
		"N = 5", "![verification time", "(scaling.svg)", "timeout (60s)",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("RESULTS.md lacks %q:\n%s", want, doc)
		}
	}
}
