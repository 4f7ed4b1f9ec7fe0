// Command progen generates Go programs over database/sql with
// benchmarks/progen, runs dbverify on each and decides every verdict by
// execution on the program's engine — SQLite, PostgreSQL or MariaDB
// (benchmarks/crosscheck starts throwaway servers): a SAFE must survive random
// runs, an UNSAFE's counterexample must break the constraint.
//
//	go run ./benchmarks/cmd/progen -bin bin/dbverify -n 40
//
// It prints one line per program and the totals, keeps every program
// execution disagrees with under -keep (ready to become a corpus case),
// and exits 1 when there is a disagreement, 2 when it could not run.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/dbverify/dbverify/benchmarks/crosscheck"
	"github.com/dbverify/dbverify/benchmarks/harness"
	"github.com/dbverify/dbverify/benchmarks/progen"
)

type config struct {
	bin, work, keep, out string
	dialect              string
	n, runs              int
	seed                 int64
	opts                 progen.Options
}

func main() {
	var cfg config
	fs := flag.NewFlagSet("progen", flag.ExitOnError)
	fs.StringVar(&cfg.bin, "bin", "", "dbverify binary (default: build one from this module)")
	fs.IntVar(&cfg.n, "n", 40, "number of programs")
	fs.Int64Var(&cfg.seed, "seed", 1, "seed of the first program; program i has seed+i")
	fs.IntVar(&cfg.runs, "runs", 30, "random runs per SAFE or UNKNOWN (entry, constraint)")
	fs.IntVar(&cfg.opts.Entries, "entries", 2, "entry methods per program")
	fs.IntVar(&cfg.opts.Statements, "statements", 4, "top-level statements per entry")
	fs.StringVar(&cfg.dialect, "dialect", "all", "database engine of the programs: sqlite, postgres, mysql, or all (in turn)")
	fs.StringVar(&cfg.work, "work", "", "work directory (default: a temporary one, removed)")
	fs.StringVar(&cfg.keep, "keep", "", "copy every program execution disagrees with into this directory")
	fs.StringVar(&cfg.out, "out", "", "also write the totals as Markdown to this file")
	_ = fs.Parse(os.Args[1:])
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := run(ctx, cfg, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "progen:", err)
		os.Exit(2)
	}
	if rep.Totals().Disagreements > 0 {
		os.Exit(1)
	}
}

// run generates the programs, cross-checks them and reports.
func run(ctx context.Context, cfg config, w io.Writer) (*crosscheck.Report, error) {
	root, err := harness.ModuleRoot(".")
	if err != nil {
		return nil, err
	}
	work := cfg.work
	if work == "" {
		if work, err = os.MkdirTemp("", "progen-"); err != nil {
			return nil, err
		}
		defer os.RemoveAll(work)
	}
	if cfg.bin == "" {
		if cfg.bin, err = harness.BuildBinary(root, work); err != nil {
			return nil, err
		}
	}
	start := time.Now()
	var progs []*progen.Program
	features := map[string]int{}
	for i := 0; i < cfg.n; i++ {
		opts := cfg.opts
		opts.Dialect = cfg.dialect
		if cfg.dialect == "all" || cfg.dialect == "" {
			ds := progen.Dialects()
			opts.Dialect = ds[i%len(ds)]
		}
		p, err := progen.Generate(cfg.seed+int64(i), opts)
		if err != nil {
			return nil, err
		}
		features["dialect "+p.Dialect]++
		for _, f := range p.Features {
			features[f]++
		}
		progs = append(progs, p)
	}
	modDir := filepath.Join(work, "module")
	if err := os.MkdirAll(modDir, 0o755); err != nil {
		return nil, err
	}
	cases, err := progen.WriteModule(modDir, filepath.Join(root, "benchmarks", "corpus"), progs)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "generated %d programs (seeds %d..%d) in %s\n", len(progs), cfg.seed, cfg.seed+int64(cfg.n)-1, modDir)
	rep, err := crosscheck.Run(ctx, crosscheck.Config{
		CorpusDir: modDir, Bin: cfg.bin, Cases: cases, Runs: cfg.runs, Seed: cfg.seed,
		WorkDir: filepath.Join(work, "crosscheck"),
		Log:     func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) },
	})
	if err != nil {
		return nil, err
	}
	fmt.Fprint(w, rep.Summary())
	fmt.Fprintf(w, "constructs used (programs): %s\n", featureLine(features))
	fmt.Fprintf(w, "took %s\n", time.Since(start).Round(time.Second))
	if cfg.keep != "" {
		if err := keep(cfg.keep, modDir, rep); err != nil {
			return rep, err
		}
	}
	if cfg.out != "" {
		if err := writeMarkdown(cfg, rep, features, time.Since(start)); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

func featureLine(features map[string]int) string {
	var names []string
	for f := range features {
		names = append(names, f)
	}
	sort.Strings(names)
	var parts []string
	for _, f := range names {
		parts = append(parts, fmt.Sprintf("%s %d", f, features[f]))
	}
	return strings.Join(parts, ", ")
}

// keep copies the packages of the programs with a disagreement to dir.
func keep(dir, modDir string, rep *crosscheck.Report) error {
	seen := map[string]bool{}
	for _, r := range rep.Results {
		if r.Finding == nil || !r.Finding.Kind.Disagreement() || seen[r.Case] {
			continue
		}
		seen[r.Case] = true
		src := filepath.Join(modDir, filepath.FromSlash(r.Case))
		dst := filepath.Join(dir, filepath.Base(r.Case))
		if err := os.MkdirAll(dst, 0o755); err != nil {
			return err
		}
		for _, f := range []string{filepath.Base(r.Case) + ".go", "schema.sql"} {
			data, err := os.ReadFile(filepath.Join(src, f))
			if err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(dst, f), data, 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

func writeMarkdown(cfg config, rep *crosscheck.Report, features map[string]int, took time.Duration) error {
	f, err := os.Create(cfg.out)
	if err != nil {
		return err
	}
	fmt.Fprintf(f, "# Generated programs\n\nGenerated on %s by `go run ./benchmarks/cmd/progen` (`make bench`).\n\n", time.Now().UTC().Format("2006-01-02 15:04 MST"))
	fmt.Fprintf(f, "`go run ./benchmarks/cmd/progen -n %d -seed %d -runs %d` (benchmarks/progen): %d programs (dialects: %s) of %d entries × 1–3 constraints, every verdict decided by execution on the program's engine (benchmarks/crosscheck); %s.\n\n",
		cfg.n, cfg.seed, cfg.runs, cfg.n, cfg.dialect, cfg.opts.Entries, took.Round(time.Second))
	rep.Markdown(f)
	fmt.Fprintf(f, "\nAn entry with no result writes no table a constraint reads (only writers are verified, and a generated method may only read or only write after a guard that always returns).\n")
	fmt.Fprintf(f, "\nConstructs (number of programs using each): %s.\n", featureLine(features))
	return f.Close()
}
