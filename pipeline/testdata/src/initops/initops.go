// Package initops keeps tables of operations in package maps filled by
// init (adv16 cand/initmap): Apply and ApplyGuarded look an operation up
// and run it; Hooks is exported, so another package may put anything
// there, and RunHook's call through it is not resolved.
package initops

import (
	"database/sql"
	"fmt"
	"os"
)

type opFunc func(db *sql.DB, id, amt int64) error

var ops = map[string]opFunc{
	"debit": debit,
}

var guarded = map[string]opFunc{}

// Hooks are run by RunHook; other packages may register theirs.
var Hooks = map[string]opFunc{}

func init() {
	ops["chargeback"] = chargeback
	guarded["debit"] = debit
	guarded["credit"] = credit
	Hooks["debit"] = debit
	flagged["debit"] = debit
	if os.Getenv("CHARGEBACKS") != "" {
		flagged["chargeback"] = chargeback
	}
}

// flagged holds chargeback only in some deployments.
var flagged = map[string]opFunc{}

// ApplyFlagged runs an operation of flagged.
func ApplyFlagged(db *sql.DB, kind string, id, amt int64) error {
	if op, ok := flagged[kind]; ok {
		return op(db, id, amt)
	}
	return nil
}

func debit(db *sql.DB, id, amt int64) error {
	if amt <= 0 {
		return nil
	}
	_, err := db.Exec("UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?", amt, id, amt)
	return err
}

func credit(db *sql.DB, id, amt int64) error {
	if amt <= 0 {
		return nil
	}
	_, err := db.Exec("UPDATE accounts SET balance = balance + ? WHERE id = ?", amt, id)
	return err
}

func chargeback(db *sql.DB, id, amt int64) error {
	_, err := db.Exec("UPDATE accounts SET balance = balance - ? WHERE id = ?", amt, id)
	return err
}

// Apply runs the operation named kind: chargeback overdraws.
func Apply(db *sql.DB, kind string, id, amt int64) error {
	op, ok := ops[kind]
	if !ok {
		return fmt.Errorf("unknown %q", kind)
	}
	return op(db, id, amt)
}

// ApplyGuarded runs a debit or a credit, both guarded.
func ApplyGuarded(db *sql.DB, kind string, id, amt int64) error {
	op, ok := guarded[kind]
	if !ok {
		return fmt.Errorf("unknown %q", kind)
	}
	return op(db, id, amt)
}

// RunHook runs a registered hook.
func RunHook(db *sql.DB, name string, id, amt int64) error {
	if h, ok := Hooks[name]; ok {
		return h(db, id, amt)
	}
	return nil
}
