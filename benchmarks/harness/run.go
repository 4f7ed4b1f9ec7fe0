package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// Options control how a case is run.
type Options struct {
	// Engine is passed as --engine (fixpoint or paths); "" leaves the
	// tool's default.
	Engine string
	// MaxRefinements is passed as --max-refinements when > 0.
	MaxRefinements int
	// Timeout kills the dbverify process after this long; 0 = no limit.
	Timeout time.Duration
	// ExtraArgs go after the case's own arguments, before ./... .
	ExtraArgs []string
	// FrontendReference also times the reference front end (go/packages
	// and SSA construction in this process) on the case.
	FrontendReference bool
}

// CheckArgs is the argument list (after the binary) for checking a case:
// check --format json [--engine E] [--max-refinements N] <args> ./...
func CheckArgs(c *Case, opts Options) []string {
	args := []string{"check", "--format", "json", "--no-cache"}
	if opts.Engine != "" {
		args = append(args, "--engine", opts.Engine)
	}
	if opts.MaxRefinements > 0 {
		args = append(args, "--max-refinements", strconv.Itoa(opts.MaxRefinements))
	}
	args = append(args, c.Args...)
	args = append(args, opts.ExtraArgs...)
	return append(args, "./...")
}

// Invocation is one execution of the binary.
type Invocation struct {
	Dir      string
	Args     []string // after the binary
	ExitCode int      // -1 when the process did not exit normally
	Stdout   []byte
	Stderr   []byte
	Wall     time.Duration
	TimedOut bool
	// Err is set when the process could not be started or was killed.
	Err error
}

// Exec runs bin with args in dir, killing it after timeout (0 = never).
func Exec(ctx context.Context, bin, dir string, args []string, timeout time.Duration) *Invocation {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	inv := &Invocation{Dir: dir, Args: args, ExitCode: -1}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	inv.Wall = time.Since(start)
	inv.Stdout, inv.Stderr = stdout.Bytes(), stderr.Bytes()
	if cmd.ProcessState != nil && cmd.ProcessState.Exited() {
		inv.ExitCode = cmd.ProcessState.ExitCode()
	}
	if ctx.Err() != nil && inv.ExitCode < 0 {
		inv.TimedOut = errors.Is(ctx.Err(), context.DeadlineExceeded)
		inv.Err = ctx.Err()
		return inv
	}
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		inv.Err = err
	} else if inv.ExitCode < 0 {
		inv.Err = fmt.Errorf("dbverify did not exit normally: %v", cmd.ProcessState)
	}
	return inv
}

// Command renders the invocation as a shell command line (for reports).
func (inv *Invocation) Command(bin string) string {
	parts := []string{"cd", shellQuote(inv.Dir), "&&", shellQuote(bin)}
	for _, a := range inv.Args {
		parts = append(parts, shellQuote(a))
	}
	return strings.Join(parts, " ")
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// StderrSummary is the first lines of stderr, for messages.
func (inv *Invocation) StderrSummary() string {
	s := strings.TrimSpace(string(inv.Stderr))
	lines := strings.Split(s, "\n")
	if len(lines) > 5 {
		lines = append(lines[:5], "…")
	}
	return strings.Join(lines, " | ")
}

// CaseRun is the outcome of running one case.
type CaseRun struct {
	Case *Case
	Inv  *Invocation
	// Report is the parsed stdout; nil when it did not parse.
	Report *Report
	// Outcomes has one entry per expectation, in expect.json's order,
	// followed by one per unexpected result.
	Outcomes []Outcome
	// Problems are failures of the run as a whole: a timeout, a crash,
	// stdout that is not the JSON contract, an exit code that does not
	// match the verdicts.
	Problems []string
	// FrontendRef is the reference front end's time (0 when not measured);
	// FrontendErr is its error.
	FrontendRef time.Duration
	FrontendErr error
}

// Failed reports whether the run has a problem or a failed outcome.
func (r *CaseRun) Failed() bool {
	if len(r.Problems) > 0 {
		return true
	}
	for i := range r.Outcomes {
		if r.Outcomes[i].Failed() {
			return true
		}
	}
	return false
}

// Run runs bin on the case (working directory = the case directory) and
// compares its output with the case's expectations.
func Run(bin string, c *Case, opts Options) *CaseRun {
	inv := Exec(context.Background(), bin, c.Dir, CheckArgs(c, opts), opts.Timeout)
	run := Evaluate(c, inv)
	if opts.FrontendReference {
		run.FrontendRef, run.FrontendErr = FrontendTime(c.Dir, "./...")
	}
	return run
}

// Evaluate compares an invocation's output with the case's expectations.
func Evaluate(c *Case, inv *Invocation) *CaseRun {
	run := &CaseRun{Case: c, Inv: inv}
	var fail string
	switch {
	case inv.TimedOut:
		fail = fmt.Sprintf("timeout after %.0fs", inv.Wall.Seconds())
	case inv.Err != nil:
		fail = inv.Err.Error()
	case inv.ExitCode != 0 && inv.ExitCode != 1:
		fail = fmt.Sprintf("exit code %d: %s", inv.ExitCode, inv.StderrSummary())
	}
	if fail == "" {
		rep, err := ParseReport(inv.Stdout)
		if err != nil {
			fail = fmt.Sprintf("exit code %d, %v; stderr: %s", inv.ExitCode, err, inv.StderrSummary())
		} else {
			run.Report = rep
		}
	}
	if fail != "" {
		run.Problems = append(run.Problems, fail)
		for _, e := range c.Expect {
			run.Outcomes = append(run.Outcomes, Outcome{
				Case: c.Name, Entry: e.Entry, Constraint: e.Constraint,
				Expected: e.Verdict, Final: e.FinalVerdict(),
				Status: StatusError, Reason: fail,
			})
		}
		return run
	}
	if want := ExitCodeFor(run.Report.Results); inv.ExitCode != want {
		run.Problems = append(run.Problems, fmt.Sprintf("exit code %d, but the verdicts demand %d", inv.ExitCode, want))
	}
	run.Outcomes = Compare(c, run.Report)
	return run
}

// Compare matches results to expectations on (entry, constraint), the
// constraint compared white-space-insensitively, and grades each.
func Compare(c *Case, rep *Report) []Outcome {
	byKey := map[Key][]int{}
	for i, r := range rep.Results {
		k := KeyOf(r.Entry, r.Constraint)
		byKey[k] = append(byKey[k], i)
	}
	used := make([]bool, len(rep.Results))
	var out []Outcome
	for _, e := range c.Expect {
		o := Outcome{Case: c.Name, Entry: e.Entry, Constraint: e.Constraint, Expected: e.Verdict, Final: e.FinalVerdict()}
		idx := byKey[KeyOf(e.Entry, e.Constraint)]
		if len(idx) == 0 {
			o.Status = StatusMissing
			o.Reason = "no result for this entry and constraint"
			out = append(out, o)
			continue
		}
		r := rep.Results[idx[0]]
		used[idx[0]] = true
		o.fill(r)
		o.Status, o.Points, o.Improved = Grade(e, string(r.Verdict))
		if o.Status == StatusCorrect {
			o.CheckFailures = CheckResult(e, r)
		}
		out = append(out, o)
	}
	for i := range rep.Results {
		if used[i] {
			continue
		}
		r := rep.Results[i]
		o := Outcome{Case: c.Name, Entry: r.Entry, Constraint: r.Constraint, Status: StatusUnexpected}
		o.fill(r)
		if len(byKey[KeyOf(r.Entry, r.Constraint)]) > 1 {
			o.Reason = "duplicate result for this entry and constraint"
		} else {
			o.Reason = "result for an entry and constraint not in expect.json"
		}
		out = append(out, o)
	}
	return out
}

func (o *Outcome) fill(r *Result) {
	o.Got = string(r.Verdict)
	if o.Reason == "" {
		o.Reason = r.Reason
	}
	o.Seconds = r.Seconds
	o.Refinements = r.Refinements
	o.Predicates = len(r.Predicates)
	o.SMTQueries = r.SMTQueries
	o.Engine = r.Engine
}

// CheckResult checks a correctly decided result against the expectation's
// substring lists and, for UNSAFE, the shape of the counterexample (inputs,
// at least one step, a violation row). It returns the failures.
func CheckResult(e Expectation, r *Result) []string {
	var fails []string
	switch r.Verdict {
	case Unsafe:
		switch cex := r.Counterexample; {
		case cex == nil:
			fails = append(fails, "UNSAFE without a counterexample")
		default:
			if cex.Inputs == nil {
				fails = append(fails, "counterexample has no inputs")
			}
			if len(cex.Steps) == 0 {
				fails = append(fails, "counterexample has no steps")
			}
			if cex.Violation == nil || cex.Violation.Table == "" || len(cex.Violation.Values) == 0 {
				fails = append(fails, "counterexample has no violation row")
			}
		}
		texts := CexText(r)
		for _, sub := range e.TraceContains {
			if !containsAny(texts, sub) {
				fails = append(fails, fmt.Sprintf("trace does not contain %q", sub))
			}
		}
	case Safe:
		if r.Proof != "" && len(r.Predicates) == 0 {
			// Decided exactly, without an abstraction: there is no
			// predicate vocabulary to check.
			break
		}
		for _, sub := range e.PredicatesContain {
			if !containsAny(r.Predicates, sub) {
				fails = append(fails, fmt.Sprintf("no predicate contains %q", sub))
			}
		}
	}
	return fails
}

func containsAny(texts []string, sub string) bool {
	for _, t := range texts {
		if strings.Contains(t, sub) {
			return true
		}
	}
	return false
}
