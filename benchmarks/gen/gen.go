package gen

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"strings"
)

// Module is the module path of every generated program.
const Module = "example.com/gen"

// Constraint is the constraint every generated program keeps.
const Constraint = "accounts.balance >= 0"

// Program is a generated module: a go.mod and one package.
type Program struct {
	// Name describes the program, e.g. "sequential-8".
	Name string
	// Package is the package name; its directory is Package too.
	Package string
	// Source is the package's single Go file, gofmt-ed.
	Source []byte
	// Entries are the fully qualified entry points dbverify should find.
	Entries []string
	// Verdict is the right verdict of every entry for Constraint.
	Verdict string
	// Paths is the number of paths through the guards of a Sequential
	// program (2^N; 0 when N > 62, too many to count in a uint64); 0 for
	// the other shapes.
	Paths uint64
}

// Write writes the module into dir (created if needed): dir/go.mod and
// dir/<Package>/<Package>.go.
func (p *Program) Write(dir string) error {
	pkgDir := filepath.Join(dir, p.Package)
	if err := os.MkdirAll(pkgDir, 0o755); err != nil {
		return err
	}
	gomod := fmt.Sprintf("module %s\n\ngo 1.22\n", Module)
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(pkgDir, p.Package+".go"), p.Source, 0o644)
}

func (p *Program) entry(fn string) string { return Module + "/" + p.Package + "." + fn }

func gofmt(name string, b *bytes.Buffer) ([]byte, error) {
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("gen %s: generated source does not parse: %w", name, err)
	}
	return src, nil
}

// Sequential is N independent guarded updates in one entry point:
//
//	func Apply(db *sql.DB, id int64, d1, …, dN int64) error {
//		if d1 >= 0 { db.Exec("UPDATE accounts SET balance = balance + ? WHERE id = ?", d1, id) }
//		…
//	}
//
// 2^N paths; every update adds a non-negative amount, so it is SAFE.
func Sequential(n int) (*Program, error) {
	if n < 1 || n > 1000 {
		return nil, fmt.Errorf("gen: sequential N = %d out of range 1..1000", n)
	}
	p := &Program{Name: fmt.Sprintf("sequential-%d", n), Package: "seq", Verdict: "SAFE"}
	if n <= 62 {
		p.Paths = 1 << uint(n)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Package seq is generated: %d sequential guarded updates.\npackage seq\n\n", n)
	b.WriteString("import \"database/sql\"\n\n")
	params := make([]string, n)
	for i := range params {
		params[i] = fmt.Sprintf("d%d", i+1)
	}
	fmt.Fprintf(&b, "// Apply credits every non-negative delta to account id.\n")
	fmt.Fprintf(&b, "func Apply(db *sql.DB, id int64, %s int64) error {\n", strings.Join(params, ", "))
	for _, d := range params {
		fmt.Fprintf(&b, "\tif %s >= 0 {\n", d)
		fmt.Fprintf(&b, "\t\tdb.Exec(\"UPDATE accounts SET balance = balance + ? WHERE id = ?\", %s, id)\n", d)
		b.WriteString("\t}\n")
	}
	b.WriteString("\treturn nil\n}\n")
	src, err := gofmt(p.Name, &b)
	if err != nil {
		return nil, err
	}
	p.Source = src
	p.Entries = []string{p.entry("Apply")}
	return p, nil
}

// EntryPoints is M copies of a guarded withdrawal, each its own entry
// point (Withdraw1 … WithdrawM): read the balance of account id, refuse a
// non-positive amount or one above the balance, then debit it. SAFE.
func EntryPoints(m int) (*Program, error) {
	if m < 1 {
		return nil, fmt.Errorf("gen: entry points M = %d < 1", m)
	}
	p := &Program{Name: fmt.Sprintf("entries-%d", m), Package: "entries", Verdict: "SAFE"}
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Package entries is generated: %d guarded withdraw entry points.\npackage entries\n\n", m)
	b.WriteString("import (\n\t\"database/sql\"\n\t\"errors\"\n)\n\n")
	b.WriteString("// ErrRefused is returned for an amount that is not positive or exceeds the balance.\n")
	b.WriteString("var ErrRefused = errors.New(\"entries: withdrawal refused\")\n\n")
	for i := 1; i <= m; i++ {
		fn := fmt.Sprintf("Withdraw%d", i)
		fmt.Fprintf(&b, "// %s debits amt from account id if the balance covers it.\n", fn)
		fmt.Fprintf(&b, "func %s(db *sql.DB, id, amt int64) error {\n", fn)
		b.WriteString("\tvar bal int64\n")
		b.WriteString("\tif err := db.QueryRow(\"SELECT balance FROM accounts WHERE id = ?\", id).Scan(&bal); err != nil {\n\t\treturn err\n\t}\n")
		b.WriteString("\tif amt <= 0 || amt > bal {\n\t\treturn ErrRefused\n\t}\n")
		b.WriteString("\t_, err := db.Exec(\"UPDATE accounts SET balance = balance - ? WHERE id = ?\", amt, id)\n")
		b.WriteString("\treturn err\n}\n\n")
		p.Entries = append(p.Entries, p.entry(fn))
	}
	src, err := gofmt(p.Name, &b)
	if err != nil {
		return nil, err
	}
	p.Source = src
	return p, nil
}

// LoopNest is D nested counting loops around a guarded update:
//
//	func Apply(db *sql.DB, id, n, amt int64) error {
//		for i1 := int64(0); i1 < n; i1++ {
//			…
//				if amt >= 0 { db.Exec("UPDATE accounts SET balance = balance + ? WHERE id = ?", amt, id) }
//		}
//		return nil
//	}
//
// The update only ever adds a non-negative amount: SAFE.
func LoopNest(d int) (*Program, error) {
	if d < 1 {
		return nil, fmt.Errorf("gen: loop depth D = %d < 1", d)
	}
	p := &Program{Name: fmt.Sprintf("loops-%d", d), Package: "loops", Verdict: "SAFE"}
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Package loops is generated: a guarded update in %d nested loops.\npackage loops\n\n", d)
	b.WriteString("import \"database/sql\"\n\n")
	b.WriteString("// Apply credits amt to account id n^D times, if amt is not negative.\n")
	b.WriteString("func Apply(db *sql.DB, id, n, amt int64) error {\n")
	for i := 1; i <= d; i++ {
		fmt.Fprintf(&b, "for i%d := int64(0); i%d < n; i%d++ {\n", i, i, i)
	}
	b.WriteString("if amt >= 0 {\ndb.Exec(\"UPDATE accounts SET balance = balance + ? WHERE id = ?\", amt, id)\n}\n")
	for i := 1; i <= d; i++ {
		b.WriteString("}\n")
	}
	b.WriteString("return nil\n}\n")
	src, err := gofmt(p.Name, &b)
	if err != nil {
		return nil, err
	}
	p.Source = src
	p.Entries = []string{p.entry("Apply")}
	return p, nil
}
