package main

import (
	"fmt"
	"math"

	"github.com/dbverify/dbverify/benchmarks/harness"
)

// minFitTime is the smallest verification time a growth fit uses
// (seconds): below it the timer's noise and fixed costs dominate.
const minFitTime = 0.05

// growth is how one engine's verification time grows along one study:
// the exponent k of time ∝ x^k, fitted by least squares on log-log over
// the decided sizes (all) and over their larger half (upper). A
// polynomial keeps k about the same on the larger half; an exponential
// makes it grow with the sizes.
type growth struct {
	study, engine string
	from, to, mid int // the decided sizes fitted; the larger half starts at mid
	all, upper    float64
	points        int
}

// fitGrowth fits the growth of every engine in every study of rep with
// at least three decided sizes above minFitTime.
func fitGrowth(rep *harness.ScalingReport) []growth {
	var out []growth
	for _, study := range []string{harness.StudySequential, harness.StudyEntries, harness.StudyLoops} {
		for _, eng := range rep.Options.Engines {
			var xs, ys []float64
			for _, p := range rep.Series(study, eng) {
				if p.Done() && p.OK && p.Verify.Seconds() >= minFitTime {
					xs, ys = append(xs, math.Log(float64(p.X))), append(ys, math.Log(p.Verify.Seconds()))
				}
			}
			if len(xs) < 3 {
				continue
			}
			h := len(xs) / 2
			out = append(out, growth{
				study: study, engine: eng, points: len(xs),
				from: int(math.Round(math.Exp(xs[0]))), to: int(math.Round(math.Exp(xs[len(xs)-1]))), mid: int(math.Round(math.Exp(xs[h]))),
				all: slope(xs, ys), upper: slope(xs[h:], ys[h:]),
			})
		}
	}
	return out
}

// slope is the least-squares slope of ys against xs (0 for fewer than two
// distinct xs).
func slope(xs, ys []float64) float64 {
	n := float64(len(xs))
	var sx, sy, sxx, sxy float64
	for i := range xs {
		sx, sy = sx+xs[i], sy+ys[i]
		sxx, sxy = sxx+xs[i]*xs[i], sxy+xs[i]*ys[i]
	}
	d := n*sxx - sx*sx
	if d == 0 {
		return 0
	}
	return (n*sxy - sx*sy) / d
}

// String says the fit in words, with a verdict on the shape: at most
// linear (k at most 1.3 on all and on the larger half: fixed costs make
// a linear series look sublinear), polynomial (k on the larger half at
// most 1.5 above the whole's), else faster than any fixed power in the
// measured range.
func (g growth) String() string {
	shape := "faster than any fixed power in this range (the exponent grows with the size)"
	switch {
	case g.all <= 1.3 && g.upper <= 1.3:
		shape = "at most linear"
	case g.upper <= g.all+1.5:
		shape = fmt.Sprintf("polynomial (about %s^%.1f)", g.study, max(g.all, g.upper))
	}
	return fmt.Sprintf("%s engine, time vs %s: verify time ∝ %s^%.2f over the %d decided sizes %d…%d, %s^%.2f over %d…%d: %s",
		g.engine, g.study, g.study, g.all, g.points, g.from, g.to, g.study, g.upper, g.mid, g.to, shape)
}
