// Package rules holds one small entry per translation rule, each named
// after the rule and its expected verdict (see translate_rules_test.go).
package rules

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"time"
)

const (
	debit   = "UPDATE accounts SET balance = balance - ? WHERE id = ?"
	guarded = "UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?"
	credit  = "UPDATE accounts SET balance = balance + ? WHERE id = ?"
	balance = "SELECT balance FROM accounts WHERE id = ?"
)

// withTx runs fn in a transaction a deferred function commits unless fn
// returned an error; recovering says whether it also rolls back a panic.
func withTx(ctx context.Context, db *sql.DB, recovering bool, fn func(*sql.Tx) error) (err error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() {
		if recovering {
			if p := recover(); p != nil {
				_ = tx.Rollback()
				panic(p)
			}
		}
		if err != nil {
			_ = tx.Rollback()
			return
		}
		err = tx.Commit()
	}()
	return fn(tx)
}

func debitChecked(ctx context.Context, tx *sql.Tx, id, amt int64) error {
	if _, err := tx.ExecContext(ctx, debit, amt, id); err != nil {
		return err
	}
	var bal int64
	if err := tx.QueryRowContext(ctx, balance, id).Scan(&bal); err != nil {
		return err
	}
	if bal < 0 {
		panic("overdrawn")
	}
	return nil
}

// PanicCommitUnsafe: the panic unwinds through withTx's deferred commit.
func PanicCommitUnsafe(ctx context.Context, db *sql.DB, id, amt int64) error {
	return withTx(ctx, db, false, func(tx *sql.Tx) error { return debitChecked(ctx, tx, id, amt) })
}

// PanicRecoverSafe: the deferred function rolls a panic back.
func PanicRecoverSafe(ctx context.Context, db *sql.DB, id, amt int64) error {
	return withTx(ctx, db, true, func(tx *sql.Tx) error { return debitChecked(ctx, tx, id, amt) })
}

// RecoverResumesSafe: a recovered panic returns the named result set by
// the deferred function, an error, so the debit below never runs.
func RecoverResumesSafe(ctx context.Context, db *sql.DB, id, amt int64, parts int) error {
	if err := validate(amt, parts); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, guarded, amt, id, amt)
	return err
}

// RecoverResumesUnsafe: the recovered panic returns a nil error and the
// unguarded debit runs with any amount.
func RecoverResumesUnsafe(ctx context.Context, db *sql.DB, id, amt int64, parts int) error {
	if err := validateSwallow(amt, parts); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, debit, amt, id)
	return err
}

func validate(amt int64, parts int) (err error) {
	defer func() {
		if recover() != nil {
			err = errors.New("invalid split")
		}
	}()
	if amt/int64(parts) < 0 {
		return errors.New("negative")
	}
	return nil
}

func validateSwallow(amt int64, parts int) (err error) {
	defer func() { _ = recover() }()
	if amt/int64(parts) <= 0 || amt > 100 {
		return errors.New("out of range")
	}
	return nil
}

// DivideCommitUnsafe: total/parts panics for parts == 0 after the debit,
// and the deferred function commits it.
func DivideCommitUnsafe(ctx context.Context, db *sql.DB, id, total int64, parts int64) error {
	return withTx(ctx, db, false, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, debit, total, id); err != nil {
			return err
		}
		perPart := total / parts
		var bal int64
		if err := tx.QueryRowContext(ctx, balance, id).Scan(&bal); err != nil {
			return err
		}
		if bal < 0 {
			return fmt.Errorf("overdrawn by %d (%d per part)", -bal, perPart)
		}
		return nil
	})
}

// DivideCommitSafe: parts is checked first.
func DivideCommitSafe(ctx context.Context, db *sql.DB, id, total int64, parts int64) error {
	if parts <= 0 {
		return errors.New("no parts")
	}
	return DivideCommitUnsafe(ctx, db, id, total, parts)
}

// SscanUnsafe: fmt.Sscan stores through the pointer in its ...any.
func SscanUnsafe(ctx context.Context, db *sql.DB, id int64, field string) error {
	var amt int64
	if _, err := fmt.Sscan(field, &amt); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, debit, amt, id)
	return err
}

// MergedPointerUnsafe: p is &a or &b; the store through it may set a.
func MergedPointerUnsafe(ctx context.Context, db *sql.DB, id, x int64, useB bool) error {
	var a, b int64
	p := &a
	if useB {
		p = &b
	}
	*p = x
	_, err := db.ExecContext(ctx, debit, a, id)
	return err
}

// AssertedPointerUnsafe: set stores through into.(*int64).
func AssertedPointerUnsafe(ctx context.Context, db *sql.DB, id, x int64) error {
	var amt int64
	set(&amt, x)
	_, err := db.ExecContext(ctx, debit, amt, id)
	return err
}

func set(into any, x int64) {
	*into.(*int64) = x
}

// UnsignedSafe: a uint32 amount is not negative.
func UnsignedSafe(ctx context.Context, db *sql.DB, id int64, amt uint32) error {
	_, err := db.ExecContext(ctx, credit, amt, id)
	return err
}

// CancelSafe: the deferred cancel func is a no-op for the model.
func CancelSafe(ctx context.Context, db *sql.DB, id, amt int64) error {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	_, err := db.ExecContext(ctx, guarded, amt, id, amt)
	return err
}

var guardedVar = "UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?"

var reassigned = "UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?"

// SetQuery changes reassigned: its text is no longer a constant.
func SetQuery(q string) { reassigned = q }

// GlobalVarSafe: guardedVar is never reassigned.
func GlobalVarSafe(ctx context.Context, db *sql.DB, id, amt int64) error {
	_, err := db.ExecContext(ctx, guardedVar, amt, id, amt)
	return err
}

// GlobalVarUnknown: reassigned may hold any text.
func GlobalVarUnknown(ctx context.Context, db *sql.DB, id, amt int64) error {
	_, err := db.ExecContext(ctx, reassigned, amt, id, amt)
	return err
}

// Store wraps the database.
type Store struct{ db *sql.DB }

func (s *Store) debit(ctx context.Context, id, amt int64) error {
	_, err := s.db.ExecContext(ctx, debit, amt, id)
	return err
}

// MethodValueUnsafe calls s.debit through a bound method value.
func MethodValueUnsafe(ctx context.Context, s *Store, id, amt int64) error {
	op := s.debit
	return op(ctx, id, amt)
}

// JoinSafe: errors.Join is non-nil when one of its errors is, so only a
// non-positive amount (a refund) reaches the debit.
func JoinSafe(ctx context.Context, db *sql.DB, id, amt int64) error {
	if err := errors.Join(checkID(id), checkRefund(amt)); err != nil {
		return fmt.Errorf("refund: %w", err)
	}
	_, err := db.ExecContext(ctx, debit, amt, id)
	return err
}

func checkID(id int64) error {
	if id <= 0 {
		return errors.New("bad id")
	}
	return nil
}

func checkRefund(amt int64) error {
	if amt > 0 {
		return errors.New("not a refund")
	}
	return nil
}

// Cents is an amount in cents.
type Cents int32

func debitAs[T ~int32 | ~int64](ctx context.Context, db *sql.DB, id int64, amt T) error {
	a := int64(amt)
	if a <= 0 {
		return errors.New("not positive")
	}
	_, err := db.ExecContext(ctx, guarded, a, id, a)
	return err
}

// GenericSafe converts a Cents amount inside a generic helper.
func GenericSafe(ctx context.Context, db *sql.DB, id int64, amt Cents) error {
	return debitAs(ctx, db, id, amt)
}

func creditAs[T ~int32 | ~int64](ctx context.Context, db *sql.DB, id int64, amt T) error {
	_, err := db.ExecContext(ctx, credit, int64(amt), id)
	return err
}

// GenericUnsafe credits a Cents amount that may be negative.
func GenericUnsafe(ctx context.Context, db *sql.DB, id int64, amt Cents) error {
	return creditAs(ctx, db, id, amt)
}

// SameElementSafe: amts[i] read twice is the same element.
func SameElementSafe(ctx context.Context, db *sql.DB, id int64, amts []int64, i int) error {
	if i < 0 || i >= len(amts) || amts[i] <= 0 {
		return errors.New("bad index")
	}
	_, err := db.ExecContext(ctx, guarded, amts[i], id, amts[i])
	return err
}

// SameElementAfterSortUnknown: sorting between the reads may move
// another element to index i.
func SameElementAfterSortUnknown(ctx context.Context, db *sql.DB, id int64, amts []int64, i int) error {
	if i < 0 || i >= len(amts) || amts[i] > 0 {
		return errors.New("not a refund")
	}
	sort.Slice(amts, func(a, b int) bool { return amts[a] < amts[b] })
	_, err := db.ExecContext(ctx, debit, amts[i], id)
	return err
}

// Ledger is implemented in no package analysed here (as a service whose
// store package is left out of the patterns).
type Ledger interface {
	Debit(ctx context.Context, id, amount int64) error
}

// UnimplementedSafe pays the fee with a guarded debit, then calls a
// ledger whose implementation is not analysed: UNKNOWN while packages of
// the module are left out (the ledger may debit again).
func UnimplementedSafe(ctx context.Context, db *sql.DB, l Ledger, id, amount int64) error {
	if _, err := db.ExecContext(ctx, guarded, 1, id, 1); err != nil {
		return err
	}
	return l.Debit(ctx, id, amount)
}

// ParseKnownRangeSafe: a known text beyond the parse's 32 bits is a range
// error, never a value the write uses.
func ParseKnownRangeSafe(ctx context.Context, db *sql.DB, id int64) error {
	n, err := strconv.ParseInt("3000000000", 10, 32)
	if err == nil && n > 0 {
		_, err = db.ExecContext(ctx, "UPDATE accounts SET balance = -1 WHERE id = ?", id)
	}
	return err
}

// ParseKnownUnsignedUnsafe: ParseUint takes a known text of a number
// above MaxInt64, which int64 wraps.
func ParseKnownUnsignedUnsafe(ctx context.Context, db *sql.DB, id int64) error {
	n, err := strconv.ParseUint("9223372036854775809", 10, 64)
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, credit, int64(n), id)
	return err
}

// ParseUnsignedSignSafe: ParseUint refuses a sign, so a parsed amount is
// never negative and a 32-bit one converts to a non-negative int64.
func ParseUnsignedSignSafe(ctx context.Context, db *sql.DB, id int64, s string) error {
	n, err := strconv.ParseUint(s, 10, 32)
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, credit, int64(n), id)
	return err
}

// PointerArgSafe binds what a *int64 points to, checked.
func PointerArgSafe(ctx context.Context, db *sql.DB, id int64, bal *int64) error {
	if bal == nil || *bal < 0 {
		return nil
	}
	_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = ? WHERE id = ?", bal, id)
	return err
}

// PointerArgUnsafe binds what a non-nil *int64 points to, unchecked.
func PointerArgUnsafe(ctx context.Context, db *sql.DB, id int64, bal *int64) error {
	if bal == nil {
		return nil
	}
	_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = ? WHERE id = ?", bal, id)
	return err
}

// execCopied copies its arguments into a new slice in a loop, whose
// elements the model does not follow.
func execCopied(ctx context.Context, db *sql.DB, q string, args ...any) error {
	a := make([]any, 0, len(args))
	for _, x := range args {
		a = append(a, x)
	}
	_, err := db.ExecContext(ctx, q, a...)
	return err
}

// CopiedArgsUnknown is guarded in its SQL, but its arguments reach the
// call through a slice built in a loop: arbitrary values, marked, never
// an UNSAFE (it was a false UNSAFE).
func CopiedArgsUnknown(ctx context.Context, db *sql.DB, id, amt int64) error {
	return execCopied(ctx, db, guarded, amt, id, amt)
}

// floatBody is a JSON request body.
type floatBody struct {
	Amount float64 `json:"amount"`
}

// JSONFloatSafe: encoding/json never decodes a NaN, so the check of the
// amount holds for the value written.
func JSONFloatSafe(db *sql.DB, r *http.Request) error {
	var b floatBody
	if err := json.NewDecoder(r.Body).Decode(&b); err != nil {
		return err
	}
	if b.Amount < 0 {
		return nil
	}
	_, err := db.Exec("UPDATE accounts SET balance = ? WHERE id = 1", b.Amount)
	return err
}

// FormFloatNaNUnknown: strconv.ParseFloat takes "NaN", which passes the
// check; what the engine stores for a NaN argument is not modelled.
func FormFloatNaNUnknown(db *sql.DB, r *http.Request) error {
	amount, err := strconv.ParseFloat(r.FormValue("amount"), 64)
	if err != nil {
		return err
	}
	if amount < 0 {
		return nil
	}
	_, err = db.Exec("UPDATE accounts SET balance = ? WHERE id = 1", amount)
	return err
}

// SliceElemBranchUnsafe debits by default and credits when credit is
// set, by overwriting an element of its []any arguments under an if: the
// model once kept the last store on every path (a wrong SAFE); the
// element's content is now the one stored on the path taken, and
// credit = false debits.
func SliceElemBranchUnsafe(ctx context.Context, db *sql.DB, id, amt int64, credit bool) error {
	const creditSQL = "UPDATE accounts SET balance = balance + ? WHERE id = ?"
	if amt <= 0 {
		return nil
	}
	args := []any{-amt, id}
	if credit {
		args[0] = amt
	}
	_, err := db.ExecContext(ctx, creditSQL, args...)
	return err
}

// SliceElemSameBlockSafe overwrites the element on every path: the last
// store is what the statement binds.
func SliceElemSameBlockSafe(ctx context.Context, db *sql.DB, id, amt int64) error {
	const creditSQL = "UPDATE accounts SET balance = balance + ? WHERE id = ?"
	if amt <= 0 {
		return nil
	}
	args := []any{-amt, id}
	args[0] = amt
	_, err := db.ExecContext(ctx, creditSQL, args...)
	return err
}

// SliceElemBranchTwiceUnsafe debits by default and credits when credit
// is set, overwriting the element twice in the branch: the second store
// is in the same block as the first, but the path that skips the branch
// still binds -amt (the model once kept the last store on every path: a
// wrong SAFE).
func SliceElemBranchTwiceUnsafe(ctx context.Context, db *sql.DB, id, amt int64, credit bool) error {
	const creditSQL = "UPDATE accounts SET balance = balance + ? WHERE id = ?"
	if amt <= 0 {
		return nil
	}
	args := []any{-amt, id}
	if credit {
		args[0] = 2 * amt
		args[0] = amt
	}
	_, err := db.ExecContext(ctx, creditSQL, args...)
	return err
}

// setFirst stores v as the first argument.
func setFirst(args []any, v int64) {
	args[0] = v
}

// SliceElemHelperThenStoreUnsafe credits when credit is set through a
// helper and a store after it in the same block; the path that skips the
// branch binds -amt.
func SliceElemHelperThenStoreUnsafe(ctx context.Context, db *sql.DB, id, amt int64, credit bool) error {
	const creditSQL = "UPDATE accounts SET balance = balance + ? WHERE id = ?"
	if amt <= 0 {
		return nil
	}
	args := []any{-amt, id}
	if credit {
		setFirst(args, 2*amt)
		args[0] = amt
	}
	_, err := db.ExecContext(ctx, creditSQL, args...)
	return err
}

// SliceElemBranchSafe credits by default and credits twice as much when
// double is set: every path binds a positive amount.
func SliceElemBranchSafe(ctx context.Context, db *sql.DB, id, amt int64, double bool) error {
	const creditSQL = "UPDATE accounts SET balance = balance + ? WHERE id = ?"
	if amt <= 0 || amt > 1_000_000 {
		return nil
	}
	args := []any{amt, id}
	if double {
		args[0] = 2 * amt
	}
	_, err := db.ExecContext(ctx, creditSQL, args...)
	return err
}

// SliceElemLoopUnsafe credits amt once, then takes it back on every
// later round: the element stored after the statement, in the loop, is
// what the next round binds (the model once bound amt every round: a
// wrong SAFE).
func SliceElemLoopUnsafe(db *sql.DB, id, amt int64, n int) error {
	if amt <= 0 || amt > 1_000_000 {
		return nil
	}
	args := []any{amt, id}
	for i := 0; i < n; i++ {
		if _, err := db.Exec("UPDATE accounts SET balance = balance + ? WHERE id = ?", args...); err != nil {
			return err
		}
		args[0] = -amt
	}
	return nil
}

// SliceAppendSharedUnsafe appends two argument lists to one slice with
// spare capacity: the second append overwrites the first one's last
// element, so the guard binds -1 and the debit may go below zero.
func SliceAppendSharedUnsafe(db *sql.DB, id, amt int64) error {
	if amt <= 0 {
		return nil
	}
	base := make([]any, 2, 3)
	base[0], base[1] = amt, id
	debit := append(base, amt)
	other := append(base, int64(-1))
	_, err := db.Exec("UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?", debit...)
	_ = other
	return err
}

// SliceAppendCopiedSafe: the same with no spare capacity, so each append
// copies and the guard binds amt.
func SliceAppendCopiedSafe(db *sql.DB, id, amt int64) error {
	if amt <= 0 {
		return nil
	}
	base := make([]any, 2)
	base[0], base[1] = amt, id
	debit := append(base, amt)
	other := append(base, int64(-1))
	_, err := db.Exec("UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?", debit...)
	_ = other
	return err
}

// SliceGrownForkUnknown appends twice to a slice an append grew, whose
// capacity Go chooses: whether the second append overwrites the first
// one's element is not tracked.
func SliceGrownForkUnknown(db *sql.DB, id, amt int64) error {
	if amt <= 0 {
		return nil
	}
	base := append([]any{amt}, id)
	debit := append(base, amt)
	other := append(base, int64(-1))
	_, err := db.Exec("UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?", debit...)
	_ = other
	return err
}

// SliceCopiedArgsSafe copies a positive amount into a made slice.
func SliceCopiedArgsSafe(db *sql.DB, id, amt int64) error {
	if amt <= 0 {
		return nil
	}
	src := []any{amt, id}
	args := make([]any, len(src))
	copy(args, src)
	_, err := db.Exec("UPDATE accounts SET balance = balance + ? WHERE id = ?", args...)
	return err
}

// SliceHelperWritesUnknown hands the arguments to library code the model
// does not follow (it swaps them) before binding them.
func SliceHelperWritesUnknown(db *sql.DB, id, amt int64) error {
	if amt <= 0 {
		return nil
	}
	args := []any{amt, id}
	slices.Reverse(args)
	_, err := db.Exec("UPDATE accounts SET balance = balance + ? WHERE id = ?", args...)
	return err
}

// SliceMadeUnsetUnknown binds an element of a made slice it never
// stores: nil, which the driver binds as NULL (not modelled).
func SliceMadeUnsetUnknown(db *sql.DB, id, amt int64) error {
	if amt <= 0 {
		return nil
	}
	args := make([]any, 2)
	args[1] = id
	_, err := db.Exec("UPDATE accounts SET balance = balance + ? WHERE id = ?", args...)
	return err
}

// SliceElemLoopHelperUnsafe is SliceElemLoopUnsafe with the statement in
// a helper: the helper's read, inlined in the loop, sees the store the
// previous round made.
func SliceElemLoopHelperUnsafe(db *sql.DB, id, amt int64, n int) error {
	if amt <= 0 || amt > 1_000_000 {
		return nil
	}
	args := []any{amt, id}
	for i := 0; i < n; i++ {
		if err := creditArgs(db, args...); err != nil {
			return err
		}
		args[0] = -amt
	}
	return nil
}

func creditArgs(db *sql.DB, args ...any) error {
	_, err := db.Exec("UPDATE accounts SET balance = balance + ? WHERE id = ?", args...)
	return err
}
