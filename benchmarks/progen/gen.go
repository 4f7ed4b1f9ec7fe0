package progen

import (
	"bytes"
	"fmt"
	"go/format"
	"math/rand"
	"regexp"
	"strings"
)

// Dialects are the database engines a program may be generated for: the
// driver it imports, the name sql.Open gets, and the DDL of its table.
func Dialects() []string { return []string{"sqlite", "postgres", "mysql"} }

// schemaOf is the DDL of a program's database in dialect.
func schemaOf(dialect string) string {
	idType, intType := "BIGINT", "BIGINT"
	if dialect == "sqlite" {
		idType, intType = "INTEGER", "INTEGER"
	}
	return "CREATE TABLE accounts (\n    id      " + idType + " PRIMARY KEY,\n    balance " + intType +
		" NOT NULL,\n    hold    " + intType + " NOT NULL\n);\n"
}

// driverOf is the import path of dialect's driver and its sql.Open name.
func driverOf(dialect string) (importPath, name string) {
	switch dialect {
	case "postgres":
		return "github.com/lib/pq", "postgres"
	case "mysql":
		return "github.com/go-sql-driver/mysql", "mysql"
	}
	return "modernc.org/sqlite", "sqlite"
}

// sqlLiteral matches a Go string literal holding one of the generated
// statements.
var sqlLiteral = regexp.MustCompile(`"(SELECT|UPDATE|INSERT|DELETE) [^"]*"`)

// numbered rewrites the ? placeholders of every statement in src as
// PostgreSQL's $1, $2, … (numbered per statement).
func numbered(src []byte) []byte {
	return sqlLiteral.ReplaceAllFunc(src, func(lit []byte) []byte {
		var b bytes.Buffer
		n := 0
		for _, c := range lit {
			if c == '?' {
				n++
				fmt.Fprintf(&b, "$%d", n)
				continue
			}
			b.WriteByte(c)
		}
		return b.Bytes()
	})
}

// Constraints returns the constraints a generated program may be checked
// against, in the order the generator draws from.
func Constraints() []string {
	return []string{"accounts.balance >= 0", "accounts.hold >= 0", "accounts.hold <= accounts.balance"}
}

// Program is one generated package.
type Program struct {
	// Seed generated the program.
	Seed int64
	// Dialect is the program's database engine (one of Dialects).
	Dialect string
	// Schema is the DDL of its database.
	Schema string
	// Package is the package name (also its directory's name).
	Package string
	// Source is the package's Go file, gofmt-ed.
	Source []byte
	// Methods are the entry points, as "(*Store).Op0", to be qualified
	// with the package's import path.
	Methods []string
	// Constraints are the constraints the program is checked against.
	Constraints []string
	// Features lists the constructs the program uses (for the summary and
	// the generator's own tests), each once, in first-use order.
	Features []string
}

// Options bound the generated programs.
type Options struct {
	// Entries is the number of entry methods (default 2).
	Entries int
	// Statements is the number of top-level statements per entry
	// (default 4); nested blocks get fewer.
	Statements int
	// Dialect is the database engine (default "sqlite"; see Dialects).
	Dialect string
}

// Generate returns the program of seed.
func Generate(seed int64, opts Options) (*Program, error) {
	if opts.Entries <= 0 {
		opts.Entries = 2
	}
	if opts.Statements <= 0 {
		opts.Statements = 4
	}
	if opts.Dialect == "" {
		opts.Dialect = "sqlite"
	}
	if _, name := driverOf(opts.Dialect); name != opts.Dialect {
		return nil, fmt.Errorf("progen: unknown dialect %q (want one of %v)", opts.Dialect, Dialects())
	}
	g := &generator{rng: rand.New(rand.NewSource(seed)), opts: opts, features: map[string]bool{}}
	p := &Program{Seed: seed, Package: fmt.Sprintf("p%04d", seed), Dialect: opts.Dialect, Schema: schemaOf(opts.Dialect)}
	src := g.file(p)
	if opts.Dialect == "postgres" {
		src = numbered(src)
	}
	out, err := format.Source(src)
	if err != nil {
		return nil, fmt.Errorf("progen: seed %d: generated source does not parse: %w\n%s", seed, err, src)
	}
	p.Source = out
	p.Features = g.featureList
	return p, nil
}

// generator writes one program. Its methods that produce Go code return
// strings; the statement writers append to b.
type generator struct {
	rng  *rand.Rand
	opts Options
	b    bytes.Buffer

	// handle is the receiver of the SQL calls in the current entry: "tx"
	// inside a transaction, else "s.db".
	handle string
	// resN numbers the sql.Result variables of an entry.
	resN int
	// helper is the helper function's kind ("" = none yet).
	helper string

	features    map[string]bool
	featureList []string
}

func (g *generator) feature(f string) {
	if !g.features[f] {
		g.features[f] = true
		g.featureList = append(g.featureList, f)
	}
}

func (g *generator) pick(n int) int { return g.rng.Intn(n) }

func (g *generator) chance(percent int) bool { return g.rng.Intn(100) < percent }

func (g *generator) printf(format string, args ...any) { fmt.Fprintf(&g.b, format, args...) }

// file returns the whole package's source.
func (g *generator) file(p *Program) []byte {
	var entries bytes.Buffer
	for i := 0; i < g.opts.Entries; i++ {
		g.b.Reset()
		g.entry(i)
		entries.Write(g.b.Bytes())
		p.Methods = append(p.Methods, fmt.Sprintf("(*Store).Op%d", i))
	}
	all := Constraints()
	p.Constraints = []string{all[0]}
	for _, c := range all[1:] {
		if g.chance(40) {
			p.Constraints = append(p.Constraints, c)
		}
	}

	var f bytes.Buffer
	fmt.Fprintf(&f, "// Package %s is generated by benchmarks/progen (seed %d); it is not\n", p.Package, p.Seed)
	f.WriteString("// hand-written and has no expected verdict: execution decides.\n")
	fmt.Fprintf(&f, "package %s\n\n", p.Package)
	driver, name := driverOf(p.Dialect)
	fmt.Fprintf(&f, "import (\n\t\"context\"\n\t\"database/sql\"\n\t\"errors\"\n\n\t_ %q\n)\n\n", driver)
	f.WriteString("var errRejected = errors.New(\"rejected\")\n\n")
	f.WriteString("// Store keeps accounts in its database.\ntype Store struct{ db *sql.DB }\n\n")
	f.WriteString("// Open opens the store's database.\nfunc Open(path string) (*Store, error) {\n")
	fmt.Fprintf(&f, "\tdb, err := sql.Open(%q, path)", name)
	f.WriteString("\n\tif err != nil {\n\t\treturn nil, err\n\t}\n\treturn &Store{db: db}, nil\n}\n\n")
	f.Write(entries.Bytes())
	if g.helper != "" {
		f.WriteString(helperSource(g.helper))
	}
	return f.Bytes()
}

// entry writes method Op<i>.
func (g *generator) entry(i int) {
	g.resN = 0
	g.printf("// Op%d is a generated entry point.\n", i)
	g.printf("func (s *Store) Op%d(ctx context.Context, id, a, b int64) error {\n", i)
	g.printf("var bal, hold int64\n_, _ = bal, hold\n")
	if g.chance(40) {
		g.feature("input check")
		g.printf("if %s {\nreturn errRejected\n}\n", g.cond())
	}
	tx := g.chance(50)
	if tx {
		g.feature("transaction")
		g.handle = "tx"
		g.printf("tx, err := s.db.BeginTx(ctx, nil)\nif err != nil {\nreturn err\n}\ndefer tx.Rollback()\n")
	} else {
		g.handle = "s.db"
	}
	g.block(g.opts.Statements, 0)
	if tx {
		g.printf("return tx.Commit()\n")
	} else {
		g.printf("return nil\n")
	}
	g.printf("}\n\n")
}

// block writes n statements at nesting depth.
func (g *generator) block(n, depth int) {
	for j := 0; j < n; j++ {
		g.stmt(depth)
	}
}

// stmt writes one statement; depth limits nesting.
func (g *generator) stmt(depth int) {
	kinds := 9
	if depth >= 2 {
		kinds = 6 // no more nesting
	}
	switch g.pick(kinds) {
	case 0, 1:
		g.read()
	case 2:
		g.feature("guard")
		g.printf("if %s {\nreturn errRejected\n}\n", g.cond())
	case 3, 4:
		g.update()
	case 5:
		g.other()
	case 6:
		g.feature("if/else")
		g.printf("if %s {\n", g.cond())
		g.block(1+g.pick(2), depth+1)
		if g.chance(50) {
			g.printf("} else {\n")
			g.block(1, depth+1)
		}
		g.printf("}\n")
	case 7:
		g.feature("loop")
		g.printf("for i := 0; i < %d; i++ {\n", 1+g.pick(3))
		if g.chance(30) {
			g.feature("break")
			g.printf("if %s {\nbreak\n}\n", g.cond())
		}
		g.block(1+g.pick(2), depth+1)
		g.printf("}\n")
	case 8:
		g.helperCall()
	}
}

// read writes a SELECT of the row into bal and hold.
func (g *generator) read() {
	g.feature("read")
	q := "SELECT balance, hold FROM accounts WHERE id = ?"
	if g.handle == "tx" && g.chance(20) {
		g.feature("read through db in tx")
		g.printf("if err := s.db.QueryRowContext(ctx, %q, id).Scan(&bal, &hold); err != nil {\nreturn err\n}\n", q)
		return
	}
	if g.chance(30) {
		g.feature("missing row as zero")
		g.printf("if err := %s.QueryRowContext(ctx, %q, id).Scan(&bal, &hold); errors.Is(err, sql.ErrNoRows) {\nbal, hold = 0, 0\n} else if err != nil {\nreturn err\n}\n", g.handle, q)
		return
	}
	g.printf("if err := %s.QueryRowContext(ctx, %q, id).Scan(&bal, &hold); err != nil {\nreturn err\n}\n", g.handle, q)
}

// update writes an UPDATE of the row, maybe guarded in SQL, maybe with
// its RowsAffected checked.
func (g *generator) update() {
	g.feature("update")
	var set string
	var args []string
	switch g.pick(5) {
	case 0, 1:
		op := []string{"-", "+"}[g.pick(2)]
		set = "balance = balance " + op + " ?"
		args = append(args, g.expr())
	case 2:
		op := []string{"-", "+"}[g.pick(2)]
		set = "hold = hold " + op + " ?"
		args = append(args, g.expr())
	case 3:
		g.feature("absolute write")
		set = "balance = ?"
		args = append(args, g.expr())
	default:
		g.feature("two columns")
		set = "balance = balance - ?, hold = hold + ?"
		e := g.expr()
		args = append(args, e, e)
	}
	where := "id = ?"
	args = append(args, "id")
	if g.chance(40) {
		g.feature("guard in SQL")
		col := []string{"balance", "hold"}[g.pick(2)]
		rel := []string{">=", ">"}[g.pick(2)]
		where += " AND " + col + " " + rel + " ?"
		args = append(args, g.expr())
	}
	q := "UPDATE accounts SET " + set + " WHERE " + where
	if g.chance(40) {
		g.feature("RowsAffected")
		g.resN++
		r := fmt.Sprintf("res%d", g.resN)
		g.printf("%s, err := %s.ExecContext(ctx, %q, %s)\nif err != nil {\nreturn err\n}\n", r, g.handle, q, strings.Join(args, ", "))
		g.printf("if n, err := %s.RowsAffected(); err != nil || n == 0 {\nreturn errRejected\n}\n", r)
		return
	}
	g.printf("if _, err := %s.ExecContext(ctx, %q, %s); err != nil {\nreturn err\n}\n", g.handle, q, strings.Join(args, ", "))
}

// other writes an INSERT, a DELETE or a Go assignment.
func (g *generator) other() {
	switch g.pick(3) {
	case 0:
		g.feature("insert")
		g.printf("if _, err := %s.ExecContext(ctx, \"INSERT INTO accounts (id, balance, hold) VALUES (?, ?, ?)\", b, %s, %s); err != nil {\nreturn err\n}\n",
			g.handle, g.expr(), []string{"0", "a", "hold"}[g.pick(3)])
	case 1:
		g.feature("delete")
		g.printf("if _, err := %s.ExecContext(ctx, \"DELETE FROM accounts WHERE id = ? AND balance = 0\", b); err != nil {\nreturn err\n}\n", g.handle)
	default:
		g.feature("assignment")
		lhs, rhs := []string{"a", "b"}[g.pick(2)], g.expr()
		if rhs == lhs {
			rhs += " - 1" // go vet: self-assignment
		}
		g.printf("%s = %s\n", lhs, rhs)
	}
}

// helperCall calls the package's helper (generated once, shared by the
// entries).
func (g *generator) helperCall() {
	if g.helper == "" {
		g.helper = []string{"guarded", "checked", "unguarded"}[g.pick(3)]
	}
	g.feature("helper " + g.helper)
	g.printf("if err := debit(ctx, %s, id, %s); err != nil {\nreturn err\n}\n", g.handle, g.expr())
}

// helperSource is the helper's declaration: a debit through an interface
// that *sql.DB and *sql.Tx both implement.
func helperSource(kind string) string {
	var b strings.Builder
	b.WriteString("type execer interface {\n\tExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)\n}\n\n")
	b.WriteString("// debit takes amt from the account.\nfunc debit(ctx context.Context, q execer, id, amt int64) error {\n")
	switch kind {
	case "guarded":
		b.WriteString("\tres, err := q.ExecContext(ctx, \"UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?\", amt, id, amt)\n")
		b.WriteString("\tif err != nil {\n\t\treturn err\n\t}\n\tn, err := res.RowsAffected()\n\tif err != nil {\n\t\treturn err\n\t}\n")
		b.WriteString("\tif n == 0 {\n\t\treturn errRejected\n\t}\n\treturn nil\n}\n")
	case "checked":
		b.WriteString("\tif amt < 0 {\n\t\treturn errRejected\n\t}\n")
		b.WriteString("\t_, err := q.ExecContext(ctx, \"UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance - ? >= hold\", amt, id, amt)\n\treturn err\n}\n")
	default:
		b.WriteString("\t_, err := q.ExecContext(ctx, \"UPDATE accounts SET balance = balance - ? WHERE id = ?\", amt, id)\n\treturn err\n}\n")
	}
	return b.String()
}

// expr returns an int64 expression over the entry's values.
func (g *generator) expr() string {
	atoms := []string{"a", "b", "bal", "hold", "a", "b"}
	x := atoms[g.pick(len(atoms))]
	y := atoms[g.pick(len(atoms))]
	c := []string{"0", "1", "2", "5", "10", "100"}[g.pick(6)]
	switch g.pick(10) {
	case 0:
		return x + " + " + y
	case 1:
		return x + " - " + c
	case 2:
		g.feature("multiplication")
		return "2 * " + x
	case 3:
		g.feature("division")
		return x + " / " + []string{"2", "3", "10"}[g.pick(3)]
	case 4:
		g.feature("modulo")
		return x + " % " + []string{"2", "7", "10"}[g.pick(3)]
	case 5:
		g.feature("min/max")
		return []string{"min", "max"}[g.pick(2)] + "(" + x + ", " + []string{y, c}[g.pick(2)] + ")"
	case 6:
		return x + " - " + y
	default:
		return x
	}
}

// cond returns a boolean expression over the entry's values.
func (g *generator) cond() string {
	rel := []string{"<", "<=", ">", ">=", "==", "!="}[g.pick(6)]
	c := g.expr() + " " + rel + " " + []string{g.expr(), "0", "1", "100"}[g.pick(4)]
	if g.chance(20) {
		g.feature("&& / ||")
		op := []string{"&&", "||"}[g.pick(2)]
		c += " " + op + " " + g.expr() + " " + []string{"<", ">="}[g.pick(2)] + " " + []string{"0", "a", "b"}[g.pick(3)]
	}
	return c
}
