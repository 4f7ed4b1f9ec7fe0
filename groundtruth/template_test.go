package groundtruth_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/dbverify/dbverify/groundtruth"
)

// TestEngineFromTemplate: the first engine of a server keeps its
// initialised data directory as a template under the cache directory;
// the next engine starts from a copy of it (a file put into the template
// shows up in its data directory) and works.
func TestEngineFromTemplate(t *testing.T) {
	for _, d := range []groundtruth.Dialect{groundtruth.Postgres, groundtruth.MySQL} {
		t.Run(string(d), func(t *testing.T) {
			cache := t.TempDir()
			t.Setenv("XDG_CACHE_HOME", cache)
			groundtruth.StartForTest(t, d)
			templates, err := filepath.Glob(filepath.Join(cache, "dbverify", "engine-templates", "*", "data"))
			if err != nil || len(templates) != 1 {
				t.Fatalf("templates after the first engine: %v (%v), want one", templates, err)
			}
			if err := os.WriteFile(filepath.Join(templates[0], "from-the-template"), nil, 0o600); err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			e, err := groundtruth.Start(context.Background(), d, dir)
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			if _, err := os.Stat(filepath.Join(dir, string(d), "data", "from-the-template")); err != nil {
				t.Errorf("the second engine's data directory is not a copy of the template: %v", err)
			}
			db, _, err := e.NewDatabase(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			var one int
			if err := db.QueryRow("SELECT 1").Scan(&one); err != nil || one != 1 {
				t.Errorf("SELECT 1 on the engine started from the template: %d, %v", one, err)
			}
		})
	}
}
