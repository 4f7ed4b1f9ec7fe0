package main

import (
	"bytes"
	"fmt"
	"html"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/dbverify/dbverify/benchmarks/harness"
)

// minTime is the floor of the log-scale time axis (seconds): a run
// faster than that is drawn at it.
const minTime = 1e-3

// The figure's geometry, in SVG user units (pixels).
const (
	panelW, panelH = 430.0, 380.0
	marginL        = 62.0
	marginR        = 14.0
	marginT        = 34.0
	marginB        = 46.0
)

var engineColors = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd"}

func engineColor(i int) string { return engineColors[i%len(engineColors)] }

// xy is one drawn point: x is the size, y the time in seconds.
type xy struct{ x, y float64 }

// series is what one engine contributes to one panel.
type series struct {
	engine   string
	color    string
	done     []xy
	timedOut []xy
}

// studyPanel gathers one study's series; ok is false when no engine
// finished or timed out at any size.
func studyPanel(rep *harness.ScalingReport, study string) (ss []series, ok bool) {
	limit := rep.Options.Timeout.Seconds()
	for i, eng := range rep.Options.Engines {
		s := series{engine: eng, color: engineColor(i)}
		for _, pt := range rep.Series(study, eng) {
			switch {
			case pt.Done():
				s.done = append(s.done, xy{float64(pt.X), max(pt.Verify.Seconds(), minTime)})
			case pt.TimedOut:
				s.timedOut = append(s.timedOut, xy{float64(pt.X), limit})
			}
		}
		if len(s.done)+len(s.timedOut) > 0 {
			ss = append(ss, s)
			ok = true
		}
	}
	return ss, ok
}

// drawPanel writes one panel at horizontal offset x0: verification time
// (log scale) against size, lines and dots for finished runs, crosses at
// the time limit for runs that timed out, and a legend at the top left.
func drawPanel(b *bytes.Buffer, x0 float64, title, xlabel string, ss []series, limit float64) {
	xlo, xhi := math.Inf(1), math.Inf(-1)
	ylo, yhi := math.Inf(1), math.Inf(-1)
	for _, s := range ss {
		for _, p := range append(append([]xy(nil), s.done...), s.timedOut...) {
			xlo, xhi = min(xlo, p.x), max(xhi, p.x)
			ylo, yhi = min(ylo, p.y), max(yhi, p.y)
		}
	}
	if xhi == xlo {
		xlo, xhi = xlo-1, xhi+1
	}
	// Decades around the data, with head room for the legend.
	dlo := math.Floor(math.Log10(ylo))
	dhi := math.Ceil(math.Log10(yhi)) + math.Ceil(float64(2*len(ss))/4)
	if dhi <= dlo {
		dhi = dlo + 1
	}
	pw, ph := panelW-marginL-marginR, panelH-marginT-marginB
	px := func(x float64) float64 { return x0 + marginL + (x-xlo)/(xhi-xlo)*pw }
	py := func(y float64) float64 { return marginT + ph - (math.Log10(y)-dlo)/(dhi-dlo)*ph }

	fmt.Fprintf(b, `<text x="%.1f" y="20" text-anchor="middle" font-size="13">%s</text>`+"\n", x0+marginL+pw/2, html.EscapeString(title))
	fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#000"/>`+"\n", x0+marginL, marginT, pw, ph)
	for d := dlo; d <= dhi; d++ {
		y := py(math.Pow(10, d))
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`+"\n", x0+marginL, y, x0+marginL+pw, y)
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="end" font-size="10">%s</text>`+"\n", x0+marginL-4, y+3, tickLabel(d))
	}
	for _, x := range xTicks(xlo, xhi) {
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`+"\n", px(x), marginT, px(x), marginT+ph)
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle" font-size="10">%g</text>`+"\n", px(x), marginT+ph+14, x)
	}
	fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle" font-size="11">%s</text>`+"\n", x0+marginL+pw/2, panelH-10, html.EscapeString(xlabel))
	fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle" font-size="11" transform="rotate(-90 %.1f %.1f)">verification time (s, log scale)</text>`+"\n",
		x0+16, marginT+ph/2, x0+16, marginT+ph/2)

	ly := marginT + 14
	for _, s := range ss {
		if len(s.done) > 0 {
			var pts []string
			for _, p := range s.done {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", px(p.x), py(p.y)))
			}
			fmt.Fprintf(b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="1.5"/>`+"\n", strings.Join(pts, " "), s.color)
			for _, p := range s.done {
				fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="2.5" fill="%s"/>`+"\n", px(p.x), py(p.y), s.color)
			}
			legend(b, x0+marginL+8, ly, s.color, false, s.engine)
			ly += 14
		}
		if len(s.timedOut) > 0 {
			for _, p := range s.timedOut {
				cross(b, px(p.x), py(p.y), s.color)
			}
			legend(b, x0+marginL+8, ly, s.color, true, fmt.Sprintf("%s timeout (%.0fs)", s.engine, limit))
			ly += 14
		}
	}
}

func legend(b *bytes.Buffer, x, y float64, color string, isCross bool, label string) {
	if isCross {
		cross(b, x+8, y-4, color)
	} else {
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="1.5"/>`+"\n", x, y-4, x+16, y-4, color)
		fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="2.5" fill="%s"/>`+"\n", x+8, y-4, color)
	}
	fmt.Fprintf(b, `<text x="%.1f" y="%.1f" font-size="10">%s</text>`+"\n", x+22, y, html.EscapeString(label))
}

func cross(b *bytes.Buffer, x, y float64, color string) {
	const r = 4.0
	fmt.Fprintf(b, `<path d="M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f" stroke="%s" stroke-width="1.5"/>`+"\n",
		x-r, y-r, x+r, y+r, x-r, y+r, x+r, y-r, color)
}

// tickLabel prints 10^d as a plain number (0.001, 1, 100).
func tickLabel(d float64) string {
	return fmt.Sprintf("%g", math.Pow(10, d))
}

// xTicks returns up to about six round whole-number ticks (sizes are
// counts) between lo and hi.
func xTicks(lo, hi float64) []float64 {
	step := max(1, math.Pow(10, math.Floor(math.Log10((hi-lo)/5))))
	for _, m := range []float64{1, 2, 5, 10} {
		if (hi-lo)/(step*m) <= 6 {
			step *= m
			break
		}
	}
	var out []float64
	for x := math.Ceil(lo/step) * step; x <= hi+step/1e6; x += step {
		out = append(out, x)
	}
	return out
}

// writePlot renders time vs N, time vs M and time vs D side by side into
// path, an SVG file (a study without a finished or timed-out run is left
// out). It needs no plotting library: the figure is a few lines, axes and
// labels.
func writePlot(path string, rep *harness.ScalingReport) error {
	if strings.ToLower(filepath.Ext(path)) != ".svg" {
		return fmt.Errorf("plot %s: want an .svg file", path)
	}
	type panel struct {
		title, x string
		ss       []series
	}
	var panels []panel
	for _, s := range []struct{ study, title, x string }{
		{harness.StudySequential, "N sequential guarded updates (2^N paths)", "N"},
		{harness.StudyEntries, "M entry points", "M"},
		{harness.StudyLoops, "loop nesting depth D", "D"},
	} {
		if ss, ok := studyPanel(rep, s.study); ok {
			panels = append(panels, panel{s.title, s.x, ss})
		}
	}
	if len(panels) == 0 {
		return fmt.Errorf("no finished scaling run to plot")
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif">`+"\n",
		panelW*float64(len(panels)), panelH, panelW*float64(len(panels)), panelH)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="#fff"/>`+"\n")
	for i, p := range panels {
		drawPanel(&b, float64(i)*panelW, p.title, p.x, p.ss, rep.Options.Timeout.Seconds())
	}
	b.WriteString("</svg>\n")
	return os.WriteFile(path, b.Bytes(), 0o644)
}
