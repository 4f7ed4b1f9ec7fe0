package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"

	"github.com/urfave/cli/v2"

	"github.com/dbverify/dbverify/report"
)

// Exit codes.
const (
	exitSafe    = 0
	exitUnsafe  = 1
	exitUsage   = 2
	exitUnknown = 3
	// exitNotDriven: replay could not drive a counterexample's entry
	// along its path (it panicked or failed before its first SQL
	// statement) and refuted none.
	exitNotDriven = 4
)

func main() {
	// An interrupt cancels the run: the checks under way stop and the
	// report says which results were left undecided. A second one kills
	// the process (the default handling is back once the first arrived).
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	context.AfterFunc(ctx, stop)
	stopProfile := startCPUProfile(os.Stderr)
	code := runContext(ctx, os.Args, os.Stdout, os.Stderr)
	stopProfile()
	stop()
	os.Exit(code)
}

// cpuProfileEnv names a file to write a CPU profile of the whole run to
// (go tool pprof reads it): for finding where a slow check spends its time.
const cpuProfileEnv = "DBVERIFY_CPUPROFILE"

// startCPUProfile starts a CPU profile when cpuProfileEnv is set, and
// returns the function that ends it.
func startCPUProfile(stderr io.Writer) func() {
	name := os.Getenv(cpuProfileEnv)
	if name == "" {
		return func() {}
	}
	f, err := os.Create(name)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(stderr, "dbverify: %s: %v\n", cpuProfileEnv, err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintf(stderr, "dbverify: %s: %v\n", cpuProfileEnv, err)
		}
	}
}

// run is main with its streams and exit code explicit, for tests.
func run(args []string, stdout, stderr io.Writer) int {
	return runContext(context.Background(), args, stdout, stderr)
}

// runContext is run under a context whose cancellation stops the checks.
func runContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	code := exitSafe
	app := &cli.App{
		Name:      "dbverify",
		Usage:     "prove Go programs keep their database constraints, or show a run that breaks one",
		Version:   version(),
		Writer:    stdout,
		ErrWriter: stderr,
		Commands: []*cli.Command{
			checkCommand(&code),
			exploreCommand(&code),
			replayCommand(&code),
		},
		ExitErrHandler: func(*cli.Context, error) {},
		CommandNotFound: func(c *cli.Context, name string) {
			fmt.Fprintf(stderr, "dbverify: unknown command %q (commands: check, explore, replay; see dbverify --help)\n", name)
			code = exitUsage
		},
		// A constraint may hold commas: `status IN ('new','sold')`.
		DisableSliceFlagSeparator: true,
	}
	if err := app.RunContext(ctx, args); err != nil {
		var ec cli.ExitCoder
		if errors.As(err, &ec) {
			if msg := err.Error(); msg != "" {
				fmt.Fprintln(stderr, "dbverify:", msg)
			}
			return ec.ExitCode()
		}
		fmt.Fprintln(stderr, "dbverify:", err)
		return exitUsage
	}
	return code
}

// inDir resolves a relative path given on the command line against -C.
func inDir(dir, path string) string {
	if dir == "" || path == "" || filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(dir, path)
}

func exitCode(rep *report.Report, failOnUnknown bool) int {
	unknown := false
	for _, r := range rep.Results {
		if r.Suppressed != "" || r.InBaseline {
			continue // //dbverify:ignore with a reason, or accepted in the baseline
		}
		switch r.Verdict {
		case report.Unsafe:
			return exitUnsafe
		case report.Unknown:
			unknown = true
		}
	}
	if unknown && failOnUnknown {
		return exitUnknown
	}
	return exitSafe
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
