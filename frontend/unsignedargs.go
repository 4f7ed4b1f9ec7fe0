package frontend

import (
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
)

// Unsigned arguments on MySQL (checked on MariaDB 10.11, see the
// groundtruth package): go-sql-driver/mysql converts every Go unsigned
// integer argument (uint, uint8 … uint64, and named types of them) to a
// uint64 and, with the binary protocol of prepared statements (its
// default: interpolateParams=false), sends it flagged UNSIGNED. MySQL
// then computes `balance - ?` as BIGINT UNSIGNED, and a negative result
// is Error 1690 "BIGINT UNSIGNED value is out of range": the statement
// fails instead of writing. The placeholders bound to such arguments are
// marked (sqlir.Param.Unsigned) for the row model (dbmodel unsigned.go).
//
// Only where that is what runs: the MySQL dialect, go-sql-driver
// imported, and no text of the module naming interpolateParams (client
// side interpolation sends the number as a signed literal) or
// NO_UNSIGNED_SUBTRACTION (the SQL mode that makes subtraction signed),
// nor a mysql.Config whose InterpolateParams is set. PostgreSQL and
// SQLite drivers send a uint64 as a signed integer or refuse it: nothing
// is marked there.

// mysqlDriver is the driver whose binding is modelled.
const mysqlDriver = "github.com/go-sql-driver/mysql"

// isUnsignedArg reports whether a value of Go type typ is bound as an
// unsigned integer: an unsigned integer kind without a Value method (a
// driver.Valuer chooses its own value).
func isUnsignedArg(typ types.Type) bool {
	if typ == nil {
		return false
	}
	b, ok := typ.Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsUnsigned == 0 || b.Kind() == types.Uintptr {
		return false
	}
	for _, t := range []types.Type{typ, types.NewPointer(typ)} {
		if sel := types.NewMethodSet(t).Lookup(nil, "Value"); sel != nil {
			return false
		}
	}
	return true
}

// variadicArgTypes returns the Go types of the values a call passes in
// its variadic ...any argument v (the slice the compiler builds), by
// position; nil where not known.
func variadicArgTypes(v ssa.Value) map[int]types.Type {
	sl, ok := v.(*ssa.Slice)
	if !ok {
		return nil
	}
	arr, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return nil
	}
	out := map[int]types.Type{}
	for _, r := range *arr.Referrers() {
		ia, ok := r.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		c, ok := ia.Index.(*ssa.Const)
		if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
			continue
		}
		i, _ := constant.Int64Val(c.Value)
		for _, u := range *ia.Referrers() {
			if st, ok := u.(*ssa.Store); ok && st.Addr == ia {
				if mi, ok := st.Val.(*ssa.MakeInterface); ok {
					out[int(i)] = mi.X.Type()
				}
			}
		}
	}
	return out
}

// unsignedBinding reports whether the program's MySQL arguments are bound
// as go-sql-driver's binary protocol does (see above).
func (l *Loaded) unsignedBinding() bool {
	if l.unsignedCache == 0 {
		l.unsignedCache = 2
		if l.importsPackage(mysqlDriver) && !l.interpolates() {
			l.unsignedCache = 1
		}
	}
	return l.unsignedCache == 1
}

// importsPackage reports whether path is among the program's packages.
func (l *Loaded) importsPackage(path string) bool {
	for _, p := range l.Prog.AllPackages() {
		if p.Pkg.Path() == path {
			return true
		}
	}
	return false
}

// interpolates reports whether some module code names interpolateParams
// or NO_UNSIGNED_SUBTRACTION in a string, or sets a mysql.Config's
// InterpolateParams.
func (l *Loaded) interpolates() bool {
	for _, fn := range l.allModuleFunctions() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if fa, ok := instr.(*ssa.FieldAddr); ok {
					if f := fieldOf(fa); f != nil && f.Name() == "InterpolateParams" && f.Pkg() != nil && f.Pkg().Path() == mysqlDriver {
						return true
					}
				}
			}
		}
	}
	for _, text := range l.moduleStrings() {
		s := strings.ToLower(text)
		if strings.Contains(s, "interpolateparams") || strings.Contains(s, "no_unsigned_subtraction") {
			return true
		}
	}
	return false
}

// bindUnsignedArgs marks the placeholders of stmt bound to unsigned
// arguments (t.argUnsigned, taken), on MySQL with go-sql-driver's binding.
func (t *translator) bindUnsignedArgs(stmt sqlir.Statement, args []ir.Expr, known bool) sqlir.Statement {
	marks := t.argUnsigned
	t.argUnsigned = nil
	if len(marks) == 0 || !known || t.dialect != sqlparse.MySQL || !t.l.unsignedBinding() {
		return stmt
	}
	marked := func(e sqlir.Expr) bool {
		p, ok := e.(*sqlir.Param)
		return ok && marks[p.Index] && p.Index < len(args)
	}
	return sqlir.RewriteStatement(stmt, func(e sqlir.Expr) (sqlir.Expr, bool) {
		if b, ok := e.(*sqlir.Binary); ok && (b.Op == sqlir.OpAdd || b.Op == sqlir.OpSub || b.Op == sqlir.OpMul) && (marked(b.X) || marked(b.Y)) {
			t.p.Assume(unsignedAssumption)
		}
		if !marked(e) {
			return nil, false
		}
		return &sqlir.Param{Index: e.(*sqlir.Param).Index, Unsigned: true}, true
	})
}

// unsignedAssumption is said beside a verdict whose SQL computes with an
// unsigned argument.
const unsignedAssumption = "Go unsigned integer arguments are bound as BIGINT UNSIGNED (go-sql-driver/mysql with interpolateParams off, its default): MySQL fails arithmetic with them whose result is negative"

// unsignedArgs returns the positions of the arguments of the call instr's
// variadic parameter (number params among the call's arguments, the
// receiver of an interface call first) that are Go unsigned integers;
// nil if none.
func unsignedArgs(instr ssa.CallInstruction, params, n int) map[int]bool {
	return argsOfType(instr, params, n, isUnsignedArg)
}

// argsOfType returns the positions of the arguments of the call instr's
// variadic parameter (number params among the call's arguments, the
// receiver of an interface call first; the first n of them) whose Go
// types pick accepts; nil if none.
func argsOfType(instr ssa.CallInstruction, params, n int, pick func(types.Type) bool) map[int]bool {
	if instr == nil {
		return nil
	}
	c := instr.Common()
	ops := c.Args
	if c.IsInvoke() {
		ops = append([]ssa.Value{c.Value}, c.Args...)
	}
	if params < 0 || params >= len(ops) {
		return nil
	}
	var out map[int]bool
	for i, typ := range variadicArgTypes(ops[params]) {
		if i < n && pick(typ) {
			if out == nil {
				out = map[int]bool{}
			}
			out[i] = true
		}
	}
	return out
}
