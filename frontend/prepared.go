package frontend

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/frontend/dblib"
	"github.com/dbverify/dbverify/sqlir"
)

// Statements prepared once and kept in a struct field. Services prepare
// their statements in a constructor and run them from methods:
//
//	s.debit, err = db.Prepare("UPDATE accounts SET balance = balance - ? WHERE id = ?")
//	…
//	func (s *Store) Withdraw(…) { s.debit.Exec(amt, id) }
//
// An entry's receiver is an input, so its field holds a statement whose
// SQL the entry does not see. A field of type *sql.Stmt gets its SQL from
// the program when every store into it anywhere in the module is the
// statement a (*sql.DB).Prepare or PrepareContext of one constant SQL text
// returned (or nil), and its address is used for nothing but those stores
// and loads: a non-nil statement in the field is then that one, prepared on
// the pool. The field must belong to a package of the module (stores from
// outside it would not be seen). Anything else leaves the SQL unknown (the
// entry is UNKNOWN, as before).

// preparedText returns the SQL text of the statement field f always holds
// (see above).
func (l *Loaded) preparedText(f *types.Var) (string, bool) {
	if l.preparedCache == nil {
		l.preparedCache = l.preparedFields()
	}
	text, ok := l.preparedCache[f]
	return text, ok && text != ""
}

// preparedFields maps each *sql.Stmt field stored by module code to its
// one prepared SQL text ("" when the stores disagree or are not
// understood).
func (l *Loaded) preparedFields() map[*types.Var]string {
	out := map[*types.Var]string{}
	set := func(f *types.Var, text string, ok bool) {
		if old, seen := out[f]; !ok || (seen && old != text) {
			out[f] = ""
			return
		}
		out[f] = text
	}
	for _, fn := range l.allModuleFunctions() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				fa, ok := instr.(*ssa.FieldAddr)
				if !ok {
					continue
				}
				f := fieldOf(fa)
				if f == nil {
					continue
				}
				if k, isDB := dbObjectKind(f.Type()); !isDB || k != objStmt {
					continue
				}
				if f.Pkg() == nil || !l.modulePackage(f.Pkg()) {
					set(f, "", false)
					continue
				}
				for _, ref := range *fa.Referrers() {
					switch r := ref.(type) {
					case *ssa.Store:
						if r.Addr != fa {
							set(f, "", false)
						} else if text, isNil, ok := preparedOnPool(r.Val); !isNil {
							set(f, text, ok)
						}
					case *ssa.UnOp:
						if r.Op != token.MUL {
							set(f, "", false)
						}
					case *ssa.DebugRef:
					default:
						set(f, "", false)
					}
				}
			}
		}
	}
	return out
}

// preparedOnPool returns the constant SQL text of the statement v holds
// when v is the statement result of (*sql.DB).Prepare or PrepareContext;
// isNil when v is the constant nil.
func preparedOnPool(v ssa.Value) (text string, isNil, ok bool) {
	if c, isConst := v.(*ssa.Const); isConst && c.IsNil() {
		return "", true, false
	}
	ex, isExtract := v.(*ssa.Extract)
	if !isExtract || ex.Index != 0 {
		return "", false, false
	}
	call, isCall := ex.Tuple.(*ssa.Call)
	if !isCall {
		return "", false, false
	}
	callee := call.Common().StaticCallee()
	if callee == nil || callee.Signature.Recv() == nil || types.TypeString(callee.Signature.Recv().Type(), nil) != "*database/sql.DB" {
		return "", false, false
	}
	args := call.Common().Args
	var query ssa.Value
	switch callee.Name() {
	case "Prepare":
		if len(args) == 2 {
			query = args[1]
		}
	case "PrepareContext":
		if len(args) == 3 {
			query = args[2]
		}
	}
	if query == nil {
		return "", false, false
	}
	text, ok = constString(query)
	return text, false, ok
}

// modulePackage reports whether pkg is a package of the module whose
// functions are inlined.
func (l *Loaded) modulePackage(pkg *types.Package) bool {
	for p := range l.module {
		if p.Pkg == pkg {
			return true
		}
	}
	return false
}

// preparedCall returns the SQL a call on a prepared statement runs when
// the statement is loaded from a field preparedText knows, or is the
// statement a Prepare of the same function returned (preparedHere), for
// the tables an entry writes (sites.go).
func (l *Loaded) preparedCall(c *ssa.CallCommon) (sqlir.Statement, bool) {
	callee := c.StaticCallee()
	if callee == nil || len(c.Args) == 0 {
		return nil, false
	}
	a, ok := staticAPICall(callee, c.Signature())
	if !ok || a.kind() != objStmt || !a.Op.RunsText() || a.Op == dblib.Prepare {
		return nil, false
	}
	recv := c.Args[0]
	if bind, ok := recv.(*ssa.Call); ok {
		// tx.Stmt(s.debit) / tx.StmtContext(ctx, s.debit): the field's
		// statement inside the transaction.
		if fn := bind.Common().StaticCallee(); fn != nil && (fn.Name() == "Stmt" || fn.Name() == "StmtContext") && len(bind.Common().Args) > 0 {
			args := bind.Common().Args
			recv = args[len(args)-1]
		}
	}
	if stmt, ok := l.preparedHere(recv); ok {
		return stmt, true
	}
	load, ok := recv.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil, false
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return nil, false
	}
	f := fieldOf(fa)
	if f == nil {
		return nil, false
	}
	text, ok := l.preparedText(f)
	if !ok {
		return nil, false
	}
	stmt, err := l.parseIn(l.Dialect, text)
	return stmt, err == nil
}

// preparedHere returns the SQL of the statement v when v is the statement
// result of a Prepare call whose SQL text is known (its site: the SQL the
// translation runs when the statement is executed), as in
//
//	upd, err := tx.PrepareContext(ctx, "UPDATE inventory SET …")
//	upd.ExecContext(ctx, …)
//
// Before, the coverage said such a function writes "?" (independent
// tester adv17's prepared Move) while its verification knew the table.
func (l *Loaded) preparedHere(v ssa.Value) (sqlir.Statement, bool) {
	ex, ok := v.(*ssa.Extract)
	if !ok || ex.Index != 0 {
		return nil, false
	}
	call, ok := ex.Tuple.(*ssa.Call)
	if !ok {
		return nil, false
	}
	s := l.sites[call]
	if s == nil || !s.Known || s.Stmt == nil || (s.api.Op != dblib.Prepare && s.api.Op != dblib.PrepareNamed) {
		return nil, false
	}
	return s.Stmt, true
}
