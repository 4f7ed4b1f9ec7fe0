package dblib

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dbverify/dbverify/sqlparse"
)

// pgx describes github.com/jackc/pgx v5 and v4 with their pools (pgxpool)
// and command tags (pgconn). pgx is not database/sql-shaped underneath:
// its Tx, Rows and Row are interfaces, statements are prepared by name,
// and some calls run SQL the model cannot see (batches, COPY) or run a
// callback inside a transaction (BeginFunc).
func pgx() *Library {
	l := &Library{
		Name:        "pgx",
		Handles:     map[string]Kind{},
		Methods:     map[string]Method{},
		Drivers:     map[string]sqlparse.Dialect{"github.com/jackc/pgx": sqlparse.Postgres},
		DriverNames: map[string]sqlparse.Dialect{},
		NamedArgs: map[string]func(string) (string, []string, bool){
			"github.com/jackc/pgx/v5.NamedArgs":       RewriteAtNames,
			"github.com/jackc/pgx/v5.StrictNamedArgs": RewriteAtNames,
		},
	}
	// pgx v5's pgtype values of one field and Valid, as sqlc generates
	// them for nullable columns and parameters: like sql.NullInt64.
	ty := "github.com/jackc/pgx/v5/pgtype."
	l.Nullable = map[string]string{
		ty + "Int2": "Valid", ty + "Int4": "Valid", ty + "Int8": "Valid", ty + "Text": "Valid",
		ty + "Bool": "Valid", ty + "Float4": "Valid", ty + "Float8": "Valid",
	}
	addPgxVersion(l, "github.com/jackc/pgx/v5", "github.com/jackc/pgx/v5/pgconn", false)
	addPgxVersion(l, "github.com/jackc/pgx/v4", "github.com/jackc/pgconn", true)
	return l
}

// addPgxVersion adds one major version of pgx to l: the package p, its
// pool p/pgxpool and its pgconn package; v4 has BeginFunc as a method.
func addPgxVersion(l *Library, p, pgconn string, v4 bool) {
	pool := p + "/pgxpool"
	l.Packages = append(l.Packages, p, pool, pgconn)
	for name, k := range map[string]Kind{
		p + ".Conn": DB, p + ".Tx": Tx, p + ".Row": Row, p + ".Rows": Rows,
		pool + ".Pool": DB, pool + ".Conn": DB, pool + ".Tx": Tx,
		pgconn + ".CommandTag": Result,
	} {
		l.Handles[name] = k
	}
	l.Conns = append(l.Conns, p+".Conn", pool+".Conn")
	if l.RawConns == nil {
		l.RawConns = map[string][]string{}
	}
	// (*pgx.Conn).PgConn is the wire-protocol connection: its Exec,
	// ExecParams, ExecPrepared, CopyFrom run SQL the model does not read.
	l.RawConns[pgconn+".PgConn"] = []string{"PID", "TxStatus", "SecretKey", "ParameterStatus", "IsClosed", "IsBusy", "CleanupDone"}
	for _, d := range []string{p, p + "/stdlib", pool} {
		l.Drivers[d] = sqlparse.Postgres
	}
	// Handles that run SQL: *pgx.Conn, the pgx.Tx interface, the pool,
	// one of its connections, its transaction.
	runners := []string{"*" + p + ".Conn", p + ".Tx", "*" + pool + ".Pool", "*" + pool + ".Conn", "*" + pool + ".Tx"}
	batch := Method{Op: OpaqueSQL, Why: "pgx batches, COPY and large objects are not modelled"}
	maps := []map[string]Method{
		l.Methods,
		on(runners, map[string]Op{"Exec": Exec, "Query": Query, "QueryRow": QueryRow, "Begin": Begin}),
		on([]string{"*" + p + ".Conn", "*" + pool + ".Pool", "*" + pool + ".Conn"}, map[string]Op{"BeginTx": Begin}),
		on([]string{p + ".Tx", "*" + pool + ".Tx"}, map[string]Op{"Commit": Commit, "Rollback": Rollback, "Conn": Conn}),
		on([]string{"*" + pool + ".Pool"}, map[string]Op{"Acquire": Conn}),
		on([]string{"*" + pool + ".Conn"}, map[string]Op{"Conn": Conn}),
		on([]string{p + ".Row", p + ".Rows"}, map[string]Op{"Scan": Scan}),
		on([]string{p + ".Rows"}, map[string]Op{"Next": Next}),
		on([]string{pgconn + ".CommandTag"}, map[string]Op{"RowsAffected": RowsAffected}),
	}
	for _, r := range runners {
		maps = append(maps, map[string]Method{"(" + r + ").SendBatch": batch, "(" + r + ").CopyFrom": batch})
	}
	for _, r := range []string{"*" + p + ".Conn", p + ".Tx", "*" + pool + ".Tx"} {
		maps = append(maps, map[string]Method{
			// Statements prepared by name are run by their name later:
			// the SQL of a later Exec is not the text it passes.
			"(" + r + ").Prepare": {Op: Prepare, Special: pgxPrepare},
		})
	}
	maps = append(maps, map[string]Method{
		"(" + p + ".Tx).LargeObjects":     {Op: NotModelled, Why: batch.Why},
		"(*" + pool + ".Tx).LargeObjects": {Op: NotModelled, Why: batch.Why},
		// Not what other libraries mean by these names.
		"(" + p + ".Rows).Conn":              {},
		"(" + pgconn + ".CommandTag).Select": {},
		p + ".BeginFunc":                     {Special: pgxBeginFunc, Callback: true},
		p + ".BeginTxFunc":                   {Special: pgxBeginFunc, Callback: true},
		p + ".CollectRows":                   {Special: pgxCollect},
		p + ".CollectOneRow":                 {Special: pgxCollect},
		p + ".CollectExactlyOneRow":          {Special: pgxCollect},
	})
	// pgx v4's BeginFunc is a method of the handle.
	for _, r := range v4Runners(v4, p, pool) {
		maps = append(maps, map[string]Method{
			"(" + r + ").BeginFunc": {Special: pgxBeginFunc, Callback: true}, "(" + r + ").BeginTxFunc": {Special: pgxBeginFunc, Callback: true},
		})
	}
	l.Methods = merge(maps...)
}

// v4Runners returns the handles of pgx v4 with a BeginFunc method.
func v4Runners(v4 bool, p, pool string) []string {
	if !v4 {
		return nil
	}
	return []string{"*" + p + ".Conn", p + ".Tx", "*" + pool + ".Pool", "*" + pool + ".Conn", "*" + pool + ".Tx"}
}

// pgxPrepare is Prepare(ctx, name, sql) of pgx: not modelled.
func pgxPrepare(b Builder, c Call) Value {
	b.Unsupported("pgx %s (statements prepared by name)", c.Name)
	return b.Results()
}

// pgxBeginFunc is pgx.BeginFunc(ctx, db, fn) and BeginTxFunc(ctx, db,
// opts, fn) (v4: db.BeginFunc(ctx, fn)): begin, run fn with the
// transaction, roll back if it fails, else commit.
func pgxBeginFunc(b Builder, c Call) Value {
	db := 1
	if c.Self >= 0 {
		db = c.Self
	}
	n := b.NumArgs()
	if n < 3 {
		return b.Results()
	}
	return b.RunInTx(b.Arg(db), b.Arg(n-1))
}

// pgxCollect is a pgx Collect* function (CollectOneRow, CollectRows, …).
// CollectOneRow and CollectExactlyOneRow with one of pgx's own mappers
// are the single-row Scan the mapper performs (Builder.CollectOne); other
// rows' values are not bound to the query's rows, so they are arbitrary
// and marked approximations: a counterexample reading them is UNKNOWN.
func pgxCollect(b Builder, c Call) Value {
	if strings.HasSuffix(c.Name, "OneRow") && b.NumArgs() == 2 {
		if v, ok := b.CollectOne(b.Arg(0), b.Arg(1), c.Name == "CollectExactlyOneRow"); ok {
			return v
		}
	}
	b.Escape()
	why := fmt.Sprintf("the result of pgx.%s at %s (rows collected by pgx are not modelled)", c.Name, b.Position())
	res := b.Results()
	b.Approx(b.Element(res, 0), why)
	return res
}

// RewriteAtNames rewrites pgx's @name placeholders (a letter or '_', then
// letters, digits or '_') outside quotes and comments into $1, $2, … (one
// per distinct name, in order of first use), as pgx.NamedArgs does; it
// returns the names in ordinal order. A dollar-quoted string makes it give
// up (false).
func RewriteAtNames(query string) (string, []string, bool) {
	var out strings.Builder
	var names []string
	ordinal := map[string]int{}
	isStart := func(b byte) bool { return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }
	isPart := func(b byte) bool { return isStart(b) || b >= '0' && b <= '9' }
	for i := 0; i < len(query); i++ {
		b := query[i]
		switch {
		case b == '\'' || b == '"':
			j := strings.IndexByte(query[i+1:], b)
			if j < 0 {
				return "", nil, false
			}
			out.WriteString(query[i : i+j+2])
			i += j + 1
		case b == '-' && strings.HasPrefix(query[i:], "--"):
			j := strings.IndexByte(query[i:], '\n')
			if j < 0 {
				j = len(query) - i
			}
			out.WriteString(query[i : i+j])
			i += j - 1
		case b == '/' && strings.HasPrefix(query[i:], "/*"):
			j := strings.Index(query[i:], "*/")
			if j < 0 {
				return "", nil, false
			}
			out.WriteString(query[i : i+j+2])
			i += j + 1
		case b == '$' && i+1 < len(query) && (query[i+1] == '$' || isStart(query[i+1])):
			return "", nil, false // a dollar-quoted string
		case b == '@' && i+1 < len(query) && isStart(query[i+1]):
			j := i + 1
			for j < len(query) && isPart(query[j]) {
				j++
			}
			name := query[i+1 : j]
			if ordinal[name] == 0 {
				names = append(names, name)
				ordinal[name] = len(names)
			}
			out.WriteString("$" + strconv.Itoa(ordinal[name]))
			i = j - 1
		default:
			out.WriteByte(b)
		}
	}
	return out.String(), names, true
}
