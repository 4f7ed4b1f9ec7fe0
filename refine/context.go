package refine

import (
	"context"
	"errors"
	"time"

	"github.com/dbverify/dbverify/smt"
)

// ReasonCancelled is the Reason of a result left undecided because the
// context was cancelled.
const ReasonCancelled = "cancelled"

// ReasonDeadline is the Reason of a result left undecided because the
// context's deadline (the run's wall-clock limit) passed.
const ReasonDeadline = "time limit reached (the run's deadline)"

// withContext runs check under ctx. A deadline of ctx shortens
// opt.Timeout (checked between phases); cancellation, or the deadline,
// interrupts the solver's running query (smt.Solver.Interrupt), after
// which the solver is finished: every later query fails, so check ends
// promptly. A result the cancellation leaves undecided is UNKNOWN with
// ReasonCancelled (or the deadline as its reason); a verdict reached
// before it stands.
func withContext(ctx context.Context, s *smt.Solver, opt Options, check func(Options) *Result) *Result {
	if err := ctx.Err(); err != nil {
		return cancelled(&Result{}, err)
	}
	opt = opt.withDefaults()
	if dl, ok := ctx.Deadline(); ok {
		left := max(time.Until(dl), time.Nanosecond)
		if opt.Timeout < 0 || left < opt.Timeout {
			opt.Timeout = left
		}
	}
	if s != nil {
		stop := context.AfterFunc(ctx, s.Interrupt)
		defer stop()
	}
	res := check(opt)
	if err := ctx.Err(); err != nil && res.Verdict == Unknown {
		return cancelled(res, err)
	}
	return res
}

// cancelled makes res UNKNOWN because of err, ctx.Err(); its statistics
// stay.
func cancelled(res *Result, err error) *Result {
	res.Verdict, res.Position, res.Trace = Unknown, "", nil
	res.Reason = ReasonCancelled
	if errors.Is(err, context.DeadlineExceeded) {
		res.Reason = ReasonDeadline
	}
	return res
}
