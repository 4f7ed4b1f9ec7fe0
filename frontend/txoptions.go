package frontend

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
)

// txOptions is what a BEGIN call's transaction options say of the
// transaction's isolation level.
type txOptions struct {
	// given: the call is given options that may set a level (a *sql.TxOptions
	// that is not nil, a pgx.TxOptions other than the zero value).
	given bool
	// level is the level they set, as the library spells it
	// (ir.TxOp.Level): "" when the options are not followed.
	level string
}

// sqlLevelName names a level of database/sql (sql.IsolationLevel's
// String) that every driver of the supported dialects accepts; "" for
// the others (WriteCommitted, Snapshot, Linearizable), which depend on
// the driver, which may refuse them: they are not followed.
func sqlLevelName(n int64) string {
	switch n {
	case 1:
		return "Read Uncommitted"
	case 2:
		return "Read Committed"
	case 4:
		return "Repeatable Read"
	case 6:
		return "Serializable"
	}
	return ""
}

// isPgxLevel reports whether s is the value of one of pgx's TxIsoLevel
// constants.
func isPgxLevel(s string) bool {
	switch s {
	case "serializable", "repeatable read", "read committed", "read uncommitted":
		return true
	}
	return false
}

// txOptionsOf returns what the options argument of the BEGIN call instr
// (arguments args) sets. The level is followed where the options are
// built by a composite literal in the function of the call (inlined: a
// parameter of it is the caller's value) whose level field is stored
// once, before the call reads them on every path, with a constant of the
// driver-independent levels (a parameter bound to a constant at the
// call site counts): then every path gives that constant.
func (t *translator) txOptionsOf(f *frame, instr ssa.CallInstruction, a apiCall, args []value) txOptions {
	i, ok := optionsArg(a, args)
	if !ok {
		return txOptions{}
	}
	if f == nil || instr == nil {
		return txOptions{given: true}
	}
	v := optionsValue(instr.Common(), a.argTypes[i])
	if v == nil {
		return txOptions{given: true}
	}
	level, zero, ok := t.storedLevel(f, v, instr)
	switch {
	case !ok:
		return txOptions{given: true}
	case zero:
		return txOptions{} // the driver's default: as if no options
	}
	return txOptions{given: true, level: level}
}

// optionsArg returns the index of a BEGIN call's transaction options
// among args: a *sql.TxOptions that is not nil, or a pgx.TxOptions other
// than the zero value.
func optionsArg(a apiCall, args []value) (int, bool) {
	for i, typ := range a.argTypes {
		if i >= len(args) || typ == nil || !isTxOptions(typ) {
			continue
		}
		if args[i].obj != nil && args[i].obj.kind == objNil {
			continue // nil, or the zero pgx.TxOptions{}: no level set
		}
		return i, true
	}
	return 0, false
}

// isTxOptions reports whether typ is a TxOptions struct or a pointer to one.
func isTxOptions(typ types.Type) bool {
	if ptr, ok := typ.(*types.Pointer); ok {
		typ = ptr.Elem()
	}
	n, ok := typ.(*types.Named)
	return ok && n.Obj().Name() == "TxOptions"
}

// optionsValue returns the SSA argument of c of type typ (nil if none).
func optionsValue(c *ssa.CallCommon, typ types.Type) ssa.Value {
	for _, v := range c.Args {
		if types.Identical(v.Type(), typ) {
			return v
		}
	}
	return nil
}

// storedLevel returns the level a TxOptions value v, read by the
// instruction use, holds: zero when its level field is the zero value
// (the driver's default); false when it is not followed.
func (t *translator) storedLevel(f *frame, v ssa.Value, use ssa.Instruction) (level string, zero, ok bool) {
	if load, isLoad := v.(*ssa.UnOp); isLoad && load.Op == token.MUL {
		// A pgx.TxOptions passed by value: the load of the literal.
		v, use = load.X, load
	}
	alloc, isAlloc := v.(*ssa.Alloc)
	if !isAlloc || alloc.Parent() != f.fn {
		return "", false, false
	}
	st, ok := levelField(alloc)
	if !ok {
		return "", false, false
	}
	store, ok := onlyStore(alloc, st, use)
	if !ok {
		return "", false, false
	}
	if store == nil {
		return "", true, true
	}
	if !storedBefore(alloc, store, use) {
		return "", false, false
	}
	return constLevel(t.val(f, store.Val))
}

// levelField returns the index of the isolation level field of the
// TxOptions struct alloc points to (sql's Isolation, pgx's IsoLevel).
func levelField(alloc *ssa.Alloc) (int, bool) {
	st, ok := alloc.Type().(*types.Pointer).Elem().Underlying().(*types.Struct)
	if !ok {
		return 0, false
	}
	for i := 0; i < st.NumFields(); i++ {
		if name := st.Field(i).Name(); name == "Isolation" || name == "IsoLevel" {
			return i, true
		}
	}
	return 0, false
}

// onlyStore returns the one store into field of alloc (nil if there is
// none); false where the options may be written otherwise: more than one
// store, or alloc or the field's address handed to anything but loads,
// stores into it, and use.
func onlyStore(alloc *ssa.Alloc, field int, use ssa.Instruction) (*ssa.Store, bool) {
	var store *ssa.Store
	for _, r := range *alloc.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return nil, false
			}
		case *ssa.FieldAddr:
			if r.Field != field {
				continue // another field's address cannot change the level
			}
			for _, fr := range *r.Referrers() {
				s, ok := storeInto(fr, r)
				if !ok {
					return nil, false
				}
				if s != nil {
					if store != nil {
						return nil, false
					}
					store = s
				}
			}
		default:
			if r != use {
				return nil, false
			}
		}
	}
	return store, true
}

// storeInto classifies a referrer of the level field's address addr: a
// store into it (returned), a load or debug reference (nil), or anything
// else (false: the address escapes).
func storeInto(r ssa.Instruction, addr ssa.Value) (*ssa.Store, bool) {
	switch r := r.(type) {
	case *ssa.Store:
		return r, r.Addr == addr && r.Val != addr
	case *ssa.UnOp:
		return nil, r.Op == token.MUL
	case *ssa.DebugRef:
		return nil, true
	}
	return nil, false
}

// storedBefore reports whether store runs on every path to use after the
// last run of alloc (which zeroes the options): in use's block before it,
// or in a block that dominates use's block and from which alloc's block
// cannot be reached again.
func storedBefore(alloc *ssa.Alloc, store *ssa.Store, use ssa.Instruction) bool {
	sb, ub := store.Block(), use.Block()
	if sb == ub {
		return index(sb, store) < index(ub, use)
	}
	return sb.Dominates(ub) && !reachesAgain(sb, alloc.Block())
}

// index returns the position of instr in b.
func index(b *ssa.BasicBlock, instr ssa.Instruction) int {
	for i, x := range b.Instrs {
		if x == instr {
			return i
		}
	}
	return -1
}

// reachesAgain reports whether target can be reached from a successor of
// from.
func reachesAgain(from, target *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{}
	work := append([]*ssa.BasicBlock(nil), from.Succs...)
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if b == target {
			return true
		}
		if !seen[b] {
			seen[b] = true
			work = append(work, b.Succs...)
		}
	}
	return false
}

// constLevel names the level a stored value holds when it is one
// constant (zero: the driver's default; false: not a constant, or a level
// not every driver accepts).
func constLevel(x value) (level string, zero, ok bool) {
	if x.strKnown {
		switch {
		case x.str == "":
			return "", true, true
		case isPgxLevel(x.str):
			return x.str, false, true
		}
		return "", false, false
	}
	c, isInt := x.expr.(*ir.IntConst)
	if !isInt || !c.V.IsInt64() {
		return "", false, false
	}
	if c.V.Int64() == 0 {
		return "", true, true
	}
	name := sqlLevelName(c.V.Int64())
	return name, false, name != ""
}

// beginTx emits BEGIN of a new transaction given options opts and
// returns its id and the variable that says whether BEGIN failed.
func (t *translator) beginTx(opts txOptions) (ir.Tx, *ir.Var) {
	t.txs++
	id := ir.Tx(t.txs)
	errV := t.errVar()
	t.emit(&ir.TxOp{Op: ir.Begin, Tx: id, Err: errV, Options: opts.given, Level: opts.level, Info: t.info(ir.KindSQL, "BEGIN")})
	return id, errV
}
