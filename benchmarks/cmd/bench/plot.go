package main

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/dbverify/dbverify/benchmarks/harness"
)

// minTime is the floor of the log-scale time axis (seconds): a run
// faster than that is drawn at it.
const minTime = 1e-3

func engineColor(i int) color.Color {
	palette := []color.Color{
		color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff},
		color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff},
		color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff},
	}
	return palette[i%len(palette)]
}

// studyPlot draws verification time against size for every engine, with
// timeouts as crosses at the time limit.
func studyPlot(rep *harness.ScalingReport, study, title, xlabel string) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	p.Y.Label.Text = "verification time (s, log scale)"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Legend.Top = true
	p.Legend.Left = true
	limit := rep.Options.Timeout.Seconds()
	drawn := false
	entries := 0
	for i, eng := range rep.Options.Engines {
		var done, timedOut plotter.XYs
		for _, pt := range rep.Series(study, eng) {
			switch {
			case pt.Done():
				done = append(done, plotter.XY{X: float64(pt.X), Y: max(pt.Verify.Seconds(), minTime)})
			case pt.TimedOut:
				timedOut = append(timedOut, plotter.XY{X: float64(pt.X), Y: limit})
			}
		}
		c := engineColor(i)
		if len(done) > 0 {
			line, points, err := plotter.NewLinePoints(done)
			if err != nil {
				return nil, err
			}
			line.Color = c
			line.Width = vg.Points(1.5)
			points.Color = c
			points.Shape = draw.CircleGlyph{}
			p.Add(line, points)
			p.Legend.Add(eng, line, points)
			entries++
			drawn = true
		}
		if len(timedOut) > 0 {
			sc, err := plotter.NewScatter(timedOut)
			if err != nil {
				return nil, err
			}
			sc.Color = c
			sc.Shape = draw.CrossGlyph{}
			sc.Radius = vg.Points(5)
			p.Add(sc)
			p.Legend.Add(fmt.Sprintf("%s timeout (%.0fs)", eng, limit), sc)
			entries++
			drawn = true
		}
	}
	if !drawn {
		return nil, fmt.Errorf("no finished run in study %s", study)
	}
	// Head room above the highest point for the legend (top left).
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, pt := range rep.Points {
		if pt.Study != study {
			continue
		}
		var y float64
		switch {
		case pt.Done():
			y = max(pt.Verify.Seconds(), minTime)
		case pt.TimedOut:
			y = limit
		default:
			continue
		}
		lo, hi = min(lo, y), max(hi, y)
	}
	// The legend takes about legendShare of the height; widen the axis
	// so that the points stay below it.
	logLo := math.Log10(lo / 2)
	span := max(math.Log10(hi)-logLo, 1)
	legendShare := 0.08 + 0.07*float64(entries)
	p.Y.Min = lo / 2
	p.Y.Max = math.Pow(10, logLo+span/(1-legendShare))
	p.Add(plotter.NewGrid())
	return p, nil
}

// writePlot renders time vs N, time vs M and time vs D side by side into
// path (a study without a finished run is left out); the extension (.svg
// or .png) picks the format.
func writePlot(path string, rep *harness.ScalingReport) error {
	var row []*plot.Plot
	for _, s := range []struct{ study, title, x string }{
		{harness.StudySequential, "N sequential guarded updates (2^N paths)", "N"},
		{harness.StudyEntries, "M entry points", "M"},
		{harness.StudyLoops, "loop nesting depth D", "D"},
	} {
		p, err := studyPlot(rep, s.study, s.title, s.x)
		if err != nil {
			continue // no data: leave the panel out
		}
		row = append(row, p)
	}
	if len(row) == 0 {
		return fmt.Errorf("no finished scaling run to plot")
	}
	width := vg.Length(len(row)) * 4.5 * vg.Inch
	height := 4 * vg.Inch
	var canvas vg.CanvasWriterTo
	switch strings.ToLower(filepath.Ext(path)) {
	case ".svg":
		canvas = vgsvg.New(width, height)
	case ".png":
		canvas = vgimg.PngCanvas{Canvas: vgimg.New(width, height)}
	default:
		return fmt.Errorf("plot %s: want a .svg or .png file", path)
	}
	dc := draw.New(canvas)
	tiles := draw.Tiles{Rows: 1, Cols: len(row), PadX: vg.Millimeter * 4, PadTop: vg.Millimeter * 2,
		PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	for j, p := range row {
		p.Draw(tiles.At(dc, j, 0))
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := canvas.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
