package main

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/dbverify/dbverify/benchmarks/harness"
)

// TestFitGrowth: the fit tells a linear series, a polynomial one and an
// exponential one apart, and skips an engine with too few decided sizes.
func TestFitGrowth(t *testing.T) {
	tests := []struct {
		name  string
		time  func(x float64) float64 // seconds
		shape string
		k     float64 // the exponent over all sizes (0: not checked)
	}{
		{"linear", func(x float64) float64 { return 0.01 * x }, "at most linear", 1},
		{"linear with a fixed cost", func(x float64) float64 { return 0.2 + 0.01*x }, "at most linear", 0},
		{"quadratic", func(x float64) float64 { return 0.02 * x * x }, "polynomial", 2},
		{"exponential", func(x float64) float64 { return 0.05 * math.Pow(2, x/8) }, "faster than any fixed power", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := &harness.ScalingReport{Options: harness.ScalingOptions{Engines: []string{harness.EngineLBE, harness.EnginePaths}}}
			for _, x := range []int{2, 4, 8, 16, 32, 64, 128, 200} {
				d := time.Duration(tt.time(float64(x)) * float64(time.Second))
				rep.Points = append(rep.Points, harness.ScalingPoint{Study: harness.StudySequential, X: x, Engine: harness.EngineLBE, Verify: d, OK: true})
			}
			rep.Points = append(rep.Points, harness.ScalingPoint{Study: harness.StudySequential, X: 2, Engine: harness.EnginePaths, Verify: time.Second, OK: true})
			gs := fitGrowth(rep)
			if len(gs) != 1 || gs[0].engine != harness.EngineLBE {
				t.Fatalf("fits %v, want one for lbe (paths has one size)", gs)
			}
			g := gs[0]
			if !strings.Contains(g.String(), tt.shape) {
				t.Errorf("%s", g)
			}
			if tt.k > 0 && math.Abs(g.all-tt.k) > 0.15 {
				t.Errorf("exponent %.2f, want %.1f (%s)", g.all, tt.k, g)
			}
		})
	}
}
