package frontend

import (
	"go/types"
	"math/big"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// The clock. time.Now() reads the environment: every value is the value
// of some moment, so its instant is an input of the run (an ir.Var.Clock
// variable, nanoseconds since 1970 UTC, within the years 2000 to 2200),
// and the pure functions of package time applied to it are computed on
// that number: Truncate and Round by a constant that divides a day, Add,
// Sub, Unix, UnixMilli, UnixMicro, Before, After, Equal, Compare. Two
// calls are related as the clock relates them: a later call's instant
// is not before an earlier one's (a ghost holds the last instant read).
// A key computed as time.Now().Truncate(time.Minute).Unix() was the
// result of a call "the model does not compute", and a real bug UNKNOWN
// (an independent tester's time_key_unknown). Replay sets the clock of
// each call to the counterexample's instant (witness: the driver's
// overlay wraps the program's time.Now() calls).

// Bounds of the clock, in seconds since 1970: 2000-01-01 and 2200-01-01
// UTC.
const (
	clockFrom = 946_684_800
	clockTo   = 7_258_118_400
)

// epochFromZero is the time from time.Time's zero (January 1, year 1
// UTC), from which Truncate and Round count, to 1970, in nanoseconds.
var epochFromZero = new(big.Int).Mul(big.NewInt(62_135_596_800), big.NewInt(1e9))

// clockCall models a call of package time on the clock (see above): ok
// is false for a call it does not model, which keeps its generic
// meaning.
func (t *translator) clockCall(fn *ssa.Function, args []value, results *types.Tuple) (value, bool) {
	if fn.Pkg == nil || fn.Pkg.Pkg.Path() != "time" {
		return value{}, false
	}
	if fn.String() == "time.Now" && len(args) == 0 {
		return t.clockNow(results), true
	}
	if len(args) == 0 || fn.Signature.Recv() == nil || !isTime(fn.Signature.Recv().Type()) {
		return value{}, false
	}
	ns, ok := t.clocks[timeKey(args[0])]
	if !ok {
		return value{}, false
	}
	return t.clockMethod(fn.Name(), ns, args[1:], results)
}

// clockMethod models method name of a time.Time whose instant is ns.
func (t *translator) clockMethod(name string, ns ir.Expr, args []value, results *types.Tuple) (value, bool) {
	switch name {
	case "Unix":
		return value{expr: floorDiv(ns, 1e9)}, true
	case "UnixMilli":
		return value{expr: floorDiv(ns, 1e6)}, true
	case "UnixMicro":
		return value{expr: floorDiv(ns, 1e3)}, true
	case "Truncate", "Round":
		d, ok := dayDivisor(args)
		if !ok {
			return value{}, false
		}
		return t.clockTime(name+"()", roundedTo(name, ns, d), results), true
	case "Add":
		if len(args) != 1 || args[0].expr == nil {
			return value{}, false
		}
		return t.clockTime("Add()", ir.Add(ns, args[0].expr), results), true
	}
	if len(args) != 1 {
		return value{}, false
	}
	other, ok := t.clocks[timeKey(args[0])]
	if !ok {
		return value{}, false
	}
	return clockCompare(name, ns, other)
}

// clockCompare models the methods that compare two instants, x and y.
func clockCompare(name string, x, y ir.Expr) (value, bool) {
	switch name {
	case "Before":
		return value{expr: ir.Cmp(ir.OpLt, x, y)}, true
	case "After":
		return value{expr: ir.Cmp(ir.OpGt, x, y)}, true
	case "Equal":
		return value{expr: ir.Eq(x, y)}, true
	case "Compare":
		return value{expr: ir.IteOf(ir.Cmp(ir.OpLt, x, y), ir.IntLit(-1), ir.IteOf(ir.Eq(x, y), ir.IntLit(0), ir.IntLit(1)))}, true
	case "Sub":
		// A Duration saturates at int64's bounds.
		d := ir.Sub(x, y)
		hi, lo := ir.BigInt(maxInt64()), ir.BigInt(new(big.Int).Neg(new(big.Int).Add(maxInt64(), big.NewInt(1))))
		return value{expr: ir.IteOf(ir.Cmp(ir.OpGt, d, hi), hi, ir.IteOf(ir.Cmp(ir.OpLt, d, lo), lo, d))}, true
	}
	return value{}, false
}

func maxInt64() *big.Int { return new(big.Int).SetUint64(1<<63 - 1) }

// clockAssumption is recorded where an entry may read the clock twice:
// the model reads one clock, whose readings do not go back, and Go's
// monotonic clock (Before, After, Sub of two time.Now() values) does not;
// the wall clock (Unix, Truncate) does not either unless it is set back
// while the entry runs.
const clockAssumption = "assuming the clock is not set back while the entry runs: two time.Now() calls read instants in call order (Before, After and Sub of them do by Go's monotonic clock; Unix and Truncate by the wall clock)"

// clockNow models time.Now(): a time.Time whose instant is a new clock
// input, not before the instant the last call read.
func (t *translator) clockNow(results *types.Tuple) value {
	ns := t.freshVar("time.Now()", ir.Int, ir.KindCall)
	ns.Clock = true
	from := new(big.Int).Mul(big.NewInt(clockFrom), big.NewInt(1e9))
	to := new(big.Int).Mul(big.NewInt(clockTo), big.NewInt(1e9))
	inRange := ir.And(ir.Cmp(ir.OpGe, ns, ir.BigInt(from)), ir.Cmp(ir.OpLt, ns, ir.BigInt(to)))
	if t.lastClock != nil || t.stackInLoop() {
		t.p.Assume(clockAssumption)
	}
	if t.lastClock == nil {
		t.lastClock = t.p.NewVar("$clock", ir.Int, ir.Ghost)
	}
	t.emit(&ir.Assume{Cond: ir.And(inRange, ir.Cmp(ir.OpGe, ns, t.lastClock)), Info: t.info(ir.KindFact, "")})
	t.emit(&ir.Assign{Lhs: []*ir.Var{t.lastClock}, Rhs: []ir.Expr{ns}, Info: t.info(ir.KindFact, "")})
	return t.clockTime("time.Now()", ns, results)
}

// clockTime returns a new time.Time value (its fields arbitrary, as the
// model does not follow them) whose instant is ns.
func (t *translator) clockTime(name string, ns ir.Expr, results *types.Tuple) value {
	v := t.fresh(name, results)
	markInternal(v)
	key := timeKey(v)
	if key[0] == nil || key[1] == nil {
		return v
	}
	if t.clocks == nil {
		t.clocks = map[[2]ir.Expr]ir.Expr{}
	}
	t.clocks[key] = ns
	return v
}

// timeKey is the key of a time.Time value by its first two fields
// (wall, ext), as timeArg keys it.
func timeKey(e value) [2]ir.Expr {
	var key [2]ir.Expr
	for k := 0; k < len(key) && k < len(e.fields); k++ {
		key[k] = e.fields[k].expr
	}
	return key
}

// dayDivisor returns the constant duration args holds when it is
// positive and divides the time from time.Time's zero to 1970 (a day
// and every divisor of one: an hour, a minute, a second): counted from
// either origin, Truncate and Round then give the same instant.
func dayDivisor(args []value) (*big.Int, bool) {
	if len(args) != 1 {
		return nil, false
	}
	c, ok := args[0].expr.(*ir.IntConst)
	if !ok || c.V.Sign() <= 0 {
		return nil, false
	}
	if new(big.Int).Rem(epochFromZero, c.V).Sign() != 0 {
		return nil, false
	}
	return c.V, true
}

// roundedTo is ns truncated (or rounded, halfway up) to a multiple of d.
func roundedTo(name string, ns ir.Expr, d *big.Int) ir.Expr {
	r := floorMod(ns, d)
	down := ir.Sub(ns, r)
	if name == "Truncate" {
		return down
	}
	half := ir.Cmp(ir.OpLt, ir.Add(r, r), ir.BigInt(d))
	return ir.IteOf(half, down, ir.Add(down, ir.BigInt(d)))
}

// floorDiv is x divided by d, rounded down (Go's / truncates).
func floorDiv(x ir.Expr, d int64) ir.Expr {
	q := ir.Arith(ir.OpDiv, x, ir.IntLit(d))
	r := ir.Arith(ir.OpMod, x, ir.IntLit(d))
	return ir.IteOf(ir.Cmp(ir.OpLt, r, ir.IntLit(0)), ir.Sub(q, ir.IntLit(1)), q)
}

// floorMod is x modulo d, in [0, d) (Go's % has the dividend's sign).
func floorMod(x ir.Expr, d *big.Int) ir.Expr {
	r := ir.Arith(ir.OpMod, x, ir.BigInt(d))
	return ir.IteOf(ir.Cmp(ir.OpLt, r, ir.IntLit(0)), ir.Add(r, ir.BigInt(d)), r)
}
