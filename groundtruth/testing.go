package groundtruth

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"
)

// StartForTest starts an engine of dialect d for the test t under a
// temporary directory, and stops it when t ends. It fails t — it does not
// skip it — when the engine cannot start; a missing binary is reported with
// the command that installs it (`make deps`).
func StartForTest(t testing.TB, d Dialect) *Engine {
	t.Helper()
	dir, err := os.MkdirTemp("", "groundtruth-"+string(d)+"-")
	if err != nil {
		t.Fatalf("groundtruth: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	e, err := Start(ctx, d, dir)
	if err != nil {
		if errors.Is(err, ErrMissingBinary) {
			t.Fatalf("groundtruth: cannot start a %s engine: %v\nInstall the engines with `make deps` (Debian packages postgresql and mariadb-server).", d, err)
		}
		t.Fatalf("groundtruth: cannot start a %s engine: %v", d, err)
	}
	// Registered after the directory's removal, so it runs first.
	t.Cleanup(func() {
		if err := e.Close(); err != nil {
			t.Errorf("groundtruth: stopping the %s engine: %v", d, err)
		}
	})
	return e
}
