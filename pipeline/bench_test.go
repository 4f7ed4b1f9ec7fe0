package pipeline

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// BenchmarkCorpus runs the whole pipeline on each fast corpus case and
// reports the time per (entry, constraint) and the SMT queries it took:
//
//	go test -run XXX -bench Corpus ./pipeline
func BenchmarkCorpus(b *testing.B) {
	root := filepath.Join("..", "benchmarks", "corpus")
	var dirs []string
	filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err == nil && info.Name() == "expect.json" {
			dirs = append(dirs, filepath.Dir(path))
		}
		return nil
	})
	for _, dir := range dirs {
		var exp struct {
			Args []string `json:"args"`
			Fast bool     `json:"fast"`
		}
		data, err := os.ReadFile(filepath.Join(dir, "expect.json"))
		if err != nil || json.Unmarshal(data, &exp) != nil || !exp.Fast {
			continue
		}
		abs, _ := filepath.Abs(dir)
		cfg := Config{Dir: abs, Patterns: []string{"./..."}, Workers: 1}
		for i := 0; i+1 < len(exp.Args); i += 2 {
			switch exp.Args[i] {
			case "--constraint":
				cfg.Constraints = append(cfg.Constraints, exp.Args[i+1])
			case "--schema":
				cfg.Schema = filepath.Join(abs, exp.Args[i+1])
			case "--table":
				cfg.Table = exp.Args[i+1]
			}
		}
		name := strings.TrimPrefix(filepath.ToSlash(dir), filepath.ToSlash(root)+"/")
		b.Run(name, func(b *testing.B) {
			queries, results := 0, 0
			for i := 0; i < b.N; i++ {
				rep, err := runShared(context.Background(), cfg)
				if err != nil {
					b.Fatal(err)
				}
				queries += rep.Stats.SMTQueries
				results += len(rep.Results)
			}
			if results > 0 {
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(results), "ns/entry")
				b.ReportMetric(float64(queries)/float64(results), "smt-queries/entry")
			}
		})
	}
}

// BenchmarkVerify times the verification of the results of one-block
// corpus cases after loading (the time a result's "seconds" measures),
// for profiling the fixed costs per (entry, constraint):
//
//	go test -run XXX -bench Verify -cpuprofile cpu.out ./pipeline
func BenchmarkVerify(b *testing.B) {
	for _, tc := range []struct{ dir, constraint string }{
		{"core/guard_go_safe", "accounts.balance >= 0"},
		{"bank/absolute_write_unsafe", "accounts.balance >= 0"},
	} {
		b.Run(tc.dir, func(b *testing.B) {
			cfg := Config{Dir: corpusCase(tc.dir), Patterns: []string{"./..."}, Constraints: []string{tc.constraint}, Workers: 1}
			if err := cfg.validate(); err != nil {
				b.Fatal(err)
			}
			cfg = cfg.withDefaults()
			in, err := load(cfg)
			if err != nil {
				b.Fatal(err)
			}
			jobs, err := plan(cfg, in, &report.Report{})
			if err != nil {
				b.Fatal(err)
			}
			solver, err := newSolver(cfg)
			if err != nil {
				b.Fatal(err)
			}
			defer solver.Close()
			b.ResetTimer()
			for range b.N {
				for _, j := range jobs {
					if r := runJob(context.Background(), cfg, in, j, solver); r.Verdict == report.Unknown {
						b.Fatalf("%s: UNKNOWN %s", j.entry, r.Reason)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(jobs))/1e6, "ms/result")
		})
	}
}
