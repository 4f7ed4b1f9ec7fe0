package groundtruth_test

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/dbverify/dbverify/groundtruth"
)

// The table every form runs on: a primary key, a nullable UNIQUE key (so
// that ON DUPLICATE KEY has two keys to conflict on), a NOT NULL column
// and a nullable one. The same DDL is valid in the three dialects.
const (
	table = "acct"
	ddl   = "CREATE TABLE acct (id INTEGER PRIMARY KEY, k INTEGER UNIQUE, a INTEGER NOT NULL, b INTEGER)"
)

// stmtKind says how a statement is run and what is observed.
type stmtKind int

const (
	execKind   stmtKind = iota // Exec: error and RowsAffected
	returnKind                 // QueryRow(...).Scan of RETURNING: error and values
	selectKind                 // QueryRow(...).Scan of a SELECT: error and values
)

// step is one statement of a case.
type step struct {
	sql  string // with ? placeholders (PostgreSQL: rewritten to $n)
	args []int64
	kind stmtKind
	nret int // RETURNING / SELECT columns
}

// stmtCase is one generated execution: initial rows, then statements run
// one after the other until one fails, each auto-committed or, with tx,
// in one transaction ended by COMMIT or ROLLBACK (a failure rolls back).
type stmtCase struct {
	form  string
	rows  []groundtruth.Row
	steps []step
	tx    string // "", "commit" or "rollback"
	dial  groundtruth.Dialect
	// noSchema lowers the statements without the schema (as dbverify runs
	// without --schema: the key is the inferred id, no column is known NOT
	// NULL, no other key is known).
	noSchema bool
}

// query is step i's text in the case's dialect.
func (c stmtCase) query(i int) string {
	if c.dial != groundtruth.Postgres {
		return c.steps[i].sql
	}
	var b strings.Builder
	n := 0
	for _, r := range c.steps[i].sql {
		if r == '?' {
			n++
			fmt.Fprintf(&b, "$%d", n)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// text is the case's statements, with the transaction.
func (c stmtCase) text() string {
	var parts []string
	if c.tx != "" {
		parts = append(parts, "BEGIN")
	}
	for i, st := range c.steps {
		parts = append(parts, fmt.Sprintf("%s args %v", c.query(i), st.args))
	}
	if c.tx != "" {
		parts = append(parts, strings.ToUpper(c.tx))
	}
	if c.noSchema {
		parts = append(parts, "(model without the schema)")
	}
	return strings.Join(parts, "; ")
}

// form is a statement form: which dialects run it and a generator of
// statements (text with ? placeholders and their arguments).
type form struct {
	name     string
	dialects []groundtruth.Dialect // nil: all three
	gen      func(g *gen, d groundtruth.Dialect) (sql string, kind stmtKind, nret int)
	// seq, instead of gen, makes a sequence of statements (g.step) and
	// says how they run ("", "commit", "rollback").
	seq func(g *gen, d groundtruth.Dialect) (tx string)
}

func (f form) runsOn(d groundtruth.Dialect) bool {
	if f.dialects == nil {
		return true
	}
	for _, x := range f.dialects {
		if x == d {
			return true
		}
	}
	return false
}

var (
	pgSQLite = []groundtruth.Dialect{groundtruth.Postgres, groundtruth.SQLite}
	mysql    = []groundtruth.Dialect{groundtruth.MySQL}
)

// gen draws random values; it collects the arguments of the placeholders
// it writes, in order.
type gen struct {
	r     *rand.Rand
	args  []int64
	steps []step
}

// step adds a statement of a sequence; its arguments are those the
// statement's generator drew.
func (g *gen) step(sql string, kind stmtKind, nret int) {
	g.steps = append(g.steps, step{sql: sql, args: g.args, kind: kind, nret: nret})
	g.args = nil
}

func (g *gen) small() int64 { return int64(g.r.IntN(9)) - 3 } // -3..5
func (g *gen) pick(xs ...string) string {
	return xs[g.r.IntN(len(xs))]
}

// arg writes a placeholder bound to a small integer (often colliding with
// the rows' values; 0 to reach division by zero).
func (g *gen) arg() string {
	g.args = append(g.args, g.small())
	return "?"
}

// key writes a placeholder bound to a key value, usually of an existing
// row.
func (g *gen) key() string {
	g.args = append(g.args, int64(g.r.IntN(5))+1)
	return "?"
}

// keyOf writes a placeholder bound to the key k, or (one time in three)
// to another key.
func (g *gen) keyOf(k int64) string {
	if g.r.IntN(3) == 0 {
		return g.key()
	}
	g.args = append(g.args, k)
	return "?"
}

// newKey draws a key value.
func (g *gen) newKey() int64 { return int64(g.r.IntN(5)) + 1 }

// txMode draws how a sequence runs: auto-commit, or one transaction
// committed or rolled back.
func (g *gen) txMode(modes ...string) string { return g.pick(modes...) }

// operand is a placeholder or a literal.
func (g *gen) operand() string {
	if g.r.IntN(3) == 0 {
		return fmt.Sprint(g.small())
	}
	return g.arg()
}

// cond is a random WHERE condition over the table's columns.
func (g *gen) cond(depth int) string {
	if depth > 0 && g.r.IntN(3) == 0 {
		switch g.r.IntN(3) {
		case 0:
			return "(" + g.cond(depth-1) + " AND " + g.cond(depth-1) + ")"
		case 1:
			return "(" + g.cond(depth-1) + " OR " + g.cond(depth-1) + ")"
		default:
			return "NOT (" + g.cond(depth-1) + ")"
		}
	}
	col := g.pick("id", "k", "a", "b")
	switch g.r.IntN(5) {
	case 0:
		return col + " IN (" + g.operand() + ", " + g.operand() + ")"
	case 1:
		return col + " BETWEEN " + g.arg() + " AND " + g.arg()
	case 2:
		return col + g.pick(" IS NULL", " IS NOT NULL")
	}
	return col + " " + g.pick("=", "<>", "<", "<=", ">", ">=") + " " + g.operand()
}

// greatest is GREATEST or LEAST, or SQLite's two-argument max/min.
func greatest(g *gen, d groundtruth.Dialect) string {
	if d == groundtruth.SQLite {
		return g.pick("MAX", "MIN")
	}
	return g.pick("GREATEST", "LEAST")
}

// forms are the statement forms the model supports (docs/design.md §2).
var forms = []form{
	{name: "update-arith", gen: func(g *gen, d groundtruth.Dialect) (string, stmtKind, int) {
		col := g.pick("a", "b")
		return fmt.Sprintf("UPDATE acct SET %s = %s %s %s WHERE id = %s", col, col, g.pick("+", "-", "*"), g.arg(), g.key()), execKind, 0
	}},
	{name: "update-multi-set", gen: func(g *gen, d groundtruth.Dialect) (string, stmtKind, int) {
		return fmt.Sprintf("UPDATE acct SET a = a + %s, b = a WHERE id = %s", g.arg(), g.key()), execKind, 0
	}},
	{name: "update-case", gen: func(g *gen, d groundtruth.Dialect) (string, stmtKind, int) {
		if g.r.IntN(2) == 0 {
			return fmt.Sprintf("UPDATE acct SET a = CASE WHEN a >= %s THEN a - %s ELSE a END WHERE id = %s", g.arg(), g.arg(), g.key()), execKind, 0
		}
		return fmt.Sprintf("UPDATE acct SET a = CASE WHEN b IS NULL THEN %s WHEN b > a THEN b ELSE a + %s END WHERE id = %s", g.arg(), g.arg(), g.key()), execKind, 0
	}},
	{name: "update-coalesce", gen: func(g *gen, d groundtruth.Dialect) (string, stmtKind, int) {
		return fmt.Sprintf("UPDATE acct SET a = COALESCE(b, %s) + %s WHERE id = %s", g.arg(), g.arg(), g.key()), execKind, 0
	}},
	{name: "update-greatest-least", gen: func(g *gen, d groundtruth.Dialect) (string, stmtKind, int) {
		if g.r.IntN(2) == 0 {
			return fmt.Sprintf("UPDATE acct SET a = %s(a - %s, %s) WHERE id = %s", greatest(g, d), g.arg(), g.arg(), g.key()), execKind, 0
		}
		return fmt.Sprintf("UPDATE acct SET b = %s(b, %s) WHERE id = %s", greatest(g, d), g.arg(), g.key()), execKind, 0
	}},
	{name: "update-abs", gen: func(g *gen, d groundtruth.Dialect) (string, stmtKind, int) {
		return fmt.Sprintf("UPDATE acct SET a = ABS(a - %s) WHERE id = %s", g.arg(), g.key()), execKind, 0
	}},
	{name: "update-div-mod", gen: func(g *gen, d groundtruth.Dialect) (string, stmtKind, int) {
		return fmt.Sprintf("UPDATE acct SET %s = %s %s %s WHERE id = %s", g.pick("a", "b"), g.pick("a", "b"), g.pick("/", "%"), g.arg(), g.key()), execKind, 0
	}},
	{name: "update-real-into-int", gen: func(g *gen, d groundtruth.Dialect) (string, stmtKind, int) {
		return fmt.Sprintf("UPDATE acct SET a = a %s WHERE id = %s", g.pick("* 1.5", "* 0.5", "/ 2.0", "+ 0.5"), g.key()), execKind, 0
	}},
	{name: "update-where", gen: func(g *gen, d groundtruth.Dialect) (string, stmtKind, int) {
		return fmt.Sprintf("UPDATE acct SET a = a + %s WHERE %s", g.arg(), g.cond(2)), execKind, 0
	}},
	{name: "delete-where", gen: func(g *gen, d groundtruth.Dialect) (string, stmtKind, int) {
		return "DELETE FROM acct WHERE " + g.cond(2), execKind, 0
	}},
	{name: "insert", gen: func(g *gen, d groundtruth.Dialect) (string, stmtKind, int) {
		if g.r.IntN(2) == 0 {
			return fmt.Sprintf("INSERT INTO acct (id, k, a) VALUES (%s, %s, %s)", g.key(), g.key(), g.arg()), execKind, 0
		}
		return fmt.Sprintf("INSERT INTO acct (id, a, b) VALUES (%s, %s, %s)", g.key(), g.arg(), g.arg()), execKind, 0
	}},
	{name: "insert-on-duplicate-key", dialects: mysql, gen: func(g *gen, d groundtruth.Dialect) (string, stmtKind, int) {
		ins := fmt.Sprintf("INSERT INTO acct (id, k, a) VALUES (%s, %s, %s)", g.key(), g.key(), g.arg())
		if g.r.IntN(2) == 0 {
			return ins + " ON DUPLICATE KEY UPDATE a = a + " + g.arg(), execKind, 0
		}
		return ins + " ON DUPLICATE KEY UPDATE a = VALUES(a) - a", execKind, 0
	}},
	{name: "insert-on-conflict-update", dialects: pgSQLite, gen: func(g *gen, d groundtruth.Dialect) (string, stmtKind, int) {
		if g.r.IntN(2) == 0 {
			return fmt.Sprintf("INSERT INTO acct (id, a) VALUES (%s, %s) ON CONFLICT (id) DO UPDATE SET a = acct.a + excluded.a", g.key(), g.arg()), execKind, 0
		}
		return fmt.Sprintf("INSERT INTO acct (id, k, a) VALUES (%s, %s, %s) ON CONFLICT (id) DO UPDATE SET a = acct.a - %s", g.key(), g.key(), g.arg(), g.arg()), execKind, 0
	}},
	{name: "insert-on-conflict-nothing", dialects: pgSQLite, gen: func(g *gen, d groundtruth.Dialect) (string, stmtKind, int) {
		return fmt.Sprintf("INSERT INTO acct (id, k, a) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING", g.key(), g.key(), g.arg()), execKind, 0
	}},
	{name: "insert-returning", gen: func(g *gen, d groundtruth.Dialect) (string, stmtKind, int) {
		return fmt.Sprintf("INSERT INTO acct (id, a) VALUES (%s, %s) RETURNING a", g.key(), g.arg()), returnKind, 1
	}},
	{name: "upsert-returning", dialects: pgSQLite, gen: func(g *gen, d groundtruth.Dialect) (string, stmtKind, int) {
		return fmt.Sprintf("INSERT INTO acct (id, a) VALUES (%s, %s) ON CONFLICT (id) DO UPDATE SET a = acct.a + excluded.a RETURNING a", g.key(), g.arg()), returnKind, 1
	}},
	{name: "update-returning", dialects: pgSQLite, gen: func(g *gen, d groundtruth.Dialect) (string, stmtKind, int) {
		return fmt.Sprintf("UPDATE acct SET a = a - %s WHERE id = %s RETURNING a", g.arg(), g.key()), returnKind, 1
	}},
	{name: "update-guarded", gen: func(g *gen, d groundtruth.Dialect) (string, stmtKind, int) {
		return fmt.Sprintf("UPDATE acct SET a = a - %s WHERE id = %s AND a >= %s", g.arg(), g.key(), g.arg()), execKind, 0
	}},
	{name: "update-ifnull-if-nullif", dialects: []groundtruth.Dialect{groundtruth.MySQL, groundtruth.SQLite}, gen: func(g *gen, d groundtruth.Dialect) (string, stmtKind, int) {
		switch g.r.IntN(3) {
		case 0:
			return fmt.Sprintf("UPDATE acct SET a = IFNULL(b, %s) - %s WHERE id = %s", g.arg(), g.arg(), g.key()), execKind, 0
		case 1:
			if d == groundtruth.MySQL {
				return fmt.Sprintf("UPDATE acct SET a = IF(a > %s, a - %s, a) WHERE id = %s", g.arg(), g.arg(), g.key()), execKind, 0
			}
			return fmt.Sprintf("UPDATE acct SET a = IIF(a > %s, a - %s, a) WHERE id = %s", g.arg(), g.arg(), g.key()), execKind, 0
		}
		return fmt.Sprintf("UPDATE acct SET b = NULLIF(a, %s) WHERE id = %s", g.arg(), g.key()), execKind, 0
	}},
	{name: "update-quoted-number", gen: func(g *gen, d groundtruth.Dialect) (string, stmtKind, int) {
		n := g.r.IntN(5)
		if g.r.IntN(2) == 0 {
			return fmt.Sprintf("UPDATE acct SET a = a + '%d' WHERE id = %s", n, g.key()), execKind, 0
		}
		return fmt.Sprintf("UPDATE acct SET a = a - 1 WHERE id = %s AND a >= '%d'", g.key(), n), execKind, 0
	}},
	{name: "update-int-div", dialects: mysql, gen: func(g *gen, d groundtruth.Dialect) (string, stmtKind, int) {
		return fmt.Sprintf("UPDATE acct SET a = a %s %s WHERE id = %s", g.pick("DIV", "MOD"), g.arg(), g.key()), execKind, 0
	}},
	{name: "replace", dialects: []groundtruth.Dialect{groundtruth.MySQL, groundtruth.SQLite}, gen: func(g *gen, d groundtruth.Dialect) (string, stmtKind, int) {
		return fmt.Sprintf("REPLACE INTO acct (id, k, a) VALUES (%s, %s, %s)", g.key(), g.key(), g.arg()), execKind, 0
	}},
	{name: "insert-ignore", dialects: []groundtruth.Dialect{groundtruth.MySQL, groundtruth.SQLite}, gen: func(g *gen, d groundtruth.Dialect) (string, stmtKind, int) {
		verb := "INSERT IGNORE"
		if d == groundtruth.SQLite {
			verb = "INSERT OR IGNORE"
		}
		return fmt.Sprintf("%s INTO acct (id, k, a) VALUES (%s, %s, %s)", verb, g.key(), g.key(), g.arg()), execKind, 0
	}},
	{name: "update-ignore", dialects: mysql, gen: func(g *gen, d groundtruth.Dialect) (string, stmtKind, int) {
		// A value out of INT's range is clipped, a NULL for the NOT NULL
		// a stored as 0 (dbmodel/updateignore.go).
		val := g.pick("a - %s", "NULL", "b", "a + 2147483647", "a - 2147483647 - %s")
		if strings.Contains(val, "%s") {
			val = fmt.Sprintf(val, g.arg())
		}
		return fmt.Sprintf("UPDATE IGNORE acct SET a = %s WHERE id = %s", val, g.key()), execKind, 0
	}},
	{name: "delete-returning", gen: func(g *gen, d groundtruth.Dialect) (string, stmtKind, int) {
		return "DELETE FROM acct WHERE id = " + g.key() + " RETURNING a", returnKind, 1
	}},
	// Sequences: several statements on the same (or another) key, in a
	// transaction or not.
	{name: "seq-read-then-write", seq: func(g *gen, d groundtruth.Dialect) string {
		k := g.newKey()
		g.step("SELECT a FROM acct WHERE id = "+g.keyOf(k), selectKind, 1)
		g.step(fmt.Sprintf("UPDATE acct SET a = a - %s WHERE id = %s AND a >= %s", g.arg(), g.keyOf(k), g.arg()), execKind, 0)
		return g.txMode("", "commit")
	}},
	{name: "seq-savepoint", seq: func(g *gen, d groundtruth.Dialect) string {
		// Writes before and after a savepoint, undone to it or kept
		// (dbmodel/savepoint.go).
		k := g.newKey()
		g.step(fmt.Sprintf("UPDATE acct SET a = a + %s WHERE id = %s", g.arg(), g.keyOf(k)), execKind, 0)
		g.step("SAVEPOINT s", execKind, 0)
		if g.r.IntN(2) == 0 {
			g.step(fmt.Sprintf("UPDATE acct SET a = a - %s, b = %s WHERE id = %s", g.arg(), g.arg(), g.keyOf(k)), execKind, 0)
		} else {
			g.step(fmt.Sprintf("DELETE FROM acct WHERE id = %s", g.keyOf(k)), execKind, 0)
		}
		g.step(g.pick("ROLLBACK TO SAVEPOINT s", "RELEASE SAVEPOINT s"), execKind, 0)
		g.step("SELECT a, b FROM acct WHERE id = "+g.keyOf(k), selectKind, 2)
		return g.txMode("commit", "rollback")
	}},
	{name: "seq-write-then-read", seq: func(g *gen, d groundtruth.Dialect) string {
		k := g.newKey()
		g.step(fmt.Sprintf("UPDATE acct SET a = a + %s WHERE id = %s", g.arg(), g.keyOf(k)), execKind, 0)
		g.step("SELECT a, b FROM acct WHERE id = "+g.keyOf(k), selectKind, 2)
		return g.txMode("", "commit", "rollback")
	}},
	{name: "seq-delete-reinsert-read", seq: func(g *gen, d groundtruth.Dialect) string {
		k := g.newKey()
		g.step("DELETE FROM acct WHERE id = "+g.keyOf(k), execKind, 0)
		g.step(fmt.Sprintf("INSERT INTO acct (id, a) VALUES (%s, %s)", g.keyOf(k), g.arg()), execKind, 0)
		g.step("SELECT a FROM acct WHERE id = "+g.keyOf(k), selectKind, 1)
		return g.txMode("", "commit", "rollback")
	}},
	{name: "seq-insert-then-update", seq: func(g *gen, d groundtruth.Dialect) string {
		k := g.newKey()
		g.step(fmt.Sprintf("INSERT INTO acct (id, a, b) VALUES (%s, %s, %s)", g.keyOf(k), g.arg(), g.arg()), execKind, 0)
		g.step(fmt.Sprintf("UPDATE acct SET a = a + %s, b = %s WHERE id = %s", g.arg(), g.arg(), g.keyOf(k)), execKind, 0)
		return g.txMode("", "commit", "rollback")
	}},
	// The first row of an ORDER BY (dbmodel/orderby.go): no later in the
	// order than r where the WHERE matches r; ties return any tied row.
	{name: "select-order-limit", gen: func(g *gen, d groundtruth.Dialect) (string, stmtKind, int) {
		order := "a " + g.pick("ASC", "DESC")
		if g.r.IntN(2) == 0 {
			order += ", id " + g.pick("ASC", "DESC")
		}
		return fmt.Sprintf("SELECT id, a FROM acct WHERE %s ORDER BY %s LIMIT 1", g.cond(1), order), selectKind, 2
	}},
	// Rows of one INSERT with the same key fail the statement.
	{name: "insert-multi-row", gen: func(g *gen, d groundtruth.Dialect) (string, stmtKind, int) {
		return fmt.Sprintf("INSERT INTO acct (id, a) VALUES (%s, %s), (%s, %s)", g.key(), g.arg(), g.key(), g.arg()), execKind, 0
	}},
	// A multi-row upsert runs its rows in order, each with its own
	// excluded values: SQLite updates a row an earlier row inserted or
	// updated again, PostgreSQL fails the statement (an unguarded DO
	// UPDATE "cannot affect row a second time").
	{name: "upsert-multi-row", dialects: pgSQLite, gen: func(g *gen, d groundtruth.Dialect) (string, stmtKind, int) {
		ins := fmt.Sprintf("INSERT INTO acct (id, a) VALUES (%s, %s), (%s, %s)", g.key(), g.arg(), g.key(), g.arg())
		switch g.r.IntN(3) {
		case 0:
			return ins + " ON CONFLICT (id) DO NOTHING", execKind, 0
		case 1:
			return ins + " ON CONFLICT (id) DO UPDATE SET a = acct.a + excluded.a WHERE excluded.a > 0", execKind, 0
		}
		return ins + " ON CONFLICT (id) DO UPDATE SET a = acct.a + excluded.a", execKind, 0
	}},
	{name: "select-by-key", gen: func(g *gen, d groundtruth.Dialect) (string, stmtKind, int) {
		if g.r.IntN(2) == 0 {
			return "SELECT a, b FROM acct WHERE id = " + g.key(), selectKind, 2
		}
		return fmt.Sprintf("SELECT a, k FROM acct WHERE id = %s AND %s", g.key(), g.cond(1)), selectKind, 2
	}},
}

// initialRows draws 1–4 rows with distinct ids in 1..5, distinct or NULL
// k, small a, and small or NULL b.
func initialRows(r *rand.Rand) []groundtruth.Row {
	n := 1 + r.IntN(4)
	ids := r.Perm(5)[:n]
	ks := r.Perm(5)
	var rows []groundtruth.Row
	for i, id := range ids {
		row := groundtruth.Row{"id": int64(id + 1), "a": int64(r.IntN(9) - 3), "k": nil, "b": nil}
		if r.IntN(3) > 0 {
			row["k"] = int64(ks[i] + 1)
		}
		if r.IntN(3) > 0 {
			row["b"] = int64(r.IntN(9) - 3)
		}
		rows = append(rows, row)
	}
	return rows
}

// newCase draws case number i of form f on dialect d, deterministically
// from seed.
func newCase(f form, d groundtruth.Dialect, seed uint64, i int) stmtCase {
	h := uint64(0)
	for _, c := range f.name + "/" + string(d) {
		h = h*131 + uint64(c)
	}
	r := rand.New(rand.NewPCG(seed, h^uint64(i)*0x9e3779b97f4a7c15))
	rows := initialRows(r)
	g := &gen{r: r}
	// One case in three is modelled without the schema.
	c := stmtCase{form: f.name, rows: rows, dial: d, noSchema: i%3 == 2}
	if f.seq != nil {
		c.tx = f.seq(g, d)
		c.steps = g.steps
		return c
	}
	sql, kind, nret := f.gen(g, d)
	c.steps = []step{{sql: sql, args: g.args, kind: kind, nret: nret}}
	return c
}
