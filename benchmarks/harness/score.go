package harness

import "time"

// Status is how one expectation fared.
type Status string

// Statuses of an Outcome.
const (
	// StatusCorrect: the verdict is the expected one, or (for an
	// UNKNOWN-today expectation) the final one.
	StatusCorrect Status = "correct"
	// StatusWrong: SAFE where UNSAFE is right, or UNSAFE where SAFE is.
	StatusWrong Status = "wrong"
	// StatusUndecided: UNKNOWN where SAFE or UNSAFE is expected.
	StatusUndecided Status = "undecided"
	// StatusMissing: no result for an expected (entry, constraint).
	StatusMissing Status = "missing"
	// StatusUnexpected: a result for an (entry, constraint) that
	// expect.json does not list (or a second result for one it does).
	StatusUnexpected Status = "unexpected"
	// StatusError: the run failed (timeout, crash, load error, bad JSON).
	StatusError Status = "error"
)

// SV-COMP style points.
const (
	PointsCorrectSafe   = 2
	PointsCorrectUnsafe = 1
	PointsWrongSafe     = -32 // SAFE reported, UNSAFE is right
	PointsWrongUnsafe   = -16 // UNSAFE reported, SAFE is right
)

// Outcome is one expectation (or one unexpected result) of a case.
type Outcome struct {
	Case       string
	Entry      string
	Constraint string
	// Expected is expect.json's verdict (what dbverify must say today),
	// Final its right answer; both empty for an unexpected result.
	Expected string
	Final    string
	// Got is dbverify's verdict; empty when missing or on error.
	Got string
	// Reason is dbverify's reason for UNKNOWN, or why the outcome failed.
	Reason      string
	Seconds     float64
	Refinements int
	Predicates  int
	SMTQueries  int
	// Engine is the engine the tool says decided the result ("" when it
	// does not say).
	Engine string

	Status Status
	// Improved: SAFE or UNSAFE equal to "final" where UNKNOWN is expected
	// today.
	Improved bool
	Points   int
	// CheckFailures are trace_contains / predicates_contain (and
	// counterexample shape) mismatches of a correctly decided result.
	CheckFailures []string
}

// Failed reports whether the outcome fails the benchmark: a wrong verdict,
// a missing or unexpected result, a failed run, or a check failure.
func (o *Outcome) Failed() bool {
	switch o.Status {
	case StatusWrong, StatusMissing, StatusUnexpected, StatusError:
		return true
	}
	return len(o.CheckFailures) > 0
}

// Decided reports whether dbverify answered SAFE or UNSAFE.
func (o *Outcome) Decided() bool { return o.Got == Safe || o.Got == Unsafe }

// Grade grades verdict got against the expectation:
//   - got UNKNOWN: correct (0 points) if UNKNOWN is expected, else undecided
//     (0 points);
//   - got SAFE/UNSAFE where SAFE/UNSAFE is expected: correct (+2 SAFE, +1
//     UNSAFE) if equal, else wrong (-32 for SAFE, -16 for UNSAFE);
//   - got SAFE/UNSAFE where UNKNOWN is expected today: compared with
//     "final" the same way; if equal it is correct and improved.
func Grade(e Expectation, got string) (status Status, points int, improved bool) {
	switch got {
	case Unknown:
		if e.Verdict == Unknown {
			return StatusCorrect, 0, false
		}
		return StatusUndecided, 0, false
	case Safe, Unsafe:
	default:
		return StatusError, 0, false
	}
	want := e.Verdict
	if want == Unknown {
		want = e.FinalVerdict()
		improved = true
	}
	if got == want {
		if got == Safe {
			return StatusCorrect, PointsCorrectSafe, improved
		}
		return StatusCorrect, PointsCorrectUnsafe, improved
	}
	if want != Safe && want != Unsafe {
		// final is UNKNOWN too: no right answer to compare with.
		return StatusWrong, 0, false
	}
	if got == Safe {
		return StatusWrong, PointsWrongSafe, false
	}
	return StatusWrong, PointsWrongUnsafe, false
}

// MaxPoints is what a verdict of v earns when correct.
func MaxPoints(v string) int {
	switch v {
	case Safe:
		return PointsCorrectSafe
	case Unsafe:
		return PointsCorrectUnsafe
	}
	return 0
}

// Totals summarise a benchmark run.
type Totals struct {
	Cases        int
	Expectations int

	Correct     int // including UNKNOWN where UNKNOWN is expected
	Improved    int // correct SAFE/UNSAFE where UNKNOWN is expected today
	Wrong       int
	WrongSafe   int
	WrongUnsafe int
	Undecided   int
	Missing     int
	Unexpected  int
	Errors      int
	Decided     int // expectations answered SAFE or UNSAFE
	// CheckFailures counts correct outcomes with a substring or
	// counterexample-shape mismatch; Problems counts case-level problems.
	CheckFailures int
	Problems      int

	Score int
	// MaxScore is the score if every expectation got its final verdict;
	// MaxScoreToday if every one got its verdict of today.
	MaxScore      int
	MaxScoreToday int

	// Time is the wall time of the dbverify processes, ToolFrontend the
	// front-end time they report, FrontendRef the reference front end's.
	Time         time.Duration
	ToolFrontend time.Duration
	FrontendRef  time.Duration
}

// Score totals the runs.
func Score(runs []*CaseRun) Totals {
	var t Totals
	for _, r := range runs {
		t.Cases++
		t.Problems += len(r.Problems)
		if r.Inv != nil {
			t.Time += r.Inv.Wall
		}
		if r.Report != nil {
			t.ToolFrontend += time.Duration(r.Report.Stats.FrontendSeconds * float64(time.Second))
		}
		t.FrontendRef += r.FrontendRef
		for _, e := range r.Case.Expect {
			t.MaxScore += MaxPoints(e.FinalVerdict())
			t.MaxScoreToday += MaxPoints(e.Verdict)
		}
		for i := range r.Outcomes {
			o := &r.Outcomes[i]
			if o.Status != StatusUnexpected {
				t.Expectations++
				if o.Decided() {
					t.Decided++
				}
			}
			t.Score += o.Points
			if len(o.CheckFailures) > 0 {
				t.CheckFailures++
			}
			switch o.Status {
			case StatusCorrect:
				t.Correct++
				if o.Improved {
					t.Improved++
				}
			case StatusWrong:
				t.Wrong++
				if o.Got == Safe {
					t.WrongSafe++
				} else {
					t.WrongUnsafe++
				}
			case StatusUndecided:
				t.Undecided++
			case StatusMissing:
				t.Missing++
			case StatusUnexpected:
				t.Unexpected++
			case StatusError:
				t.Errors++
			}
		}
	}
	return t
}

// DecidedPercent is the share of expectations answered SAFE or UNSAFE.
func (t Totals) DecidedPercent() float64 {
	if t.Expectations == 0 {
		return 0
	}
	return 100 * float64(t.Decided) / float64(t.Expectations)
}

// FrontendRatio is dbverify's wall time over the reference front end's
// time (0 when the reference was not measured).
func (t Totals) FrontendRatio() float64 {
	if t.FrontendRef <= 0 {
		return 0
	}
	return float64(t.Time) / float64(t.FrontendRef)
}

// Failed reports whether the benchmark fails: a wrong verdict, a missing
// or unexpected result, a failed run or a check failure.
func (t Totals) Failed() bool {
	return t.Wrong+t.Missing+t.Unexpected+t.Errors+t.CheckFailures+t.Problems > 0
}
