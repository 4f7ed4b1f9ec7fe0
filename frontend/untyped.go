package frontend

import (
	"fmt"
	"go/types"
	"regexp"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/dbverify/dbverify/frontend/dblib"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
)

// Parameters PostgreSQL cannot type (checked on PostgreSQL 15 with pgx:
// groundtruth TestPostgresUntypedParams). When the server prepares a
// statement it infers each parameter's type from where it appears; an
// operator (+ - * /, unary -) whose operands are all bare parameters that
// appear nowhere else (`balance - ($1 + $2)`, `$1 * $2`, `-$1`) has no
// type to start
// from, and the statement fails to prepare: "operator is not unique:
// unknown + unknown" (42725). It never runs, on any arguments.
//
// pgx (v5, native or through database/sql) prepares every statement on
// the server in its default exec mode: there such a statement is modelled
// as failing at every call (its error path runs), said beside the
// verdict. A program that chooses another exec mode (simple protocol,
// QueryExecModeExec: types from the Go arguments) or uses another driver
// gets UNKNOWN naming the operator: the model does not know whether it
// runs. (Before, the statement ran with the arithmetic the model gave it,
// and its counterexample could not run.)

// dollarRE matches a $n placeholder.
var dollarRE = regexp.MustCompile(`\$(\d+)`)

// untypedArith returns the text of an operator of stmt whose operands are
// bare parameters each written once in text (so nowhere else), or false.
func untypedArith(stmt sqlir.Statement, text string, nargs int) (string, bool) {
	count := map[string]int{}
	for _, m := range dollarRE.FindAllStringSubmatch(text, -1) {
		count[m[1]]++
	}
	once := func(e sqlir.Expr) (string, bool) {
		p, ok := e.(*sqlir.Param)
		if !ok || p.Index >= nargs {
			return "", false
		}
		n := fmt.Sprint(p.Index + 1)
		return "$" + n, count[n] == 1
	}
	found := ""
	sqlir.RewriteStatement(stmt, func(e sqlir.Expr) (sqlir.Expr, bool) {
		switch e := e.(type) {
		case *sqlir.Binary:
			if !(e.Op == sqlir.OpAdd || e.Op == sqlir.OpSub || e.Op == sqlir.OpMul || e.Op == sqlir.OpDiv) || found != "" {
				break
			}
			a, okA := once(e.X)
			b, okB := once(e.Y)
			if op := fmt.Sprintf("%s %s %s", a, e.Op, b); okA && okB && bareInText(text, a, e.Op.String(), b) {
				found = op
			}
		case *sqlir.Unary:
			if a, ok := once(e.X); ok && e.Op == sqlir.OpNeg && found == "" && bareInText(text, "", "-", a) {
				found = "-" + a
			}
		}
		return nil, false
	})
	return found, found != ""
}

// bareInText reports whether text spells `a op b` (a "" for a unary
// operator) with nothing between the parameters and the operator and no
// cast (::type) after b: the parsed statement drops casts, which type a
// parameter ($1::bigint + $2 runs).
func bareInText(text, a, op, b string) bool {
	re := regexp.MustCompile(regexp.QuoteMeta(a) + `\s*` + regexp.QuoteMeta(op) + `\s*` + regexp.QuoteMeta(b) + `(\D|$)`)
	loc := re.FindStringIndex(text)
	if loc == nil {
		return false
	}
	rest := strings.TrimLeft(text[loc[1]-1:], " \t\r\n)")
	if loc[1] == len(text) {
		rest = ""
	}
	return !strings.HasPrefix(rest, "::") && !strings.HasPrefix(strings.ToUpper(rest), "AS ")
}

// untypedStatement translates a statement with such an operator (op): on
// pgx's server-side preparation, a call that fails (Exec only); else
// UNKNOWN.
func (t *translator) untypedStatement(kind dblib.Op, op string, info ir.Info, results *types.Tuple) value {
	if kind != dblib.Exec || !t.l.serverTypesParams() {
		t.unsupported("PostgreSQL cannot infer the types of the parameters of %s (both appear nowhere else): the statement fails to prepare (42725) where the server prepares it, and runs where the driver sends the types; cast one (%s::bigint)", op, strings.Fields(op)[0])
		return t.freshResults("sql()", results)
	}
	t.p.Assume(fmt.Sprintf("the statement at %s always fails: PostgreSQL cannot infer the types of the parameters of %s (42725), and pgx prepares it on the server", info.Position(), op))
	errV := t.errVar()
	aff := t.p.NewVar("rowsAffected", ir.Int, ir.Local)
	t.emit(&ir.Assign{Lhs: []*ir.Var{errV}, Rhs: []ir.Expr{ir.True}, Info: info})
	t.emit(&ir.Havoc{Vars: []*ir.Var{aff}, Info: info})
	return value{tuple: []value{{obj: &object{kind: objResult, affected: aff}}, {expr: errV}}}
}

// pgxPath is the driver whose preparation is modelled.
const pgxPath = "github.com/jackc/pgx/v5"

// serverTypesParams reports whether the program's PostgreSQL statements
// are prepared by the server with parameter types left to it: pgx v5 is
// its only PostgreSQL driver, and no module code chooses an exec mode (a
// pgx.QueryExecMode value, a DefaultQueryExecMode field, or a connection
// string naming default_query_exec_mode or prefer_simple_protocol).
func (l *Loaded) serverTypesParams() bool {
	usesPgx := false
	for _, p := range l.Prog.AllPackages() {
		usesPgx = usesPgx || strings.HasPrefix(p.Pkg.Path(), pgxPath)
	}
	if !usesPgx {
		return false
	}
	for _, p := range l.Prog.AllPackages() {
		if d, ok := dblib.DriverDialect(p.Pkg.Path()); ok && d == sqlparse.Postgres && !strings.HasPrefix(p.Pkg.Path(), pgxPath) {
			return false // another PostgreSQL driver (lib/pq)
		}
	}
	return !l.pgxModeChosen()
}

// pgxModeChosen reports whether module code may choose pgx's exec mode:
// a pgx.QueryExecMode value, a DefaultQueryExecMode or
// PreferSimpleProtocol field, or a string naming default_query_exec_mode
// or prefer_simple_protocol.
func (l *Loaded) pgxModeChosen() bool {
	var ops []*ssa.Value
	for _, fn := range l.allModuleFunctions() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if fa, ok := instr.(*ssa.FieldAddr); ok {
					if f := fieldOf(fa); f != nil && (f.Name() == "DefaultQueryExecMode" || f.Name() == "PreferSimpleProtocol") {
						return true
					}
				}
				for _, op := range instr.Operands(ops[:0]) {
					if *op == nil {
						continue
					}
					if strings.HasSuffix(types.TypeString((*op).Type(), nil), pgxPath+".QueryExecMode") {
						return true
					}
					if s, ok := constString(*op); ok {
						s = strings.ToLower(s)
						if strings.Contains(s, "default_query_exec_mode") || strings.Contains(s, "prefer_simple_protocol") {
							return true
						}
					}
				}
			}
		}
	}
	return false
}
