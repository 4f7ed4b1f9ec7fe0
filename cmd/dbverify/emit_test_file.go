package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/dbverify/dbverify/witness"
)

// emitTest replays the one selected counterexample and, when it
// reproduces, writes its regression test to path (a bare file name goes
// into the entry's package directory).
func emitTest(ctx context.Context, w io.Writer, cfg witness.ReplayConfig, path string) (int, error) {
	if !strings.HasSuffix(path, "_test.go") {
		return 0, fmt.Errorf("replay: --emit-test %s: the file name must end in _test.go", path)
	}
	if ctx == nil {
		ctx = context.Background()
	}
	res, err := witness.Replay(ctx, cfg)
	if err != nil {
		return 0, err
	}
	printReplay(w, res)
	o := res.Outcomes[0]
	if !o.Reproduced {
		return exitUnsafe, fmt.Errorf("replay: the counterexample did not reproduce; no test written")
	}
	if o.Outcome.Call != nil && o.Outcome.Call.Violation != "" && len(o.Outcome.Violations) == 0 {
		fmt.Fprintln(w, "warning: the constraint broke at a commit point during the call but holds after it; the emitted test checks after the call only")
	}
	tf, err := res.TestFile(o)
	if err != nil {
		return 0, fmt.Errorf("replay: --emit-test: %w", err)
	}
	if filepath.Base(path) == path {
		path = filepath.Join(tf.Dir, path)
	} else if abs, err := filepath.Abs(filepath.Dir(path)); err != nil || abs != tf.Dir {
		return 0, fmt.Errorf("replay: --emit-test %s: the test must be in the entry's package directory %s", path, tf.Dir)
	}
	if err := os.WriteFile(path, tf.Source, 0o644); err != nil {
		return 0, fmt.Errorf("replay: %w", err)
	}
	fmt.Fprintf(w, "wrote %s (%s): run it with %s set to a scratch database\n", path, tf.Name, witness.DSNEnv)
	return exitSafe, nil
}
