package progen

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/dbverify/dbverify/benchmarks/harness"
)

func TestDeterministic(t *testing.T) {
	a, err := Generate(7, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Generate(7, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Source, b.Source) {
		t.Error("seed 7 gave two different programs")
	}
	c, err := Generate(8, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(a.Source[100:], c.Source[100:]) {
		t.Error("seeds 7 and 8 gave the same program")
	}
}

// TestConstructs checks that a batch of the size make bench runs uses
// every construct the generator knows.
func TestConstructs(t *testing.T) {
	want := []string{"input check", "transaction", "read", "read through db in tx", "missing row as zero",
		"guard", "update", "absolute write", "two columns", "guard in SQL", "RowsAffected", "insert", "delete",
		"assignment", "if/else", "loop", "break", "helper guarded", "helper checked", "helper unguarded",
		"multiplication", "division", "modulo", "min/max", "&& / ||"}
	seen := map[string]bool{}
	for seed := int64(1); seed <= 60; seed++ {
		p, err := Generate(seed, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range p.Features {
			seen[f] = true
		}
	}
	for _, f := range want {
		if !seen[f] {
			t.Errorf("no program of seeds 1..60 uses %q", f)
		}
	}
	if len(seen) != len(want) {
		t.Errorf("constructs used %v, want exactly %v", seen, want)
	}
}

// TestProgramsBuild builds a batch of generated programs with the Go
// toolchain: every program is well-typed Go (no unused variable, no
// shadowing error), with the corpus module's dependencies.
func TestProgramsBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	root, err := harness.ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	var progs []*Program
	for seed := int64(1); seed <= 40; seed++ {
		p, err := Generate(seed, Options{Entries: 3, Statements: 5, Dialect: Dialects()[seed%3]})
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, p)
	}
	dir := t.TempDir()
	cases, err := WriteModule(dir, filepath.Join(root, "benchmarks", "corpus"), progs)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != len(progs) || len(cases[0].Expect) != 3*len(progs[0].Constraints) {
		t.Fatalf("%d cases, first with %d expectations", len(cases), len(cases[0].Expect))
	}
	cmd := exec.Command("go", "vet", "./"+Dir+"/...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet of the generated programs: %v\n%s", err, out)
	}
}

func TestNumbered(t *testing.T) {
	src := []byte(`q.ExecContext(ctx, "UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?", a, id, a)
	if x != "?" { QueryRowContext(ctx, "SELECT balance, hold FROM accounts WHERE id = ?", id) }`)
	want := `q.ExecContext(ctx, "UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $3", a, id, a)
	if x != "?" { QueryRowContext(ctx, "SELECT balance, hold FROM accounts WHERE id = $1", id) }`
	if got := string(numbered(src)); got != want {
		t.Errorf("numbered:\n%s\nwant\n%s", got, want)
	}
}

func TestUnknownDialect(t *testing.T) {
	if _, err := Generate(1, Options{Dialect: "oracle"}); err == nil {
		t.Error("Generate accepted dialect oracle")
	}
}
