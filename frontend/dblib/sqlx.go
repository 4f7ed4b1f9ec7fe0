package dblib

import (
	"fmt"
	"go/types"
	"reflect"
	"strconv"
	"strings"
	"unicode"

	"github.com/dbverify/dbverify/sqlparse"
)

// sqlx describes github.com/jmoiron/sqlx: database/sql's handles wrapped
// (its DB, Tx and Conn embed database/sql's, so the promoted methods are
// database/sql's), plus scanning into structs by column name (Get,
// Select, StructScan), :name parameters bound from a struct or map
// (NamedExec, PrepareNamed, NamedStmt) and helpers (In, Named, Rebind).
func sqlx() *Library {
	const p = "github.com/jmoiron/sqlx"
	handles := []string{"*" + p + ".DB", "*" + p + ".Tx", "*" + p + ".Conn"}
	return &Library{
		Name:     "sqlx",
		Packages: []string{p},
		Handles: map[string]Kind{
			p + ".DB": DB, p + ".Conn": DB, p + ".Tx": Tx, p + ".Stmt": Stmt,
			p + ".NamedStmt": Stmt, p + ".Row": Row, p + ".Rows": Rows,
		},
		Conns: []string{p + ".Conn"},
		Methods: merge(
			on(handles, map[string]Op{
				"QueryxContext": Query, "QueryRowxContext": QueryRow, "PreparexContext": Prepare,
				"GetContext": Get, "SelectContext": Select, "Rebind": Rebind,
			}),
			on(handles[:2], map[string]Op{
				"Queryx": Query, "QueryRowx": QueryRow, "Preparex": Prepare, "Get": Get, "Select": Select,
				"MustExec": Exec, "MustExecContext": Exec,
				"NamedExec": NamedExec, "NamedExecContext": NamedExec, "NamedQuery": NamedQuery,
				"PrepareNamed": PrepareNamed, "PrepareNamedContext": PrepareNamed,
			}),
			on([]string{handles[0], handles[2]}, map[string]Op{"BeginTxx": Begin}),
			on(handles[:1], map[string]Op{
				"Beginx": Begin, "MustBegin": Begin, "MustBeginTx": Begin, "Connx": Conn,
				"NamedQueryContext": NamedQuery,
			}),
			on(handles[1:2], map[string]Op{
				"Stmtx": BindStmt, "StmtxContext": BindStmt,
				"NamedStmt": BindStmt, "NamedStmtContext": BindStmt,
			}),
			on([]string{"*" + p + ".Stmt", "*" + p + ".NamedStmt"}, map[string]Op{
				"Queryx": Query, "QueryxContext": Query, "QueryRowx": QueryRow, "QueryRowxContext": QueryRow,
				"Get": Get, "GetContext": Get, "Select": Select, "SelectContext": Select,
				"MustExec": Exec, "MustExecContext": Exec,
			}),
			on([]string{"*" + p + ".NamedStmt"}, map[string]Op{
				"Exec": Exec, "ExecContext": Exec, "Query": Query, "QueryContext": Query,
				"QueryRow": QueryRow, "QueryRowContext": QueryRow,
			}),
			on([]string{"*" + p + ".Row", "*" + p + ".Rows"}, map[string]Op{"StructScan": StructScan}),
			on([]string{"*" + p + ".Row"}, map[string]Op{"Scan": Scan}),
			map[string]Method{
				// Package functions on a Queryer/Execer (its first parameter).
				p + ".Get": {Op: Get}, p + ".GetContext": {Op: Get},
				p + ".Select": {Op: Select}, p + ".SelectContext": {Op: Select},
				p + ".NamedExec": {Op: NamedExec}, p + ".NamedExecContext": {Op: NamedExec},
				p + ".NamedQuery": {Op: NamedQuery}, p + ".NamedQueryContext": {Op: NamedQuery},
				p + ".MustExec": {Op: Exec, Must: true}, p + ".MustExecContext": {Op: Exec, Must: true},
				p + ".Preparex": {Op: Prepare}, p + ".PreparexContext": {Op: Prepare},
				p + ".LoadFile":        {Op: OpaqueSQL, Why: "SQL not known"},
				p + ".LoadFileContext": {Op: OpaqueSQL, Why: "SQL not known"},
				// Helpers on query text.
				p + ".Rebind":    {Op: Rebind},
				p + ".In":        {Special: sqlxIn},
				p + ".Named":     {Special: sqlxNamed},
				p + ".BindNamed": {Special: sqlxNamed},
			},
		),
		Openers: []string{p + ".Open", p + ".Connect", p + ".MustOpen", p + ".MustConnect"},
	}
}

// sqlxIn is sqlx.In(query, args...): `IN (?)` with a slice expanded into
// one placeholder per element. The model keeps the text (one placeholder
// for the list: the watched row is in the list when it equals one member)
// and binds each argument to its placeholder: a scalar argument as it
// is, a list as one member. A member of the entry's input slice is exact
// (Builder.ListMember); of any other list, one arbitrary member marked as
// an approximation (a counterexample that needs a particular member is
// UNKNOWN, "may be spurious"). When the arguments are not known, every
// bound value is an approximation. sqlx.In fails exactly when a list is
// empty, when every argument is a plain value or such a list and the
// text has one `?` per argument (it counts every `?`, as sqlx does);
// otherwise its error is arbitrary.
func sqlxIn(b Builder, c Call) Value {
	why := fmt.Sprintf("a member of the list sqlx.In expands at %s (the expanded list is not modelled)", b.Position())
	elems, ok := b.Elems(b.Arg(c.Params))
	if !ok {
		return b.Tuple(b.Arg(c.Query), b.ApproxElems(b.Result(1, "args"), why), b.Err())
	}
	bound := make([]Value, len(elems))
	var empties []Value
	exactErr := true
	for i, e := range elems {
		bound[i] = e
		exactErr = exactErr && b.PlainParam(c.Params, i)
		if b.IsScalar(e) {
			continue
		}
		if m, empty, ok := b.ListMember(c.Params, i); ok {
			bound[i] = m
			empties = append(empties, empty)
			continue
		}
		exactErr = false
		bound[i] = b.Approx(b.Scalar("sqlx.In.member"), why)
	}
	q, known := b.ConstString(c.Query)
	err := b.Err()
	if exactErr && known && len(empties) > 0 && strings.Count(q, "?") == len(elems) {
		err = b.ErrWhen(empties...)
	}
	return b.Tuple(b.Arg(c.Query), b.Slice(bound...), err)
}

// sqlxNamed is sqlx.Named(query, arg) and sqlx.BindNamed(bindType, query,
// arg): the :name parameters rewritten into positional ones. Named always
// binds with `?`; BindNamed with the driver's bind type (the dialect's).
// The bound values are not tracked.
func sqlxNamed(b Builder, c Call) Value {
	i, dollar := 0, false
	if c.Name == "BindNamed" {
		i, dollar = 1, b.Dialect() == sqlparse.Postgres
	}
	q, ok := b.ConstString(i)
	if !ok {
		b.Escape()
		return b.Results()
	}
	text, _ := CompileNamed(q, dollar)
	return b.Tuple(b.Text(text), b.Result(1, "args"), b.Err())
}

// ColumnName returns the column sqlx maps struct field f to: its `db`
// tag, else its name in lower case; "" for a field sqlx skips.
func ColumnName(f *types.Var, tag string) string {
	if !f.Exported() && !f.Embedded() {
		return ""
	}
	if v, ok := reflect.StructTag(tag).Lookup("db"); ok {
		name, _, _ := strings.Cut(v, ",")
		if name == "-" {
			return ""
		}
		if name != "" {
			return name
		}
	}
	return strings.ToLower(f.Name())
}

// CompileNamed rewrites sqlx's :name parameters into positional ones
// (`?`, or `$n` when dollar), as sqlx's compileNamedQuery does: `::` is an
// escaped colon and `:=` is kept. It returns the names in order.
func CompileNamed(query string, dollar bool) (string, []string) {
	var out strings.Builder
	var names []string
	inName := false
	var name []byte
	last := len(query) - 1
	allowed := func(b byte) bool {
		r := rune(b)
		return unicode.IsLetter(r) || unicode.IsDigit(r) || b == '_' || b == '.'
	}
	flush := func() {
		names = append(names, string(name))
		if dollar {
			out.WriteString("$" + strconv.Itoa(len(names)))
		} else {
			out.WriteByte('?')
		}
	}
	for i := 0; i < len(query); i++ {
		b := query[i]
		switch {
		case b == ':':
			if inName && i > 0 && query[i-1] == ':' {
				out.WriteByte(':')
				inName = false
				continue
			}
			inName, name = true, name[:0]
		case inName && b == '=' && len(name) == 0:
			out.WriteString(":=")
			inName = false
		case inName && allowed(b) && i != last:
			name = append(name, b)
		case inName:
			inName = false
			if i == last && allowed(b) {
				name = append(name, b)
			}
			flush()
			if i != last || !allowed(b) {
				out.WriteByte(b)
			}
		default:
			out.WriteByte(b)
		}
	}
	return out.String(), names
}

// RebindDollar replaces `?` placeholders outside quotes with $1, $2, …
// (sqlx's Rebind for Postgres drivers).
func RebindDollar(query string) string {
	var out strings.Builder
	n := 0
	var quote byte
	for i := 0; i < len(query); i++ {
		b := query[i]
		switch {
		case quote != 0:
			if b == quote {
				quote = 0
			}
		case b == '\'' || b == '"':
			quote = b
		case b == '?':
			n++
			out.WriteString("$" + strconv.Itoa(n))
			continue
		}
		out.WriteByte(b)
	}
	return out.String()
}
