package benchmarks_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/dbverify/dbverify/benchmarks/harness"
	"github.com/dbverify/dbverify/frontend"
	"github.com/dbverify/dbverify/pipeline"
	"github.com/dbverify/dbverify/report"
	"github.com/dbverify/dbverify/smt"
)

// checkInProcess runs the pipeline of `dbverify check --format json
// --no-cache` with c's arguments (and --engine engine, "" = the default)
// on c's directory, its packages taken from
// set, and returns its JSON report as an invocation of the binary would
// (exit code -1: not a process).
func checkInProcess(t *testing.T, set *frontend.PackageSet, c *harness.Case, engine string) *harness.Invocation {
	t.Helper()
	cfg, err := caseConfig(c)
	if err != nil {
		t.Fatalf("%s: %v", c.Name, err)
	}
	if engine != "" {
		if err := cfg.Engine.Set(engine); err != nil {
			t.Fatal(err)
		}
	}
	cfg.Packages = set
	cfg.Solvers = &inProcessSolvers
	ctx, cancel := context.WithTimeout(context.Background(), caseTimeout)
	defer cancel()
	rep, err := pipeline.Run(ctx, cfg)
	if err != nil {
		t.Fatalf("dbverify check %s: %v", c.Args, err)
	}
	if ctx.Err() != nil {
		t.Fatalf("dbverify check %s: not decided in %s", c.Args, caseTimeout)
	}
	var out bytes.Buffer
	if err := report.WriteJSON(&out, rep); err != nil {
		t.Fatal(err)
	}
	return &harness.Invocation{Dir: c.Dir, Args: c.Args, ExitCode: -1, Stdout: out.Bytes()}
}

// caseConfig is the pipeline configuration of `dbverify check` with the
// case's arguments, run in its directory on ./... (the flags the fast
// corpus uses; another one is an error, to be added here).
func caseConfig(c *harness.Case) (pipeline.Config, error) {
	cfg := pipeline.Config{Dir: c.Dir, Patterns: []string{"./..."}}
	for i := 0; i < len(c.Args); i++ {
		flag := c.Args[i]
		if flag == "--no-infer-key" {
			cfg.NoInferKey = true
			continue
		}
		if i+1 >= len(c.Args) {
			return cfg, fmt.Errorf("expect.json args: %s without a value", flag)
		}
		i++
		v := c.Args[i]
		switch flag {
		case "--constraint", "-c":
			cfg.Constraints = append(cfg.Constraints, v)
		case "--assume":
			cfg.Assume = append(cfg.Assume, v)
		case "--schema":
			cfg.Schema = filepath.Join(c.Dir, v)
		case "--entry":
			cfg.Entry = v
		case "--dialect":
			if err := cfg.Dialect.Set(v); err != nil {
				return cfg, fmt.Errorf("expect.json args: --dialect: %w", err)
			}
		default:
			return cfg, fmt.Errorf("expect.json args: %s is not one the in-process run knows (caseConfig)", flag)
		}
	}
	return cfg, nil
}

// inProcessSolvers lends the in-process runs their Z3 solvers: a run of
// its own creates one per worker and closes it with two collections of
// this process's heap, which holds the whole corpus (measured: a seventh
// of TestCorpusFast's CPU in creating contexts, half in the collector).
var inProcessSolvers smt.Pool

// corpusPackageSet loads the packages of the whole corpus once for the
// tests that run its cases in this process (a `go list` of the corpus and
// the export data of their dependencies: seconds, where a run of the
// binary per case pays most of a second each).
var corpusPackageSet = sync.OnceValues(func() (*frontend.PackageSet, error) {
	dir, err := filepath.Abs("corpus")
	if err != nil {
		return nil, err
	}
	return frontend.LoadPackageSet(dir, "./...")
})

func corpusPackages(t *testing.T) *frontend.PackageSet {
	t.Helper()
	set, err := corpusPackageSet()
	if err != nil {
		t.Fatalf("loading the corpus: %v", err)
	}
	return set
}
