package frontend

import (
	"strings"

	"github.com/dbverify/dbverify/frontend/dblib"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlparse"
)

// Integer arguments of PostgreSQL parameters the server types int2 or
// int4. PostgreSQL infers a parameter's type from where it appears
// (points - $1, member_id = $2, SET points = $1 with points INTEGER: int4),
// and both drivers bind the argument as that type: pgx encodes it and
// refuses a value out of the type's range before sending anything ("unable
// to encode 2147483648 into binary format for int4"), lib/pq sends its
// text, which the server refuses ("value "2147483648" is out of range for
// type integer"). The statement fails either way; a Go int64 there is not
// any integer (adv16 fu4: a counterexample with n = 2^31 that no run can
// follow). The row model finds the parameters (it reads the schema's
// column types); the statement says how its driver fails
// (ir.IntParamCheck). A cast in the text (::bigint, CAST) types its
// parameter and is dropped by the parsers: such a statement is left
// unchecked, as are other drivers and pgx's exec modes that send the Go
// type's own (simple protocol, QueryExecModeExec).

// libPQPath is the PostgreSQL driver that sends arguments as text.
const libPQPath = "github.com/lib/pq"

// intParams returns how the statement of SQL text fails on an integer
// argument out of the range of the parameter type PostgreSQL infers.
func (t *translator) intParams(text string) ir.IntParamCheck {
	lower := strings.ToLower(text)
	if t.dialect != sqlparse.Postgres || strings.Contains(lower, "::") || strings.Contains(lower, "cast") {
		return ir.IntParamsUnchecked
	}
	return t.l.pgIntParams()
}

// pgIntParams returns how the program's PostgreSQL driver binds an
// integer argument out of the range of its parameter's type: pgx (in its
// default exec modes) refuses it, lib/pq's text fails on the server;
// unchecked with both drivers, another, or an exec mode chosen.
func (l *Loaded) pgIntParams() ir.IntParamCheck {
	if l.intParamsCache == 0 {
		l.intParamsCache = int(l.decidePGIntParams()) + 1
	}
	return ir.IntParamCheck(l.intParamsCache - 1)
}

func (l *Loaded) decidePGIntParams() ir.IntParamCheck {
	pgx, pq := false, false
	for _, p := range l.Prog.AllPackages() {
		path := p.Pkg.Path()
		switch d, ok := dblib.DriverDialect(path); {
		case strings.HasPrefix(path, pgxPath):
			pgx = true
		case path == libPQPath:
			pq = true
		case ok && d == sqlparse.Postgres:
			return ir.IntParamsUnchecked // another PostgreSQL driver
		}
	}
	switch {
	case pgx && pq:
		return ir.IntParamsUnchecked // which one runs a statement is not known
	case pq:
		return ir.IntParamsServerRefuses
	case pgx && !l.pgxModeChosen():
		return ir.IntParamsDriverRefuses
	}
	return ir.IntParamsUnchecked
}
