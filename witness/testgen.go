package witness

import (
	"bytes"
	"fmt"
	"go/format"
	"sort"
	"strconv"
	"strings"
	"text/template"
	"unicode"

	"golang.org/x/tools/go/packages"

	"github.com/dbverify/dbverify/sqlparse"
)

// DSNEnv is the environment variable an emitted test reads its database
// from.
const DSNEnv = "DBVERIFY_TEST_DSN"

// TestFile is a generated regression test for one counterexample.
type TestFile struct {
	// Dir is the entry's package directory, where the file belongs.
	Dir    string
	Name   string // the test function's name
	Source []byte
}

// emittable says why an entry's call cannot be written into a test (nil
// when it can): the test supports database/sql and sqlx handles and
// transactions given to the entry, net/http, gin and echo handlers, not
// pgx handles nor fiber handlers (whose Ctx only replay's driver builds).
func emittable(entry string, call string) error {
	if strings.Contains(call, "zzrt.FiberCtx") {
		return fmt.Errorf("%s is a fiber handler; the emitted test builds net/http, gin and echo requests (dbverify replay runs it)", entry)
	}
	if strings.Contains(call, "h.PgxTx") {
		return fmt.Errorf("%s takes an open pgx transaction; the emitted test begins database/sql and sqlx ones", entry)
	}
	if strings.Contains(call, "h.Pool()") || strings.Contains(call, "h.Conn()") {
		return fmt.Errorf("%s takes a pgx connection or pool; the emitted test supports database/sql and sqlx handles", entry)
	}
	return nil
}

// TestFile writes a Go test, in o's entry's package, that creates the
// schema in the database named by $DBVERIFY_TEST_DSN, seeds o's initial
// rows, calls the entry with its inputs the way the witness driver does,
// and fails when a row breaks the constraint afterwards. It is skipped
// when the variable is unset. The run must not need a failing database
// call (the test cannot inject one).
func (r *ReplayResult) TestFile(o *ReplayOutcome) (*TestFile, error) {
	if o.Run == nil {
		return nil, fmt.Errorf("the counterexample of %s was not run: %s", o.Target.Entry, o.NotRun)
	}
	if len(o.Run.Fail) > 0 {
		return nil, fmt.Errorf("the counterexample of %s needs a database call to fail (%s); a test cannot inject that", o.Target.Entry, o.Run.Fail[0].Text)
	}
	if name, ok := r.checkNames[o.Target.Constraint]; ok {
		return nil, fmt.Errorf("the constraint is the schema's CHECK %s, which the database enforces: the write fails instead of breaking it, so a test on the real schema would not see the violation (replay suspends the CHECK)", name)
	}
	pkgPath, key, _ := splitEntry(o.Target.Entry)
	byPath := map[string]*packages.Package{}
	packages.Visit(r.pkgs, nil, func(p *packages.Package) { byPath[p.PkgPath] = p })
	p := byPath[pkgPath]
	if p == nil || p.Types == nil || len(p.GoFiles) == 0 {
		return nil, fmt.Errorf("package %s not loaded", pkgPath)
	}
	hs, err := lookupHandles(byPath)
	if err != nil {
		return nil, err
	}
	g := &fileGen{pkg: p.Types, syntax: p, hs: hs, imports: map[string]string{}}
	spec := &EntrySpec{Name: o.Target.Entry, Pkg: pkgPath, Key: key}
	body, call, err := g.entryCallParts(spec)
	if err != nil {
		return nil, fmt.Errorf("calling %s: %w", o.Target.Entry, err)
	}
	call = strings.ReplaceAll(call, "zzrt.", "zzrt")
	if err := emittable(o.Target.Entry, call); err != nil {
		return nil, err
	}
	if outer, _, err := splitClosure(key); err == nil {
		fn, _, _ := g.lookupFunc(outer)
		call = g.routedCall(call, fn, o.Run.Inputs)
	}
	call = strings.ReplaceAll(body, "zzrt.", "zzrt") + call
	k := r.constraints[o.Target.Constraint]
	d := r.dialect
	data := testData{
		Entry:      o.Target.Entry,
		Constraint: o.Target.Constraint,
		Package:    p.Types.Name(),
		Func:       "TestDBVerifyReplay" + exportedName(key),
		Env:        DSNEnv,
		Driver:     "mysql",
		DriverPkg:  "github.com/go-sql-driver/mysql",
		Dialect:    d.String(),
		Schema:     r.Schema.Source,
		Sqlx:       strings.Contains(call, "h.X") || strings.Contains(call, "h.Txx("),
		Decimal:    strings.Contains(call, "in.Decimal("),
		Time:       strings.Contains(call, "in.Time("),
		Fill:       strings.Contains(call, "zzrtFillHandles("),
		Must:       strings.Contains(call, "zzrtMust("),
		Extras:     extrasFor(call, importSet(p)),
		Call:       call,
		Check:      k.ViolationQuery(),
		Table:      k.Table,
	}
	switch d {
	case sqlparse.Postgres:
		data.Driver, data.DriverPkg = "pgx", "github.com/jackc/pgx/v5/stdlib"
	case sqlparse.SQLite:
		data.Driver, data.DriverPkg = "sqlite", SQLiteDriverPackage
	}
	data.Setup = r.setupStatements(o.Run.Rows)
	for _, in := range sortedKeys(o.Run.Inputs) {
		if in == "$http.body" && body != "" {
			// (the driver's guess, for a type it cannot build)
			data.Inputs = append(data.Inputs, fmt.Sprintf("%q: \"\", // marshalled by WithJSON from the $http.json fields", in))
			continue
		}
		data.Inputs = append(data.Inputs, fmt.Sprintf("%q: %q", in, o.Run.Inputs[in]))
	}
	var paths []string
	for path := range g.imports {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	for _, path := range paths {
		data.Imports = append(data.Imports, fmt.Sprintf("%s %q", g.imports[path], path))
	}
	data.Imports = append(data.Imports, data.Extras.imports()...)
	var b bytes.Buffer
	if err := testTemplate.Execute(&b, data); err != nil {
		return nil, err
	}
	// Helpers named after the test: several emitted tests share a package.
	text := strings.ReplaceAll(b.String(), "zzrt", "zzrt"+exportedName(key))
	text = strings.ReplaceAll(text, "zzReplayCall", "zzReplayCall"+exportedName(key))
	src, err := format.Source([]byte(text))
	if err != nil {
		return nil, fmt.Errorf("formatting the test: %w\n%s", err, text)
	}
	return &TestFile{Dir: dirOf(p), Name: data.Func, Source: src}, nil
}

// setupStatements are the emitted test's statements before the call, as Go
// string literals: the tables dropped and created, the rows seeded.
func (r *ReplayResult) setupStatements(rows []Row) []string {
	d := r.dialect
	var setup []string
	for _, t := range sortedKeys(r.Schema.Tables) {
		q := "DROP TABLE IF EXISTS " + r.Schema.TableSQL(d, r.Schema.Tables[t].Name)
		if d == sqlparse.Postgres {
			q += " CASCADE"
		}
		setup = append(setup, strconv.Quote(q))
	}
	for _, stmt := range splitStatements(r.Schema.DDLFor(d)) {
		setup = append(setup, strconv.Quote(stmt))
	}
	// The rows are seeded as Seed does: foreign keys not checked, a zero
	// auto-increment value kept (MySQL).
	var noFK, restore []string
	switch {
	case d == sqlparse.Postgres && strings.Contains(strings.ToUpper(r.Schema.DDL), "REFERENCES"):
		noFK, restore = []string{"SET session_replication_role = replica"}, []string{"SET session_replication_role = DEFAULT"}
	case d == sqlparse.SQLite:
		noFK, restore = []string{"PRAGMA foreign_keys = OFF"}, []string{"PRAGMA foreign_keys = ON"}
	case d != sqlparse.Postgres:
		noFK = []string{"SET FOREIGN_KEY_CHECKS = 0", "SET SESSION sql_mode = CONCAT(@@sql_mode, ',NO_AUTO_VALUE_ON_ZERO')"}
		restore = []string{"SET FOREIGN_KEY_CHECKS = 1", "SET SESSION sql_mode = REPLACE(@@sql_mode, ',NO_AUTO_VALUE_ON_ZERO', '')"}
	}
	for _, q := range noFK {
		setup = append(setup, strconv.Quote(q))
	}
	for _, row := range rows {
		setup = append(setup, strconv.Quote(InsertSQLFor(d, r.Schema, row)))
	}
	for _, q := range restore {
		setup = append(setup, strconv.Quote(q))
	}
	return setup
}

// importSet are the paths p imports.
func importSet(p *packages.Package) map[string]bool {
	out := map[string]bool{}
	for path := range p.Imports {
		out[path] = true
	}
	return out
}

// exportedName turns an entry key ("(*Store).Withdraw", "Withdraw") into
// an identifier part ("StoreWithdraw").
func exportedName(key string) string {
	var b strings.Builder
	up := true
	for _, r := range key {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			up = true
			continue
		}
		if up {
			r = unicode.ToUpper(r)
			up = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// splitStatements splits DDL at the semicolons that end a line (the DDL
// is the program's or synthesised; a database/sql Exec runs one
// statement on PostgreSQL's extended protocol).
func splitStatements(ddl string) []string {
	var out []string
	for _, s := range strings.SplitAfter(ddl, ";\n") {
		s = strings.TrimSpace(s)
		s = strings.TrimSpace(strings.TrimSuffix(s, ";"))
		if s == "" || strings.HasPrefix(s, "--") && !strings.Contains(s, "\n") {
			continue
		}
		out = append(out, s)
	}
	return out
}

type testData struct {
	Entry, Constraint, Package, Func, Env, Driver, DriverPkg, Dialect, Schema string
	Sqlx, Decimal, Time, Fill, Must                                           bool
	Extras                                                                    testExtras
	Imports, Setup, Inputs                                                    []string
	Call, Check, Table                                                        string
}

// testTemplate is the emitted test; "extras" (testgen_extras.go) adds
// the helpers of handlers and transactions.
var testTemplate = parseTestTemplate()

func parseTestTemplate() *template.Template {
	t := template.Must(template.New("test").Parse(testText))
	template.Must(t.New("extras").Parse(extrasTemplate))
	return t
}

const testText = `// Code generated by dbverify replay --emit-test. Keep it: it is a
// regression test for a counterexample dbverify found.
//
// entry:      {{.Entry}}
// constraint: {{.Constraint}}
// dialect:    {{.Dialect}}; schema: {{.Schema}}

package {{.Package}}

import (
	"context"
	"database/sql"
	"fmt"
	"math/big"
	"os"
{{- if .Fill}}
	"reflect"
{{- end}}
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
{{- if .Time}}
	"time"
{{- end}}
{{- if .Fill}}
	"unsafe"
{{- end}}

	_ {{printf "%q" .DriverPkg}}
{{- if .Sqlx}}
	"github.com/jmoiron/sqlx"
{{- end}}
{{- if .Decimal}}
	"github.com/shopspring/decimal"
{{- end}}
{{- range .Imports}}
	{{.}}
{{- end}}
)

// {{.Func}} replays dbverify's counterexample: it creates the tables in
// the scratch database ${{.Env}} (a {{.Driver}} DSN; the tables are dropped
// first), seeds the initial rows, calls the entry with the
// counterexample's inputs and fails if a row breaks
// {{.Constraint}} afterwards.
func {{.Func}}(t *testing.T) {
	dsn := os.Getenv({{printf "%q" .Env}})
	if dsn == "" {
		t.Skip("set {{.Env}} to a scratch {{.Driver}} database to run this test")
	}
	ctx := context.Background()
	db, err := sql.Open({{printf "%q" .Driver}}, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(ctx) // one session: the SETs hold while seeding
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
{{- range .Setup}}
		{{.}},
{{- end}}
	} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	conn.Close()

	h := &zzrtHandles{DB: db{{if .Sqlx}}, X: sqlx.NewDb(db, {{printf "%q" .Driver}}){{end}}}
	in := zzrtInputs{
{{- range .Inputs}}
		{{.}},
{{- end}}
	}
	err = zzReplayCall(ctx, h, in)
{{- if or .Extras.Gin .Extras.Echo}}
	if errors.Is(err, zzrtNotServed) {
		t.Fatal(err)
	}
{{- end}}
{{- if or .Extras.Tx .Extras.Txx}}
	if ferr := h.finish(); err == nil {
		err = ferr
	}
{{- end}}
	t.Logf("the entry returned %v", err)

	rows, err := db.QueryContext(ctx, {{printf "%q" .Check}})
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		var kv []string
		for i, c := range cols {
			v := vals[i]
			if b, ok := v.([]byte); ok {
				v = string(b)
			}
			kv = append(kv, fmt.Sprintf("%s=%v", c, v))
		}
		t.Errorf("{{.Constraint}} broken by the {{.Table}} row {%s}", strings.Join(kv, " "))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}

// zzReplayCall calls the entry as dbverify's witness driver does.
func zzReplayCall(ctx context.Context, h *zzrtHandles, in zzrtInputs) (err error) {
	defer zzrtRecover(&err)
	_, _, _ = ctx, h, in
{{.Call}}}

// The part of dbverify's witness runtime the call uses.

type zzrtHandles struct {
	DB *sql.DB
{{- if or .Extras.Tx .Extras.Txx}}
	open []func() error
{{- end}}
{{- if .Sqlx}}
	X  *sqlx.DB
{{- end}}
}

type zzrtInputs map[string]string

func (in zzrtInputs) rat(p string) *big.Rat {
	s := strings.TrimSpace(in[p])
	switch s {
	case "", "false":
		return new(big.Rat)
	case "true":
		return big.NewRat(1, 1)
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		panic(fmt.Sprintf("input %s: %q is not a number", p, s))
	}
	return r
}

func (in zzrtInputs) Int(p string) int64 {
	r := in.rat(p)
	return new(big.Int).Quo(r.Num(), r.Denom()).Int64()
}

func (in zzrtInputs) Uint(p string) uint64 { return uint64(in.Int(p)) }

func (in zzrtInputs) Float(p string) float64 {
	f, _ := in.rat(p).Float64()
	return f
}

func (in zzrtInputs) Bool(p string) bool {
	s := strings.TrimSpace(in[p])
	return s == "true" || s == "1" || (s != "" && s != "0" && s != "false")
}

func (in zzrtInputs) String(p string) string {
	s := in[p]
	if u, err := strconv.Unquote(s); err == nil {
		return u
	}
	return s
}
{{- if .Decimal}}

func (in zzrtInputs) Decimal(p string) decimal.Decimal {
	return decimal.NewFromBigRat(in.rat(p), 12)
}
{{- end}}

{{- if .Time}}

func (in zzrtInputs) Time(p string) time.Time {
	s := strings.TrimSpace(in[p])
	if s == "" {
		return time.Now()
	}
	if u, err := strconv.Unquote(s); err == nil {
		s = u
	}
	for _, layout := range []string{"2006-01-02 15:04:05", time.RFC3339Nano, "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t
		}
	}
	panic(fmt.Sprintf("input %s: %q is not a time", p, s))
}
{{- end}}

func (in zzrtInputs) Len(p string) int {
	n := 0
	for k := range in {
		if strings.HasPrefix(k, p+"[") {
			if i, err := strconv.Atoi(strings.SplitN(k[len(p)+1:], "]", 2)[0]); err == nil && i+1 > n {
				n = i + 1
			}
		}
	}
	if s, ok := in[p+".len"]; ok {
		if l, err := strconv.Atoi(s); err == nil {
			n = l
		}
	}
	return n
}

func zzrtSlice[T any](in zzrtInputs, p string, elem func(string) T) []T {
	n := in.Len(p)
	if n == 0 {
		return nil
	}
	out := make([]T, n)
	for i := range out {
		out[i] = elem(fmt.Sprintf("%s[%d]", p, i))
	}
	return out
}

func zzrtPtr[T any](v T) *T { return &v }

func zzrtPtrOrNil[T any](in zzrtInputs, p string, v T) *T {
	if s, ok := in[p+" != nil"]; ok && strings.TrimSpace(s) == "false" {
		return nil
	}
	return &v
}

func zzrtRecover(err *error) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
	}
}

{{- if .Must}}

func zzrtMust[T any](v T, err error) T {
	if err != nil {
		panic("constructing a parameter: " + err.Error())
	}
	return v
}
{{- end}}
{{- if .Fill}}

// zzrtFillHandles sets the nil database handle fields of *p, exported or
// not, and of the structs it points to, to h's handles.
func zzrtFillHandles[T any](p *T, h *zzrtHandles) *T {
	zzrtFill(reflect.ValueOf(p).Elem(), h, 0)
	return p
}

func zzrtFill(v reflect.Value, h *zzrtHandles, depth int) {
	if depth > 4 || v.Kind() != reflect.Struct {
		return
	}
	handles := []reflect.Value{reflect.ValueOf(h.DB)}
{{- if .Sqlx}}
	handles = append(handles, reflect.ValueOf(h.X))
{{- end}}
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		f = reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
		set := false
		for _, hv := range handles {
			if hv.Type() == f.Type() || f.Kind() == reflect.Interface && f.NumMethod() > 0 && hv.Type().Implements(f.Type()) {
				if f.IsZero() {
					f.Set(hv)
				}
				set = true
				break
			}
		}
		switch {
		case set:
		case f.Kind() == reflect.Struct:
			zzrtFill(f, h, depth+1)
		case f.Kind() == reflect.Pointer && f.Type().Elem().Kind() == reflect.Struct && strings.Contains(strings.Split(f.Type().Elem().PkgPath(), "/")[0], "."):
			// (a struct of a module, not of the standard library)
			if f.IsNil() {
				f.Set(reflect.New(f.Type().Elem()))
			}
			zzrtFill(f.Elem(), h, depth+1)
		}
	}
}
{{- end}}

var _ = zzrtSlice[int]
var _ = zzrtPtr[int]
var _ = zzrtPtrOrNil[int]
{{template "extras" .}}
`
