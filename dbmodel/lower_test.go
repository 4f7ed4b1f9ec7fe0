package dbmodel_test

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/dbmodel"
	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/refine"
	"github.com/dbverify/dbverify/smt"
	"github.com/dbverify/dbverify/spec"
	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
	"github.com/dbverify/dbverify/sqlparse/schema"
)

// step is one statement of a straight-line test program.
type step struct {
	sql   string   // a statement (args name inputs), or "" for a guard
	args  []string // input names bound to the placeholders
	into  []string // SELECT: the variables the row is read into
	guard string   // "x >= y" over inputs and read variables: the path continues only if it holds
	tx    string   // "begin", "commit", "rollback"
	// affected names the variable a write's rows-affected count is read
	// into ("" for none).
	affected string
	// txn is the transaction a tx step or a statement uses (0: the first);
	// pool runs the statement on the pool even while it is open.
	txn  ir.Tx
	pool bool
}

// build makes an ir.Program: inputs a, b, … (Int), then the steps in order;
// a failing SQL call returns (its error branch jumps to exit).
func build(t *testing.T, d sqlparse.Dialect, inputs []string, steps []step) *ir.Program {
	t.Helper()
	p := ir.NewProgram("test")
	vars := map[string]*ir.Var{}
	for _, n := range inputs {
		v := p.NewVar(n, ir.Int, ir.Input)
		vars[n] = v
		p.Inputs = append(p.Inputs, v)
	}
	cur := p.Entry
	next := func(s ir.Stmt) {
		n := p.NewLoc()
		p.AddEdge(cur, n, s)
		cur = n
	}
	onErr := func(err *ir.Var) {
		p.AddEdge(cur, p.Exit, &ir.Assume{Cond: err})
		next(&ir.Assume{Cond: ir.Not(err)})
	}
	for i, s := range steps {
		info := ir.Info{File: "test.go", Line: i + 1, Kind: ir.KindSQL, Text: s.sql}
		switch {
		case s.tx != "":
			err := p.NewVar("err", ir.Bool, ir.Local)
			op := map[string]ir.TxOpKind{"begin": ir.Begin, "commit": ir.Commit, "rollback": ir.Rollback}[s.tx]
			next(&ir.TxOp{Op: op, Tx: txnOf(s), Err: err, Info: info})
			if op == ir.Begin {
				onErr(err)
			}
		case s.sql != "":
			stmt, err := sqlparse.Parse(d, s.sql)
			if err != nil {
				t.Fatalf("%s: %v", s.sql, err)
			}
			var args []ir.Expr
			for _, a := range s.args {
				args = append(args, vars[a])
			}
			errV := p.NewVar("err", ir.Bool, ir.Local)
			if sel, ok := stmt.(*sqlir.Select); ok {
				var targets []*ir.Var
				for _, n := range s.into {
					v := p.NewVar(n, ir.Int, ir.Local)
					vars[n] = v
					targets = append(targets, v)
				}
				next(&ir.Select{SQL: sel, Args: args, Tx: txOf(steps[:i], s), Targets: targets, Err: errV, Info: info})
			} else {
				var targets []*ir.Var
				for _, n := range s.into {
					v := p.NewVar(n, ir.Int, ir.Local)
					vars[n] = v
					targets = append(targets, v)
				}
				var affected *ir.Var
				if s.affected != "" {
					affected = p.NewVar(s.affected, ir.Int, ir.Local)
					vars[s.affected] = affected
				}
				next(&ir.Exec{SQL: stmt, Args: args, Tx: txOf(steps[:i], s), Err: errV, Targets: targets, Affected: affected, Info: info})
			}
			onErr(errV)
		default:
			f := strings.Fields(s.guard) // "x op y" or "x op y + z"
			x := ir.Expr(vars[f[0]])
			var y ir.Expr = operand(f[2], vars)
			if len(f) == 5 {
				y = ir.Add(y, operand(f[4], vars))
			}
			op := map[string]ir.Op{">=": ir.OpGe, ">": ir.OpGt, "<=": ir.OpLe, "<": ir.OpLt}[f[1]]
			c := ir.Cmp(op, x, y)
			p.AddEdge(cur, p.Exit, &ir.Assume{Cond: ir.Not(c)})
			next(&ir.Assume{Cond: c})
		}
	}
	p.AddEdge(cur, p.Exit, &ir.Assume{Cond: ir.True})
	return p
}

func operand(s string, vars map[string]*ir.Var) ir.Expr {
	if v, ok := vars[s]; ok {
		return v
	}
	n := int64(0)
	for _, c := range s {
		n = n*10 + int64(c-'0')
	}
	return ir.IntLit(n)
}

func txnOf(s step) ir.Tx {
	if s.txn == 0 {
		return 1
	}
	return s.txn
}

// txOf returns the handle statement s runs on after steps: its
// transaction if that is open, else the pool.
func txOf(steps []step, s step) ir.Tx {
	open := map[ir.Tx]bool{}
	for _, p := range steps {
		switch p.tx {
		case "begin":
			open[txnOf(p)] = true
		case "commit", "rollback":
			open[txnOf(p)] = false
		}
	}
	if !s.pool && open[txnOf(s)] {
		return txnOf(s)
	}
	return 0
}

func TestRowModel(t *testing.T) {
	s, err := smt.NewSolver(10000)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const debit = "UPDATE accounts SET balance = balance - ? WHERE id = ?"
	tests := []struct {
		name   string
		d      sqlparse.Dialect
		opt    dbmodel.Options
		inputs []string
		steps  []step
		want   refine.Verdict
	}{
		{"unguarded debit", sqlparse.MySQL, dbmodel.Options{}, []string{"id", "amt"},
			[]step{{sql: debit, args: []string{"amt", "id"}}}, refine.Unsafe},
		{"guard in WHERE", sqlparse.MySQL, dbmodel.Options{}, []string{"id", "amt"},
			[]step{{sql: "UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?", args: []string{"amt", "id", "amt"}}}, refine.Safe},
		{"read, check, write the same key", sqlparse.MySQL, dbmodel.Options{}, []string{"id", "amt"},
			[]step{
				{sql: "SELECT balance FROM accounts WHERE id = ?", args: []string{"id"}, into: []string{"bal"}},
				{guard: "bal >= amt"},
				{sql: debit, args: []string{"amt", "id"}},
			}, refine.Safe},
		{"read, check, write without a known key", sqlparse.MySQL, dbmodel.Options{NoInferKey: true}, []string{"id", "amt"},
			[]step{
				{sql: "SELECT balance FROM accounts WHERE id = ?", args: []string{"id"}, into: []string{"bal"}},
				{guard: "bal >= amt"},
				{sql: debit, args: []string{"amt", "id"}},
			}, refine.Unsafe},
		{"read one row, write another", sqlparse.MySQL, dbmodel.Options{}, []string{"id", "other", "amt"},
			[]step{
				{sql: "SELECT balance FROM accounts WHERE id = ?", args: []string{"id"}, into: []string{"bal"}},
				{guard: "bal >= amt"},
				{sql: debit, args: []string{"amt", "other"}},
			}, refine.Unsafe},
		{"rolled back", sqlparse.MySQL, dbmodel.Options{}, []string{"id", "amt"},
			[]step{{tx: "begin"}, {sql: debit, args: []string{"amt", "id"}}, {tx: "rollback"}}, refine.Safe},
		{"committed", sqlparse.MySQL, dbmodel.Options{}, []string{"id", "amt"},
			[]step{{tx: "begin"}, {sql: debit, args: []string{"amt", "id"}}, {tx: "commit"}}, refine.Unsafe},
		{"checked inside the transaction before commit", sqlparse.MySQL, dbmodel.Options{}, []string{"id", "amt"},
			[]step{
				{tx: "begin"},
				{sql: debit, args: []string{"amt", "id"}},
				{sql: "SELECT balance FROM accounts WHERE id = ?", args: []string{"id"}, into: []string{"bal"}},
				{guard: "bal >= 0"},
				{tx: "commit"},
			}, refine.Safe},
		{"delete", sqlparse.MySQL, dbmodel.Options{}, []string{"id"},
			[]step{{sql: "DELETE FROM accounts WHERE id = ?", args: []string{"id"}}}, refine.Safe},
		{"insert unvalidated", sqlparse.MySQL, dbmodel.Options{}, []string{"id", "init"},
			[]step{{sql: "INSERT INTO accounts (id, balance) VALUES (?, ?)", args: []string{"id", "init"}}}, refine.Unsafe},
		{"insert validated", sqlparse.MySQL, dbmodel.Options{}, []string{"id", "init"},
			[]step{{guard: "init >= 0"}, {sql: "INSERT INTO accounts (id, balance) VALUES (?, ?)", args: []string{"id", "init"}}}, refine.Safe},
		{"upsert debits the existing row", sqlparse.Postgres, dbmodel.Options{}, []string{"id", "amt"},
			[]step{{guard: "amt >= 0"}, {sql: "INSERT INTO accounts (id, balance) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET balance = accounts.balance - $2", args: []string{"id", "amt"}}}, refine.Unsafe},
		{"insert or nothing", sqlparse.Postgres, dbmodel.Options{}, []string{"id", "amt"},
			[]step{{guard: "amt >= 0"}, {sql: "INSERT INTO accounts (id, balance) VALUES ($1, $2) ON CONFLICT DO NOTHING", args: []string{"id", "amt"}}}, refine.Safe},
		{"RETURNING the new balance, checked after the auto-commit", sqlparse.Postgres, dbmodel.Options{}, []string{"id", "amt"},
			[]step{{sql: "UPDATE accounts SET balance = balance - $1 WHERE id = $2 RETURNING balance", args: []string{"amt", "id"}, into: []string{"nb"}}}, refine.Unsafe},
		{"RETURNING in a transaction, rolled back when negative", sqlparse.Postgres, dbmodel.Options{}, []string{"id", "amt"},
			[]step{
				{tx: "begin"},
				{sql: "UPDATE accounts SET balance = balance - $1 WHERE id = $2 RETURNING balance", args: []string{"amt", "id"}, into: []string{"nb"}},
				{guard: "nb >= 0"},
				{tx: "commit"},
			}, refine.Safe},

		// Handles: the pool sees the committed state, and a rollback
		// undoes only the transaction's own writes.
		{"read through the pool sees the committed balance", sqlparse.MySQL, dbmodel.Options{}, []string{"id", "amt"},
			[]step{
				{tx: "begin"},
				{sql: debit, args: []string{"amt", "id"}},
				{sql: "SELECT balance FROM accounts WHERE id = ?", args: []string{"id"}, into: []string{"bal"}, pool: true},
				{guard: "bal >= 0"},
				{tx: "commit"},
			}, refine.Unsafe},
		{"rollback keeps what the pool committed meanwhile", sqlparse.MySQL, dbmodel.Options{}, []string{"id", "amt"},
			[]step{
				{guard: "amt > 0"},
				{sql: "SELECT balance FROM accounts WHERE id = ?", args: []string{"id"}, into: []string{"bal"}},
				{guard: "bal >= amt"},
				{tx: "begin"},
				{sql: debit, args: []string{"amt", "id"}, pool: true},
				{tx: "rollback"},
				{sql: debit, args: []string{"amt", "id"}, pool: true},
			}, refine.Unsafe},
		{"rollback undoes the transaction's debit before the pool's", sqlparse.MySQL, dbmodel.Options{}, []string{"id", "amt"},
			[]step{
				{guard: "amt > 0"},
				{sql: "SELECT balance FROM accounts WHERE id = ?", args: []string{"id"}, into: []string{"bal"}},
				{guard: "bal >= amt"},
				{tx: "begin"},
				{sql: debit, args: []string{"amt", "id"}},
				{tx: "rollback"},
				{sql: debit, args: []string{"amt", "id"}, pool: true},
			}, refine.Safe},
		{"commit of another transaction does not check pending writes", sqlparse.MySQL, dbmodel.Options{}, []string{"id", "amt"},
			[]step{
				{tx: "begin"},
				{sql: debit, args: []string{"amt", "id"}},
				{tx: "begin", txn: 2},
				{sql: "INSERT INTO audit_log (account_id, delta) VALUES (?, ?)", args: []string{"id", "amt"}, txn: 2},
				{tx: "commit", txn: 2},
				{sql: "SELECT balance FROM accounts WHERE id = ?", args: []string{"id"}, into: []string{"bal"}},
				{guard: "bal >= 0"},
				{tx: "commit"},
			}, refine.Safe},
		{"two transactions, the debiting one unchecked", sqlparse.MySQL, dbmodel.Options{}, []string{"id", "amt"},
			[]step{
				{tx: "begin"},
				{sql: debit, args: []string{"amt", "id"}},
				{tx: "begin", txn: 2},
				{sql: "INSERT INTO audit_log (account_id, delta) VALUES (?, ?)", args: []string{"id", "amt"}, txn: 2},
				{tx: "commit", txn: 2},
				{tx: "commit"},
			}, refine.Unsafe},

		// A row deleted and inserted again in one transaction is read back.
		{"deleted, inserted again and read back, unchecked", sqlparse.MySQL, dbmodel.Options{}, []string{"id", "amt"},
			[]step{
				{tx: "begin"},
				{sql: "SELECT balance FROM accounts WHERE id = ?", args: []string{"id"}, into: []string{"bal"}},
				{sql: "DELETE FROM accounts WHERE id = ?", args: []string{"id"}},
				{sql: "INSERT INTO accounts (id, balance) VALUES (?, ? - ?)", args: []string{"id", "bal", "amt"}},
				{sql: "SELECT balance FROM accounts WHERE id = ?", args: []string{"id"}, into: []string{"now"}},
				{tx: "commit"},
			}, refine.Unsafe},
		{"deleted, inserted again and read back, checked", sqlparse.MySQL, dbmodel.Options{}, []string{"id", "amt"},
			[]step{
				{tx: "begin"},
				{sql: "SELECT balance FROM accounts WHERE id = ?", args: []string{"id"}, into: []string{"bal"}},
				{sql: "DELETE FROM accounts WHERE id = ?", args: []string{"id"}},
				{sql: "INSERT INTO accounts (id, balance) VALUES (?, ? - ?)", args: []string{"id", "bal", "amt"}},
				{sql: "SELECT balance FROM accounts WHERE id = ?", args: []string{"id"}, into: []string{"now"}},
				{guard: "now >= 0"},
				{tx: "commit"},
			}, refine.Safe},

		// RowsAffected of an UPDATE pinned to a key is 1 exactly when that
		// row matched.
		{"RowsAffected 1 means the keyed row had room for the fee too", sqlparse.MySQL, dbmodel.Options{}, []string{"id", "amt", "fee", "total"},
			[]step{
				{guard: "amt >= 0"}, {guard: "fee >= 0"}, {guard: "total >= amt + fee"},
				{sql: "UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?", args: []string{"amt", "id", "total"}, affected: "n"},
				{guard: "n >= 1"},
				{sql: debit, args: []string{"fee", "id"}},
			}, refine.Safe},
		{"RowsAffected 1 without room for the fee", sqlparse.MySQL, dbmodel.Options{}, []string{"id", "amt", "fee"},
			[]step{
				{guard: "amt >= 0"}, {guard: "fee >= 0"},
				{sql: "UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?", args: []string{"amt", "id", "amt"}, affected: "n"},
				{guard: "n >= 1"},
				{sql: debit, args: []string{"fee", "id"}},
			}, refine.Unsafe},

		// Values the model approximates give UNKNOWN, not UNSAFE.
		{"SELECT * without a schema", sqlparse.MySQL, dbmodel.Options{}, []string{"id", "amt"},
			[]step{
				{sql: "SELECT * FROM accounts WHERE id = ?", args: []string{"id"}, into: []string{"xid", "bal"}},
				{guard: "bal >= amt"},
				{sql: debit, args: []string{"amt", "id"}},
			}, refine.Unknown},
		// INSERT … SELECT inserts the select list on a source row that
		// satisfies the WHERE; a join or an aggregate is not followed.
		{"INSERT … SELECT of a filtered row", sqlparse.MySQL, dbmodel.Options{}, []string{"id"},
			[]step{{sql: "INSERT INTO accounts (id, balance) SELECT ?, deposit FROM applications WHERE deposit >= 0", args: []string{"id"}}}, refine.Safe},
		{"INSERT … SELECT of any row", sqlparse.MySQL, dbmodel.Options{}, []string{"id"},
			[]step{{sql: "INSERT INTO accounts (id, balance) SELECT ?, deposit FROM applications WHERE id = ?", args: []string{"id", "id"}}}, refine.Unsafe},
		// MySQL compares the string under a collation not known without a
		// schema: the rows it selects are not followed.
		{"INSERT … SELECT comparing a string, MySQL without a schema", sqlparse.MySQL, dbmodel.Options{}, []string{"id"},
			[]step{{sql: "INSERT INTO accounts (id, balance) SELECT ?, deposit FROM applications WHERE kind = 'savings' AND deposit >= 0", args: []string{"id"}}}, refine.Unknown},
		{"INSERT … SELECT comparing a string, PostgreSQL", sqlparse.Postgres, dbmodel.Options{Dialect: "postgres"}, []string{"id"},
			[]step{{sql: "INSERT INTO accounts (id, balance) SELECT $1, deposit FROM applications WHERE kind = 'savings' AND deposit >= 0", args: []string{"id"}}}, refine.Safe},
		{"INSERT … SELECT of a join", sqlparse.MySQL, dbmodel.Options{}, []string{"id"},
			[]step{{sql: "INSERT INTO accounts (id, balance) SELECT ?, a.deposit FROM applications a JOIN users u ON u.id = a.user_id WHERE a.deposit >= 0", args: []string{"id"}}}, refine.Unknown},
		{"INSERT … SELECT of an aggregate", sqlparse.MySQL, dbmodel.Options{}, []string{"id"},
			[]step{{sql: "INSERT INTO accounts (id, balance) SELECT ?, SUM(deposit) FROM applications WHERE deposit >= 0", args: []string{"id"}}}, refine.Unknown},
		{"join over the constrained table", sqlparse.MySQL, dbmodel.Options{}, []string{"id", "amt"},
			[]step{
				{sql: "SELECT a.balance FROM accounts a JOIN users u ON u.id = a.user_id WHERE a.id = ?", args: []string{"id"}, into: []string{"bal"}},
				{guard: "bal >= amt"},
				{sql: debit, args: []string{"amt", "id"}},
			}, refine.Unknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := spec.ParseRowCheck("accounts.balance >= 0", "")
			if err != nil {
				t.Fatal(err)
			}
			p := build(t, tt.d, tt.inputs, tt.steps)
			low, err := dbmodel.Lower(p, c, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			res := refine.Check(context.Background(), low.Program, s, refine.Options{})
			if res.Verdict != tt.want {
				t.Fatalf("verdict %s (%s), want %s\n%s", res.Verdict, res.Reason, tt.want, low.Program)
			}
			if res.Verdict == refine.Unsafe && (res.Trace == nil || res.Trace.Violation.Values["balance"] == "") {
				t.Errorf("UNSAFE without a violating row: %+v", res.Trace)
			}
		})
	}
}

// TestRowModelSchemaFacts: what the schema (keys, NOT NULL) and facts
// about other tables say narrows the row model exactly, without losing
// behaviour the database allows.
func TestRowModelSchemaFacts(t *testing.T) {
	s, err := smt.NewSolver(10000)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const (
		ibanDDL = `CREATE TABLE accounts (id BIGSERIAL PRIMARY KEY, iban TEXT NOT NULL UNIQUE, balance BIGINT NOT NULL);`
		// The same table where a UNIQUE iban may be NULL.
		ibanNullDDL = `CREATE TABLE accounts (id BIGSERIAL PRIMARY KEY, iban TEXT UNIQUE, balance BIGINT NOT NULL);`
		pkOnlyDDL   = `CREATE TABLE accounts (id BIGSERIAL PRIMARY KEY, iban TEXT NOT NULL, balance BIGINT NOT NULL);`
		ownerDDL    = `CREATE TABLE accounts (id BIGSERIAL PRIMARY KEY, owner_id BIGINT NOT NULL, currency TEXT NOT NULL, balance BIGINT NOT NULL, UNIQUE (owner_id, currency));`
		productsDDL = "CREATE TABLE `products` (`id` BIGINT NOT NULL AUTO_INCREMENT, `sku` VARCHAR(64) NOT NULL, `stock` INT NOT NULL DEFAULT 0, PRIMARY KEY (`id`), UNIQUE KEY `uq_sku` (`sku`));"
		savingsDDL  = `CREATE TABLE savings (id BIGSERIAL PRIMARY KEY, balance BIGINT NOT NULL, peak BIGINT NOT NULL);`
		levelsDDL   = `CREATE TABLE stock_levels (warehouse_id BIGINT NOT NULL, sku TEXT NOT NULL, on_hand BIGINT NOT NULL, PRIMARY KEY (warehouse_id, sku));`
		levels2DDL  = `CREATE TABLE stock_levels (id BIGSERIAL PRIMARY KEY, warehouse_id BIGINT NOT NULL, sku TEXT NOT NULL, on_hand BIGINT NOT NULL, UNIQUE (warehouse_id, sku));`
		noKeyDDL    = `CREATE TABLE accounts (id BIGINT NOT NULL, balance BIGINT NOT NULL);`
		checkDDL    = `CREATE TABLE accounts (id BIGINT PRIMARY KEY, balance BIGINT NOT NULL CHECK (balance >= 10));`
		// The CHECK is the constraint verified: a write relying on the
		// database to refuse it breaks it.
		sameCheckDDL = `CREATE TABLE accounts (id BIGINT PRIMARY KEY, balance BIGINT NOT NULL CHECK (balance >= 0));`
		productsPG   = `CREATE TABLE products (id BIGINT PRIMARY KEY, stock BIGINT NOT NULL);`
		returnsDDL   = productsPG + ` CREATE TABLE returns (id BIGSERIAL PRIMARY KEY, qty BIGINT NOT NULL CHECK (qty > 0));`
		// A NULL qty passes the CHECK, but the value bound is a Go int.
		returnsNullDDL = productsPG + ` CREATE TABLE returns (id BIGSERIAL PRIMARY KEY, qty BIGINT CHECK (qty > 0));`
		returnsWeakDDL = productsPG + ` CREATE TABLE returns (id BIGSERIAL PRIMARY KEY, qty BIGINT NOT NULL CHECK (qty <> 0));`
		generatedDDL   = `CREATE TABLE budgets (id BIGINT PRIMARY KEY, total BIGINT NOT NULL, spent BIGINT NOT NULL, remaining BIGINT GENERATED ALWAYS AS (total - spent) STORED);`
		triggerDDL     = productsPG + ` CREATE TABLE orders (id BIGSERIAL PRIMARY KEY, product_id BIGINT NOT NULL, qty BIGINT NOT NULL);
CREATE FUNCTION take_stock() RETURNS trigger AS $$ BEGIN UPDATE products SET stock = stock - NEW.qty WHERE id = NEW.product_id; RETURN NEW; END; $$ LANGUAGE plpgsql;
CREATE TRIGGER orders_take_stock AFTER INSERT ON orders FOR EACH ROW EXECUTE FUNCTION take_stock();`
		upsertRet = `INSERT INTO stock_levels (warehouse_id, sku, on_hand) VALUES ($1, $2, $3) ON CONFLICT (warehouse_id, sku) DO UPDATE SET on_hand = stock_levels.on_hand + EXCLUDED.on_hand RETURNING on_hand`
	)
	readByID := step{sql: "SELECT balance FROM accounts WHERE id = $1", args: []string{"id"}, into: []string{"bal"}}
	debitByID := step{sql: "UPDATE accounts SET balance = balance - $1 WHERE id = $2", args: []string{"amt", "id"}}
	readByIban := step{sql: "SELECT balance FROM accounts WHERE iban = $1", args: []string{"iban"}, into: []string{"bal"}}
	debitByIban := step{sql: "UPDATE accounts SET balance = balance - $1 WHERE iban = $2", args: []string{"amt", "iban"}}
	readPrice := step{sql: "SELECT price FROM products WHERE id = $1", args: []string{"pid"}, into: []string{"price"}}
	addToCart := step{sql: "UPDATE carts SET total = total + $1 WHERE id = $2", args: []string{"price", "cart"}}
	tests := []struct {
		name       string
		d          sqlparse.Dialect
		constraint string
		ddl        string   // "" = no schema
		facts      []string // --assume
		inputs     []string
		steps      []step
		want       refine.Verdict
	}{
		// Every declared key identifies a row, not only the first.
		{"UNIQUE NOT NULL iban: the row read is the row debited", sqlparse.Postgres, "accounts.balance >= 0", ibanDDL, nil,
			[]string{"iban", "amt"}, []step{readByIban, {guard: "bal >= amt"}, debitByIban}, refine.Safe},
		{"iban not declared unique", sqlparse.Postgres, "accounts.balance >= 0", pkOnlyDDL, nil,
			[]string{"iban", "amt"}, []step{readByIban, {guard: "bal >= amt"}, debitByIban}, refine.Unsafe},
		// Over-approximated: r's iban may be NULL, and NULLs do not
		// identify a row, so r is not known to be the row read.
		{"UNIQUE iban that may be NULL does not identify the watched row", sqlparse.Postgres, "accounts.balance >= 0", ibanNullDDL, nil,
			[]string{"iban", "amt"}, []step{readByIban, {guard: "bal >= amt"}, debitByIban}, refine.Unsafe},
		{"read by the primary key, debit by the unique iban", sqlparse.Postgres, "accounts.balance >= 0", ibanDDL, nil,
			[]string{"id", "iban", "amt"}, []step{
				{sql: "SELECT balance FROM accounts WHERE id = $1", args: []string{"id"}, into: []string{"bal"}},
				{guard: "bal >= amt"}, debitByIban}, refine.Unsafe},
		{"composite UNIQUE key pinned in both statements", sqlparse.Postgres, "accounts.balance >= 0", ownerDDL, nil,
			[]string{"owner", "cur", "amt"}, []step{
				{sql: "SELECT balance FROM accounts WHERE owner_id = $1 AND currency = $2", args: []string{"owner", "cur"}, into: []string{"bal"}},
				{guard: "bal >= amt"},
				{sql: "UPDATE accounts SET balance = balance - $1 WHERE owner_id = $2 AND currency = $3", args: []string{"amt", "owner", "cur"}}}, refine.Safe},
		{"composite UNIQUE key, debit by half of it", sqlparse.Postgres, "accounts.balance >= 0", ownerDDL, nil,
			[]string{"owner", "cur", "amt"}, []step{
				{sql: "SELECT balance FROM accounts WHERE owner_id = $1 AND currency = $2", args: []string{"owner", "cur"}, into: []string{"bal"}},
				{guard: "bal >= amt"},
				{sql: "UPDATE accounts SET balance = balance - $1 WHERE owner_id = $2", args: []string{"amt", "owner"}}}, refine.Unsafe},
		// ON DUPLICATE KEY conflicts on any unique key, the PRIMARY KEY
		// first (issue 8): with PRIMARY KEY id and UNIQUE sku, the row
		// read by sku may not be the row updated (another row has the
		// id). (The row read by id is: corpus mysql_upsert_pk_first_safe;
		// refine.Check, unlike the pipeline's search, stops there with
		// "refinement found no new predicate".)
		{"ON DUPLICATE KEY with two unique keys may update another row", sqlparse.MySQL, "products.stock >= 0", productsDDL, nil,
			[]string{"id", "sku", "qty"}, []step{
				{sql: "SELECT `stock` FROM `products` WHERE `sku` = ?", args: []string{"sku"}, into: []string{"st"}},
				{guard: "st >= qty"},
				{sql: "INSERT INTO `products` (`id`, `sku`, `stock`) VALUES (?, ?, 0) ON DUPLICATE KEY UPDATE `stock` = `stock` - ?", args: []string{"id", "sku", "qty"}}}, refine.Unsafe},
		// SQLite's upsert without a conflict target picks the row by an
		// order of the keys (rowid first, then UNIQUE keys last declared
		// first) the schema does not keep: which row is an approximation,
		// so the same shape is UNKNOWN, not an UNSAFE whose row may be the
		// wrong one (it was UNSAFE by the model's free choice).
		{"SQLite upsert without a target, two unique keys: the row is an approximation", sqlparse.SQLite, "products.stock >= 0",
			`CREATE TABLE products (id INTEGER PRIMARY KEY, sku TEXT NOT NULL UNIQUE, stock INTEGER NOT NULL DEFAULT 0);`, nil,
			[]string{"id", "sku", "qty"}, []step{
				{sql: "SELECT stock FROM products WHERE sku = ?", args: []string{"sku"}, into: []string{"st"}},
				{guard: "st >= qty"},
				{sql: "INSERT INTO products (id, sku, stock) VALUES (?, ?, 0) ON CONFLICT DO UPDATE SET stock = stock - ?", args: []string{"id", "sku", "qty"}}}, refine.Unknown},

		// --assume facts about another table hold for the rows read from it.
		{"fact about the table read", sqlparse.Postgres, "carts.total >= 0", "", []string{"products.price >= 0"},
			[]string{"pid", "cart"}, []step{readPrice, addToCart}, refine.Safe},
		{"no fact about the table read", sqlparse.Postgres, "carts.total >= 0", "", nil,
			[]string{"pid", "cart"}, []step{readPrice, addToCart}, refine.Unsafe},
		{"fact too weak", sqlparse.Postgres, "carts.total >= 0", "", []string{"products.price >= 0 - 1"},
			[]string{"pid", "cart"}, []step{readPrice, addToCart}, refine.Unsafe},
		// (The read may read back the row the entry wrote, whose values
		// the model does not keep: an approximation, UNKNOWN.)
		{"fact about a table the entry writes", sqlparse.Postgres, "carts.total >= 0", "", []string{"products.price >= 0"},
			[]string{"pid", "cart"}, []step{
				{sql: "UPDATE products SET price = price - 10 WHERE id = $1", args: []string{"pid"}},
				readPrice, addToCart}, refine.Unknown},
		{"fact about a table the entry writes after the read", sqlparse.Postgres, "carts.total >= 0", "", []string{"products.price >= 0"},
			[]string{"pid", "cart"}, []step{
				readPrice, addToCart,
				{sql: "UPDATE products SET price = price - 10 WHERE id = $1", args: []string{"pid"}}}, refine.Safe},

		// Values of NOT NULL columns and bound parameters are never NULL:
		// GREATEST and LEAST are max and min.
		{"MySQL GREATEST clamps a NOT NULL column", sqlparse.MySQL, "products.stock >= 0", productsDDL, nil,
			[]string{"qty", "id"}, []step{{sql: "UPDATE `products` SET `stock` = GREATEST(`stock` - ?, 0) WHERE `id` = ?", args: []string{"qty", "id"}}}, refine.Safe},
		{"MySQL LEAST does not clamp", sqlparse.MySQL, "products.stock >= 0", productsDDL, nil,
			[]string{"qty", "id"}, []step{{sql: "UPDATE `products` SET `stock` = LEAST(`stock` - ?, 0) WHERE `id` = ?", args: []string{"qty", "id"}}}, refine.Unsafe},
		{"MySQL GREATEST of three", sqlparse.MySQL, "products.stock >= 0", productsDDL, nil,
			[]string{"qty", "id"}, []step{{sql: "UPDATE `products` SET `stock` = GREATEST(`stock` - ?, `stock` - 2 * ?, 0) WHERE `id` = ?", args: []string{"qty", "qty", "id"}}}, refine.Safe},
		{"MySQL left-to-right SET with GREATEST", sqlparse.MySQL, "savings.balance <= savings.peak", savingsDDL, nil,
			[]string{"amt", "id"}, []step{{sql: "UPDATE savings SET balance = balance + ?, peak = GREATEST(peak, balance) WHERE id = ?", args: []string{"amt", "id"}}}, refine.Safe},
		{"Postgres GREATEST over the new balance", sqlparse.Postgres, "savings.balance <= savings.peak", savingsDDL, nil,
			[]string{"amt", "id"}, []step{{sql: "UPDATE savings SET balance = balance + $1, peak = GREATEST(peak, balance + $1) WHERE id = $2", args: []string{"amt", "id"}}}, refine.Safe},
		{"Postgres GREATEST over the old balance", sqlparse.Postgres, "savings.balance <= savings.peak", savingsDDL, nil,
			[]string{"amt", "id"}, []step{{guard: "amt > 0"}, {sql: "UPDATE savings SET balance = balance + $1, peak = GREATEST(peak, balance) WHERE id = $2", args: []string{"amt", "id"}}}, refine.Unsafe},
		{"IS NULL of a NOT NULL column is false", sqlparse.Postgres, "savings.balance >= 0", savingsDDL, nil,
			[]string{"id"}, []step{{sql: "UPDATE savings SET balance = CASE WHEN balance IS NULL THEN -1 ELSE balance END WHERE id = $1", args: []string{"id"}}}, refine.Safe},
		{"IS NULL of a column that may be NULL is arbitrary", sqlparse.Postgres, "savings.balance >= 0", "", nil,
			[]string{"id"}, []step{{sql: "UPDATE savings SET balance = CASE WHEN balance IS NULL THEN -1 ELSE balance END WHERE id = $1", args: []string{"id"}}}, refine.Unsafe},

		// With a schema only the keys it declares identify a row.
		{"schema without a key: id is not one", sqlparse.Postgres, "accounts.balance >= 0", noKeyDDL, nil,
			[]string{"id", "amt"}, []step{readByID, {guard: "bal >= amt"}, debitByID}, refine.Unsafe},
		{"schema with the primary key id", sqlparse.Postgres, "accounts.balance >= 0", pkOnlyDDL, nil,
			[]string{"id", "amt"}, []step{readByID, {guard: "bal >= amt"}, debitByID}, refine.Safe},
		// CHECKs: a write that would break one fails.
		{"CHECK on the constrained table", sqlparse.Postgres, "accounts.balance >= 0", checkDDL, nil,
			[]string{"id", "amt"}, []step{debitByID}, refine.Safe},
		{"the CHECK verified is not enforced", sqlparse.Postgres, "accounts.balance >= 0", sameCheckDDL, nil,
			[]string{"id", "amt"}, []step{debitByID}, refine.Unsafe},
		{"CHECK of another table bounds the value inserted", sqlparse.Postgres, "products.stock >= 0", returnsDDL, nil,
			[]string{"qty", "pid"}, []step{
				{sql: "INSERT INTO returns (qty) VALUES ($1)", args: []string{"qty"}},
				{sql: "UPDATE products SET stock = stock + $1 WHERE id = $2", args: []string{"qty", "pid"}}}, refine.Safe},
		{"CHECK over a nullable column is not relied on", sqlparse.Postgres, "products.stock >= 0", returnsNullDDL, nil,
			[]string{"qty", "pid"}, []step{
				{sql: "INSERT INTO returns (qty) VALUES ($1)", args: []string{"qty"}},
				{sql: "UPDATE products SET stock = stock + $1 WHERE id = $2", args: []string{"qty", "pid"}}}, refine.Safe},
		{"CHECK too weak", sqlparse.Postgres, "products.stock >= 0", returnsWeakDDL, nil,
			[]string{"qty", "pid"}, []step{
				{sql: "INSERT INTO returns (qty) VALUES ($1)", args: []string{"qty"}},
				{sql: "UPDATE products SET stock = stock + $1 WHERE id = $2", args: []string{"qty", "pid"}}}, refine.Unsafe},
		// What the schema does behind the program's back is UNKNOWN.
		// A generated column is its expression.
		{"generated column lowered by a write to its input", sqlparse.Postgres, "budgets.remaining >= 0", generatedDDL, nil,
			[]string{"id", "amt"}, []step{{sql: "UPDATE budgets SET spent = spent + $1 WHERE id = $2", args: []string{"amt", "id"}}}, refine.Unsafe},
		{"generated column read and checked", sqlparse.Postgres, "budgets.remaining >= 0", generatedDDL, nil,
			[]string{"id", "amt"}, []step{
				{sql: "SELECT remaining FROM budgets WHERE id = $1", args: []string{"id"}, into: []string{"left"}},
				{guard: "left >= amt"},
				{sql: "UPDATE budgets SET spent = spent + $1 WHERE id = $2", args: []string{"amt", "id"}}}, refine.Safe},
		{"trigger that writes the constrained table", sqlparse.Postgres, "products.stock >= 0", triggerDDL, nil,
			[]string{"qty", "pid"}, []step{
				{sql: "INSERT INTO orders (product_id, qty) VALUES ($1, $2)", args: []string{"pid", "qty"}},
				{sql: "UPDATE products SET stock = stock + 1 WHERE id = $1", args: []string{"pid"}}}, refine.Unknown},
		{"trigger that writes another table", sqlparse.Postgres, "products.stock >= 0", triggerDDL, nil,
			[]string{"qty", "pid"}, []step{
				{sql: "UPDATE products SET stock = stock + 1 WHERE id = $1", args: []string{"pid"}}}, refine.Safe},
		{"SELECT * with a schema", sqlparse.Postgres, "accounts.balance >= 0", pkOnlyDDL, nil,
			[]string{"id", "amt"}, []step{
				{sql: "SELECT * FROM accounts WHERE id = $1", args: []string{"id"}, into: []string{"xid", "xiban", "bal"}},
				{guard: "bal >= amt"}, debitByID}, refine.Safe},

		// INSERT … ON CONFLICT DO UPDATE … RETURNING returns the row written.
		{"upsert RETURNING checked before commit", sqlparse.Postgres, "stock_levels.on_hand >= 0", "", nil,
			[]string{"wh", "sku", "delta"}, []step{
				{tx: "begin"},
				{sql: upsertRet, args: []string{"wh", "sku", "delta"}, into: []string{"oh"}},
				{guard: "oh >= 0"},
				{tx: "commit"}}, refine.Safe},
		{"upsert RETURNING not checked", sqlparse.Postgres, "stock_levels.on_hand >= 0", "", nil,
			[]string{"wh", "sku", "delta"}, []step{
				{tx: "begin"},
				{sql: upsertRet, args: []string{"wh", "sku", "delta"}, into: []string{"oh"}},
				{tx: "commit"}}, refine.Unsafe},
		{"upsert RETURNING on the primary key constraint", sqlparse.Postgres, "stock_levels.on_hand >= 0", levelsDDL, nil,
			[]string{"wh", "sku", "delta"}, []step{
				{tx: "begin"},
				{sql: `INSERT INTO stock_levels (warehouse_id, sku, on_hand) VALUES ($1, $2, $3) ON CONFLICT ON CONSTRAINT stock_levels_pkey DO UPDATE SET on_hand = stock_levels.on_hand + EXCLUDED.on_hand RETURNING on_hand`,
					args: []string{"wh", "sku", "delta"}, into: []string{"oh"}},
				{guard: "oh >= 0"},
				{tx: "commit"}}, refine.Safe},
		{"upsert RETURNING, conflicting key unknown among two", sqlparse.Postgres, "stock_levels.on_hand >= 0", levels2DDL, nil,
			[]string{"wh", "sku", "delta"}, []step{
				{tx: "begin"},
				{sql: `INSERT INTO stock_levels (warehouse_id, sku, on_hand) VALUES ($1, $2, $3) ON CONFLICT ON CONSTRAINT stock_levels_warehouse_id_sku_key DO UPDATE SET on_hand = stock_levels.on_hand + EXCLUDED.on_hand RETURNING on_hand`,
					args: []string{"wh", "sku", "delta"}, into: []string{"oh"}},
				{guard: "oh >= 0"},
				{tx: "commit"}}, refine.Safe},
		{"upsert on a partial unique index", sqlparse.Postgres, "stock_levels.on_hand >= 0", "", nil,
			[]string{"wh", "sku", "delta"}, []step{
				{tx: "begin"},
				{sql: `INSERT INTO stock_levels (warehouse_id, sku, on_hand) VALUES ($1, $2, $3) ON CONFLICT (warehouse_id, sku) WHERE on_hand > 0 DO UPDATE SET on_hand = stock_levels.on_hand + EXCLUDED.on_hand RETURNING on_hand`,
					args: []string{"wh", "sku", "delta"}, into: []string{"oh"}},
				{guard: "oh >= 0"},
				{tx: "commit"}}, refine.Safe},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := spec.ParseRowCheck(tt.constraint, "")
			if err != nil {
				t.Fatal(err)
			}
			// The row model follows the dialect the SQL is written in (a
			// Go integer next to a text column compares as a number on
			// MySQL only).
			opt := dbmodel.Options{Dialect: map[sqlparse.Dialect]string{sqlparse.Postgres: "postgres", sqlparse.SQLite: "sqlite"}[tt.d]}
			if tt.ddl != "" {
				if opt.Schema, err = schema.Parse(tt.ddl); err != nil {
					t.Fatal(err)
				}
			}
			for _, text := range tt.facts {
				f, err := spec.ParseFacts([]string{text})
				if err != nil {
					t.Fatal(err)
				}
				opt.Facts = append(opt.Facts, f...)
			}
			p := build(t, tt.d, tt.inputs, tt.steps)
			low, err := dbmodel.Lower(p, c, opt)
			if err != nil {
				t.Fatal(err)
			}
			res := refine.Check(context.Background(), low.Program, s, refine.Options{})
			if res.Verdict != tt.want {
				t.Fatalf("verdict %s (%s), want %s\n%s", res.Verdict, res.Reason, tt.want, low.Program)
			}
			if res.Verdict == refine.Unsafe && (res.Trace == nil || len(res.Trace.Violation.Values) == 0) {
				t.Errorf("UNSAFE without a violating row: %+v", res.Trace)
			}
		})
	}
}

// TestRowModelInsertDefaults: a column an INSERT omits, or sets to DEFAULT,
// gets the schema's DEFAULT; a sequence gives at least 1; a column without
// DEFAULT is NULL, which the model does not track: a counterexample through
// it is UNKNOWN, not UNSAFE.
func TestRowModelInsertDefaults(t *testing.T) {
	s, err := smt.NewSolver(10000)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const (
		pgDDL      = `CREATE TABLE products (id bigserial PRIMARY KEY, name text NOT NULL, stock integer NOT NULL DEFAULT 0, lo integer DEFAULT -1, note integer, at timestamptz DEFAULT now());`
		reqDDL     = `CREATE TABLE products (id bigserial PRIMARY KEY, name text NOT NULL, req integer NOT NULL);`
		myDDL      = "CREATE TABLE `products` (`id` BIGINT NOT NULL AUTO_INCREMENT, `name` VARCHAR(64) NOT NULL, `stock` INT NOT NULL DEFAULT '0', `lo` INT DEFAULT -1, `note` INT, PRIMARY KEY (`id`));"
		identDDL   = `CREATE TABLE products (id int GENERATED ALWAYS AS IDENTITY, name text, stock int);`
		startAt0   = `CREATE TABLE products (id int GENERATED BY DEFAULT AS IDENTITY (START WITH 0), name text, stock int);`
		alteredDDL = pgDDL + ` ALTER TABLE products ALTER COLUMN stock SET DEFAULT -3;`
	)
	setNegative := step{sql: "UPDATE products SET stock = -1 WHERE id = $1", args: []string{"b"}}
	setNegativeMy := step{sql: "UPDATE products SET stock = -1 WHERE id = ?", args: []string{"b"}}
	tests := []struct {
		name       string
		d          sqlparse.Dialect
		constraint string
		ddl        string
		steps      []step
		want       refine.Verdict
	}{
		{"omitted column gets DEFAULT 0", sqlparse.Postgres, "products.stock >= 0", pgDDL,
			[]step{{sql: "INSERT INTO products (name) VALUES ($1)", args: []string{"a"}}}, refine.Safe},
		{"DEFAULT keyword gets DEFAULT 0", sqlparse.Postgres, "products.stock >= 0", pgDDL,
			[]step{{sql: "INSERT INTO products (name, stock) VALUES ($1, DEFAULT)", args: []string{"a"}}}, refine.Safe},
		{"MySQL DEFAULT keyword and string default", sqlparse.MySQL, "products.stock >= 0", myDDL,
			[]step{{sql: "INSERT INTO `products` (`name`, `stock`) VALUES (?, DEFAULT), (?, DEFAULT)", args: []string{"a", "a"}}}, refine.Safe},
		{"negative DEFAULT", sqlparse.Postgres, "products.lo >= 0", pgDDL,
			[]step{{sql: "INSERT INTO products (name) VALUES ($1)", args: []string{"a"}}}, refine.Unsafe},
		{"MySQL negative DEFAULT keyword", sqlparse.MySQL, "products.lo >= 0", myDDL,
			[]step{{sql: "INSERT INTO `products` (`name`, `lo`) VALUES (?, DEFAULT)", args: []string{"a"}}}, refine.Unsafe},
		{"DEFAULT changed by ALTER TABLE", sqlparse.Postgres, "products.stock >= 0", alteredDDL,
			[]step{{sql: "INSERT INTO products (name) VALUES ($1)", args: []string{"a"}}}, refine.Unsafe},
		{"explicit value overrides the DEFAULT", sqlparse.Postgres, "products.stock >= 0", pgDDL,
			[]step{{sql: "INSERT INTO products (name, stock) VALUES ($1, $2)", args: []string{"a", "b"}}}, refine.Unsafe},
		{"no column list: values by position", sqlparse.Postgres, "products.stock >= 0", pgDDL,
			[]step{{sql: "INSERT INTO products VALUES (1, $1, $2)", args: []string{"a", "b"}}}, refine.Unsafe},
		{"no column list, fewer values: the rest get defaults", sqlparse.Postgres, "products.stock >= 0", pgDDL,
			[]step{{sql: "INSERT INTO products VALUES (1, $1)", args: []string{"a"}}}, refine.Safe},
		{"DEFAULT VALUES", sqlparse.Postgres, "products.stock >= 0", pgDDL,
			[]step{{sql: "INSERT INTO products DEFAULT VALUES"}}, refine.Safe},
		{"expression DEFAULT stays arbitrary", sqlparse.Postgres, "products.at >= 0", pgDDL,
			[]step{{sql: "INSERT INTO products (name) VALUES ($1)", args: []string{"a"}}}, refine.Unsafe},
		{"no schema: omitted column arbitrary", sqlparse.Postgres, "products.stock >= 0", "",
			[]step{{sql: "INSERT INTO products (name) VALUES ($1)", args: []string{"a"}}}, refine.Unsafe},
		{"nullable column without DEFAULT is NULL: unknown", sqlparse.Postgres, "products.note >= 0", pgDDL,
			[]step{{sql: "INSERT INTO products (name) VALUES ($1)", args: []string{"a"}}}, refine.Unknown},
		{"NOT NULL column without DEFAULT: the INSERT fails", sqlparse.Postgres, "products.req >= 0", reqDDL,
			[]step{{sql: "INSERT INTO products (name) VALUES ($1)", args: []string{"a"}}}, refine.Safe},
		{"NOT NULL column without DEFAULT fails the INSERT of another column", sqlparse.Postgres, "products.id > 5", reqDDL,
			[]step{{sql: "INSERT INTO products (id, name) VALUES ($1, $2)", args: []string{"b", "a"}}}, refine.Safe},
		{"NOT NULL column without DEFAULT given", sqlparse.Postgres, "products.id > 5", reqDDL,
			[]step{{sql: "INSERT INTO products (id, name, req) VALUES ($1, $2, 1)", args: []string{"b", "a"}}}, refine.Unsafe},
		{"MySQL nullable column without DEFAULT", sqlparse.MySQL, "products.note >= 0", myDDL,
			[]step{{sql: "INSERT INTO `products` (`name`) VALUES (?)", args: []string{"a"}}}, refine.Unknown},
		{"bigserial is at least 1", sqlparse.Postgres, "products.id > 0", pgDDL,
			[]step{{sql: "INSERT INTO products (name) VALUES ($1)", args: []string{"a"}}}, refine.Safe},
		{"bigserial RETURNING is at least 1", sqlparse.Postgres, "products.id > 0", pgDDL,
			[]step{{sql: "INSERT INTO products (name) VALUES ($1) RETURNING id", args: []string{"a"}, into: []string{"id"}}, {guard: "id > 0"}}, refine.Safe},
		{"AUTO_INCREMENT is at least 1", sqlparse.MySQL, "products.id > 0", myDDL,
			[]step{{sql: "INSERT INTO `products` (`name`) VALUES (?)", args: []string{"a"}}}, refine.Safe},
		{"identity is at least 1", sqlparse.Postgres, "products.id > 0", identDDL,
			[]step{{sql: "INSERT INTO products (name, stock) VALUES ($1, 1)", args: []string{"a"}}}, refine.Safe},
		{"identity starting at 0", sqlparse.Postgres, "products.id > 0", startAt0,
			[]step{{sql: "INSERT INTO products (name, stock) VALUES ($1, 1)", args: []string{"a"}}}, refine.Unsafe},
		// rowsAffected: the program sets stock to -1 only when the INSERT
		// reports fewer rows than it has. (INSERT … SELECT: none when its
		// SELECT selects no row, else at least one, an approximation: the
		// path is found but not reported as certain.)
		{"plain INSERT affects its rows", sqlparse.Postgres, "products.stock >= 0", pgDDL,
			[]step{{sql: "INSERT INTO products (name, stock) VALUES ($1, 0), ($1, 1)", args: []string{"a"}, affected: "n"}, {guard: "n < 2"}, setNegative}, refine.Safe},
		// An upsert counts the row it inserts: 1 (a trace printed
		// rowsAffected = 0 for an ON CONFLICT DO NOTHING that inserted
		// the violating row). The options' dialect is none: the omitted
		// id is a fresh AUTO_INCREMENT value, no conflict is possible.
		{"ON CONFLICT DO NOTHING may affect none", sqlparse.Postgres, "products.stock >= 0", pgDDL,
			[]step{{sql: "INSERT INTO products (id, name, stock) VALUES ($1, $2, 0) ON CONFLICT DO NOTHING", args: []string{"b", "a"}, affected: "n"}, {guard: "n < 1"}, setNegative}, refine.Unsafe},
		{"ON CONFLICT DO NOTHING that inserts counts 1", sqlparse.Postgres, "products.stock >= 0", pgDDL,
			[]step{{sql: "INSERT INTO products (name, stock) VALUES ($1, 0) ON CONFLICT DO NOTHING", args: []string{"a"}, affected: "n"}, {guard: "n < 1"}, setNegative}, refine.Safe},
		{"INSERT IGNORE may affect none", sqlparse.MySQL, "products.stock >= 0", myDDL,
			[]step{{sql: "INSERT IGNORE INTO `products` (`id`, `name`, `stock`) VALUES (?, ?, 0)", args: []string{"b", "a"}, affected: "n"}, {guard: "n < 1"}, setNegativeMy}, refine.Unsafe},
		{"INSERT IGNORE that inserts counts 1", sqlparse.MySQL, "products.stock >= 0", myDDL,
			[]step{{sql: "INSERT IGNORE INTO `products` (`name`, `stock`) VALUES (?, 0)", args: []string{"a"}, affected: "n"}, {guard: "n < 1"}, setNegativeMy}, refine.Safe},
		{"INSERT … SELECT may affect none", sqlparse.Postgres, "products.stock >= 0", pgDDL,
			[]step{{sql: "INSERT INTO products (name) SELECT name FROM drafts", affected: "n"}, {guard: "n < 1"}, setNegative}, refine.Unsafe},
		// Without a column list, the selected values fill the schema's
		// first columns (id, name, stock, lo, note, req).
		{"INSERT … SELECT without a column list, filtered", sqlparse.Postgres, "products.stock >= 0", pgDDL,
			[]step{{sql: "INSERT INTO products SELECT $1, name, qty, 0, 0, 0 FROM drafts WHERE qty >= 0", args: []string{"b"}}}, refine.Safe},
		{"INSERT … SELECT without a column list, unfiltered", sqlparse.Postgres, "products.stock >= 0", pgDDL,
			[]step{{sql: "INSERT INTO products SELECT $1, name, qty, 0, 0, 0 FROM drafts", args: []string{"b"}}}, refine.Unsafe},
		{"INSERT … SELECT may affect several", sqlparse.Postgres, "products.stock >= 0", pgDDL,
			[]step{{sql: "INSERT INTO products (name) SELECT name FROM drafts", affected: "n"}, {guard: "n > 1"}, setNegative}, refine.Unknown},
		{"ON DUPLICATE KEY UPDATE may count 2", sqlparse.MySQL, "products.stock >= 0", myDDL,
			[]step{{sql: "INSERT INTO `products` (`id`, `name`, `stock`) VALUES (?, ?, 0) ON DUPLICATE KEY UPDATE `name` = VALUES(`name`)", args: []string{"b", "a"}, affected: "n"}, {guard: "n > 1"}, setNegativeMy}, refine.Unsafe},
		{"ON DUPLICATE KEY UPDATE that inserts counts 1", sqlparse.MySQL, "products.stock >= 0", myDDL,
			[]step{{sql: "INSERT INTO `products` (`name`, `stock`) VALUES (?, 0) ON DUPLICATE KEY UPDATE `name` = VALUES(`name`)", args: []string{"a"}, affected: "n"}, {guard: "n > 1"}, setNegativeMy}, refine.Safe},
		{"explicit id overrides the sequence", sqlparse.Postgres, "products.id > 0", pgDDL,
			[]step{{sql: "INSERT INTO products (id, name) VALUES ($1, $2)", args: []string{"b", "a"}}}, refine.Unsafe},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := spec.ParseRowCheck(tt.constraint, "")
			if err != nil {
				t.Fatal(err)
			}
			opt := dbmodel.Options{}
			if tt.ddl != "" {
				if opt.Schema, err = schema.Parse(tt.ddl); err != nil {
					t.Fatal(err)
				}
			}
			p := build(t, tt.d, []string{"a", "b"}, tt.steps)
			low, err := dbmodel.Lower(p, c, opt)
			if err != nil {
				t.Fatal(err)
			}
			res := refine.Check(context.Background(), low.Program, s, refine.Options{})
			if res.Verdict != tt.want {
				t.Fatalf("verdict %s (%s), want %s\n%s", res.Verdict, res.Reason, tt.want, low.Program)
			}
		})
	}
}
