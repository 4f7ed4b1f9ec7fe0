package frontend

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlparse"
)

// txOptions is what a BEGIN call's transaction options say of the
// transaction's isolation level and access mode.
type txOptions struct {
	// given: the call is given options that may set a level (a *sql.TxOptions
	// that is not nil, a pgx.TxOptions other than the zero value).
	given bool
	// level is the level they set, as the library spells it
	// (ir.TxOp.Level): "" when the options are not followed.
	level string
	// readOnly: the options make the transaction read-only on every path
	// (sql.TxOptions.ReadOnly true, pgx's AccessMode pgx.ReadOnly) and
	// the dialect's engine refuses its writes (readOnlyRefusesWrites).
	readOnly bool
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
	opts := txOptions{readOnly: readOnlyRefusesWrites(t.dialect) && t.storedReadOnly(f, v, instr)}
	level, zero, ok := t.storedLevel(f, v, instr)
	switch {
	case !ok:
		opts.given = true
	case !zero:
		opts.given, opts.level = true, level
	}
	return opts // zero: the driver's default level, as if no options
}

// readOnlyRefusesWrites reports whether the drivers of dialect d honour
// a read-only transaction's options so that its engine refuses every
// write in it: PostgreSQL (SQLSTATE 25006) through pgx and lib/pq,
// MariaDB/MySQL (error 1792) through go-sql-driver/mysql. Not SQLite:
// modernc.org/sqlite ignores sql.TxOptions.ReadOnly (the write commits;
// groundtruth.TestReadOnlyTransactions).
func readOnlyRefusesWrites(d sqlparse.Dialect) bool {
	return d == sqlparse.Postgres || d == sqlparse.MySQL
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
	x, zero, ok := t.storedOption(f, v, use, "Isolation", "IsoLevel")
	if !ok || zero {
		return "", zero, ok
	}
	return constLevel(x)
}

// storedReadOnly reports whether a TxOptions value v, read by the
// instruction use, makes the transaction read-only on every path: its
// ReadOnly field (database/sql) holds the constant true, or its
// AccessMode field (pgx) the constant pgx.ReadOnly while its BeginQuery,
// which pgx would send instead, is left empty. false where it is not
// followed: the write may then succeed or fail, as any write may.
func (t *translator) storedReadOnly(f *frame, v ssa.Value, use ssa.Instruction) bool {
	x, zero, ok := t.storedOption(f, v, use, "ReadOnly", "AccessMode")
	if !ok || zero {
		return false
	}
	if hasOption(v, "BeginQuery") {
		if _, noQuery, ok := t.storedOption(f, v, use, "BeginQuery"); !ok || !noQuery {
			return false
		}
	}
	if b, isBool := x.expr.(ir.BoolConst); isBool {
		return bool(b)
	}
	return x.strKnown && x.str == "read only"
}

// storedOption returns the value a TxOptions value v, read by the
// instruction use, holds in the field named one of names: zero when the
// field keeps its zero value; false when it is not followed: v is not
// a composite literal of the function of the call, or its field is
// stored more than once, not before use on every path, or its address
// escapes.
func (t *translator) storedOption(f *frame, v ssa.Value, use ssa.Instruction, names ...string) (x value, zero, ok bool) {
	alloc, use, ok := optionsAlloc(v, use)
	if !ok || alloc.Parent() != f.fn {
		return value{}, false, false
	}
	field, ok := optionField(alloc, names...)
	if !ok {
		return value{}, false, false
	}
	store, ok := onlyStore(alloc, field, use)
	switch {
	case !ok:
		return value{}, false, false
	case store == nil:
		return value{}, true, true
	case !storedBefore(alloc, store, use):
		return value{}, false, false
	}
	return t.val(f, store.Val), false, true
}

// optionsAlloc returns the composite literal a TxOptions value v refers
// to and the instruction that reads it for use: the load of the literal
// for a pgx.TxOptions passed by value.
func optionsAlloc(v ssa.Value, use ssa.Instruction) (*ssa.Alloc, ssa.Instruction, bool) {
	if load, isLoad := v.(*ssa.UnOp); isLoad && load.Op == token.MUL {
		v, use = load.X, load
	}
	alloc, ok := v.(*ssa.Alloc)
	return alloc, use, ok
}

// hasOption reports whether the TxOptions literal v refers to has a
// field named name.
func hasOption(v ssa.Value, name string) bool {
	alloc, _, ok := optionsAlloc(v, nil)
	if !ok {
		return false
	}
	_, ok = optionField(alloc, name)
	return ok
}

// optionField returns the index of the field named one of names of the
// TxOptions struct alloc points to (the isolation level: sql's
// Isolation, pgx's IsoLevel; the access mode: sql's ReadOnly, pgx's
// AccessMode).
func optionField(alloc *ssa.Alloc, names ...string) (int, bool) {
	st, ok := alloc.Type().(*types.Pointer).Elem().Underlying().(*types.Struct)
	if !ok {
		return 0, false
	}
	for i := 0; i < st.NumFields(); i++ {
		if slices.Contains(names, st.Field(i).Name()) {
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
	t.emit(&ir.TxOp{Op: ir.Begin, Tx: id, Err: errV, Options: opts.given, Level: opts.level, ReadOnly: opts.readOnly, Info: t.info(ir.KindSQL, "BEGIN")})
	return id, errV
}
