package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of TestGolden")

// TestGolden runs the command in-process on testdata/bank (one SAFE, one
// UNSAFE, one UNKNOWN entry) and compares what it prints with
// testdata/*.golden; `go test ./cmd/dbverify -update` rewrites them after
// an intended change. Timings and SMT query counts are masked.
func TestGolden(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
		exit int
	}{
		{"text", []string{"check", "-C", "testdata/bank", "--no-cache", "-c", "accounts.balance >= 0", "./..."}, exitUnsafe},
		{"text-verbose", []string{"check", "-C", "testdata/bank", "--no-cache", "-v", "-c", "accounts.balance >= 0", "./..."}, exitUnsafe},
		{"text-quiet", []string{"check", "-C", "testdata/bank", "--no-cache", "-q", "-c", "accounts.balance >= 0", "./..."}, exitUnsafe},
		{"github", []string{"check", "-C", "testdata/bank", "--no-cache", "--format", "github", "-c", "accounts.balance >= 0", "./..."}, exitUnsafe},
		{"fail-on-unknown-safe-only", []string{"check", "-C", "testdata/bank", "--no-cache", "--fail-on-unknown", "--entry", "Deposit|Adjust", "-c", "accounts.balance >= 0", "./..."}, exitUnknown},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(append([]string{"dbverify"}, tt.args...), &out, &errOut)
			if code != tt.exit {
				t.Errorf("exit code %d, want %d\nstderr:\n%s", code, tt.exit, errOut.String())
			}
			got := mask(out.Bytes())
			file := filepath.Join("testdata", tt.name+".golden")
			if *update {
				if err := os.WriteFile(file, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run go test ./cmd/dbverify -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("output differs from %s (go test ./cmd/dbverify -update rewrites it):\n--- got\n%s\n--- want\n%s", file, got, want)
			}
		})
	}
}

var timingRE = regexp.MustCompile(`\(\d+ SMT queries, [0-9.]+s\)`)

func mask(b []byte) []byte {
	return timingRE.ReplaceAll(b, []byte("(N SMT queries, T s)"))
}
