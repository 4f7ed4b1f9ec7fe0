package harness

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/dbverify/dbverify/benchmarks/gen"
)

// Engines of dbverify's --engine flag.
const (
	EngineFixpoint = "fixpoint"
	EnginePaths    = "paths"
	EngineLBE      = "lbe"
)

// Studies of the scaling run.
const (
	StudySequential = "N" // sequential guarded updates (2^N paths)
	StudyEntries    = "M" // entry points
	StudyLoops      = "D" // loop nesting depth
)

// ScalingOptions configure the scaling study.
type ScalingOptions struct {
	Engines []string      // default: fixpoint, paths, lbe
	Ns      []int         // default: 2..24
	Ms      []int         // default: 1, 2, 4, …, 256
	Ds      []int         // default: 1..6
	Timeout time.Duration // per dbverify run; default 60s
	// EngineArgs are extra arguments per engine. The default lifts the
	// caps that would turn a long run into UNKNOWN, so that the per-run
	// timeout, not a cap, stops an engine: --max-refinements 1000 for both
	// (the sequential study needs one refinement per update, more than the
	// default 20 for N > 20) and --max-paths 1000000000 for paths.
	EngineArgs map[string][]string
	// Budget bounds each engine's runs in each of the three studies (N,
	// M, D), in wall time: an engine's points of a study not started when
	// its own budget for the study is spent are recorded as skipped, so a
	// slow engine does not use up a fast one's sizes. 0 = no bound.
	Budget time.Duration
	// WorkDir is where the programs are generated (default: a temporary
	// directory, removed afterwards).
	WorkDir string
	// Log, if set, gets one line per run.
	Log io.Writer
}

func (o *ScalingOptions) defaults() {
	if len(o.Engines) == 0 {
		o.Engines = []string{EngineFixpoint, EnginePaths, EngineLBE}
	}
	if len(o.Ns) == 0 {
		for n := 2; n <= 24; n++ {
			o.Ns = append(o.Ns, n)
		}
	}
	if len(o.Ms) == 0 {
		o.Ms = []int{1, 2, 4, 8, 16, 32, 64, 128, 256}
	}
	if len(o.Ds) == 0 {
		o.Ds = []int{1, 2, 3, 4, 5, 6}
	}
	if o.Timeout == 0 {
		o.Timeout = 60 * time.Second
	}
	if o.EngineArgs == nil {
		o.EngineArgs = map[string][]string{
			EngineFixpoint: {"--max-refinements", "1000"},
			EnginePaths:    {"--max-refinements", "1000", "--max-paths", "1000000000"},
			EngineLBE:      {"--max-refinements", "1000"},
		}
	}
}

// ScalingPoint is one dbverify run of the study.
type ScalingPoint struct {
	Study  string // StudySequential, StudyEntries or StudyLoops
	X      int    // N, M or D
	Engine string
	// Wall is the process's wall time; Verify its own total minus its
	// front end (the verification proper); Frontend its front end.
	Wall       time.Duration
	Verify     time.Duration
	Frontend   time.Duration
	SMTQueries int
	// Verdicts counts the results' verdicts, e.g. "SAFE×8".
	Verdicts string
	// OK: every generated entry point got the program's verdict.
	OK       bool
	TimedOut bool
	// Skipped is why the point was not run ("" = it was run): a smaller
	// size timed out, or the budget was spent.
	Skipped string
	// Err is a failure other than a timeout (exit 2, bad JSON).
	Err string
}

// Done reports whether the run finished with a report.
func (p *ScalingPoint) Done() bool { return p.Skipped == "" && !p.TimedOut && p.Err == "" }

// ScalingReport is the outcome of the study.
type ScalingReport struct {
	Options ScalingOptions
	Points  []ScalingPoint
	Elapsed time.Duration
}

// RunScaling generates every program of the study and runs bin on it with
// every engine, each run bounded by the timeout. Along each study, an
// engine that timed out, failed or did not decide every entry at one
// size, or spent its budget, is not run on larger ones.
func RunScaling(bin string, opts ScalingOptions) (*ScalingReport, error) {
	opts.defaults()
	work := opts.WorkDir
	if work == "" {
		tmp, err := os.MkdirTemp("", "dbverify-scaling-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		work = tmp
	}
	start := time.Now()
	rep := &ScalingReport{Options: opts}
	type study struct {
		name  string
		sizes []int
		make  func(int) (*gen.Program, error)
	}
	studies := []study{
		{StudySequential, opts.Ns, gen.Sequential},
		{StudyEntries, opts.Ms, gen.EntryPoints},
		{StudyLoops, opts.Ds, gen.LoopNest},
	}
	for _, st := range studies {
		spent := map[string]time.Duration{} // engine -> its runs' wall time in this study
		stopped := map[string]string{}      // engine -> why it stopped
		for _, x := range st.sizes {
			prog, err := st.make(x)
			if err != nil {
				return nil, err
			}
			dir := filepath.Join(work, fmt.Sprintf("%s-%d", st.name, x))
			if err := prog.Write(dir); err != nil {
				return nil, err
			}
			for _, eng := range opts.Engines {
				pt := ScalingPoint{Study: st.name, X: x, Engine: eng}
				switch {
				case stopped[eng] != "":
					pt.Skipped = stopped[eng]
				case opts.Budget > 0 && spent[eng] > opts.Budget:
					pt.Skipped = fmt.Sprintf("the engine's %s budget for the study was spent", opts.Budget)
				default:
					runPoint(bin, dir, prog, opts.Timeout, opts.EngineArgs[eng], &pt)
					spent[eng] += pt.Wall
					if pt.TimedOut {
						stopped[eng] = fmt.Sprintf("timed out at %s = %d", st.name, x)
					} else if pt.Err != "" {
						stopped[eng] = fmt.Sprintf("failed at %s = %d", st.name, x)
					} else if !pt.OK {
						stopped[eng] = fmt.Sprintf("undecided at %s = %d: %s", st.name, x, pt.Verdicts)
					}
				}
				if opts.Log != nil {
					fmt.Fprintf(opts.Log, "scaling %s=%-3d %-8s %s\n", st.name, x, eng, pt.Summary())
				}
				rep.Points = append(rep.Points, pt)
			}
		}
	}
	rep.Elapsed = time.Since(start)
	return rep, nil
}

// ScalingArgs is the argument list of one scaling run.
func ScalingArgs(engine string, extra []string) []string {
	args := []string{"check", "--format", "json", "--no-cache", "--engine", engine, "--constraint", gen.Constraint}
	args = append(args, extra...)
	return append(args, "./...")
}

func runPoint(bin, dir string, prog *gen.Program, timeout time.Duration, extra []string, pt *ScalingPoint) {
	args := ScalingArgs(pt.Engine, extra)
	inv := Exec(context.Background(), bin, dir, args, timeout)
	pt.Wall = inv.Wall
	switch {
	case inv.TimedOut:
		pt.TimedOut = true
		return
	case inv.Err != nil:
		pt.Err = inv.Err.Error()
		return
	case inv.ExitCode != 0 && inv.ExitCode != 1:
		pt.Err = fmt.Sprintf("exit code %d: %s", inv.ExitCode, inv.StderrSummary())
		return
	}
	rep, err := ParseReport(inv.Stdout)
	if err != nil {
		pt.Err = err.Error()
		return
	}
	pt.Frontend = seconds(rep.Stats.FrontendSeconds)
	pt.Verify = seconds(rep.Stats.Seconds - rep.Stats.FrontendSeconds)
	if pt.Verify < 0 {
		pt.Verify = 0
	}
	pt.SMTQueries = rep.Stats.SMTQueries
	counts := map[string]int{}
	got := map[string]string{}
	for _, r := range rep.Results {
		counts[string(r.Verdict)]++
		got[r.Entry] = string(r.Verdict)
	}
	var vs []string
	for v, n := range counts {
		vs = append(vs, fmt.Sprintf("%s×%d", v, n))
	}
	sort.Strings(vs)
	pt.Verdicts = strings.Join(vs, " ")
	pt.OK = len(rep.Results) == len(prog.Entries)
	for _, e := range prog.Entries {
		if got[e] != prog.Verdict {
			pt.OK = false
		}
	}
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// Summary is a one-line description of the point.
func (p *ScalingPoint) Summary() string {
	switch {
	case p.Skipped != "":
		return "skipped (" + p.Skipped + ")"
	case p.TimedOut:
		return fmt.Sprintf("timeout after %.0fs", p.Wall.Seconds())
	case p.Err != "":
		return "error: " + p.Err
	}
	s := fmt.Sprintf("verify %.3fs wall %.2fs smt %d %s", p.Verify.Seconds(), p.Wall.Seconds(), p.SMTQueries, p.Verdicts)
	if !p.OK {
		s += " (not the expected verdicts)"
	}
	return s
}

// Series returns the points of one study and engine, by size.
func (r *ScalingReport) Series(study, engine string) []ScalingPoint {
	var out []ScalingPoint
	for _, p := range r.Points {
		if p.Study == study && p.Engine == engine {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].X < out[j].X })
	return out
}

// Sizes returns the sizes of a study, ascending.
func (r *ScalingReport) Sizes(study string) []int {
	seen := map[int]bool{}
	var out []int
	for _, p := range r.Points {
		if p.Study == study && !seen[p.X] {
			seen[p.X] = true
			out = append(out, p.X)
		}
	}
	sort.Ints(out)
	return out
}

// Point returns the point of a study, size and engine.
func (r *ScalingReport) Point(study string, x int, engine string) (ScalingPoint, bool) {
	for _, p := range r.Points {
		if p.Study == study && p.X == x && p.Engine == engine {
			return p, true
		}
	}
	return ScalingPoint{}, false
}

// Crossover returns the first N of the sequential study where the paths
// engine's verification time exceeds factor times the fixpoint engine's.
// A paths run that timed out counts as taking the timeout (so it exceeds
// factor × fixpoint when that is below the timeout). ok is false when no
// N qualifies.
func (r *ScalingReport) Crossover(factor float64) (n int, ok bool) {
	for _, x := range r.Sizes(StudySequential) {
		fp, ok1 := r.Point(StudySequential, x, EngineFixpoint)
		pp, ok2 := r.Point(StudySequential, x, EnginePaths)
		if !ok1 || !ok2 || !fp.Done() {
			continue
		}
		switch {
		case pp.Done():
			if float64(pp.Verify) > factor*float64(fp.Verify) {
				return x, true
			}
		case pp.TimedOut:
			if float64(r.Options.Timeout) > factor*float64(fp.Verify) {
				return x, true
			}
		}
	}
	return 0, false
}

// MaxRatio returns the N of the sequential study with the largest ratio of
// the paths engine's verification time to the fixpoint engine's, and the
// ratio. bound is true when paths timed out there, so that the ratio (the
// timeout over the fixpoint time) is a lower bound. ok is false when no N
// has both times.
func (r *ScalingReport) MaxRatio() (n int, ratio float64, bound, ok bool) {
	for _, x := range r.Sizes(StudySequential) {
		fp, ok1 := r.Point(StudySequential, x, EngineFixpoint)
		pp, ok2 := r.Point(StudySequential, x, EnginePaths)
		if !ok1 || !ok2 || !fp.Done() || fp.Verify <= 0 {
			continue
		}
		var q float64
		var b bool
		switch {
		case pp.Done():
			q = float64(pp.Verify) / float64(fp.Verify)
		case pp.TimedOut:
			q, b = float64(r.Options.Timeout)/float64(fp.Verify), true
		default:
			continue
		}
		if !ok || q > ratio {
			n, ratio, bound, ok = x, q, b, true
		}
	}
	return n, ratio, bound, ok
}
