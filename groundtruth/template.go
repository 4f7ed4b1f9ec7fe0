package groundtruth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// templateVersion changes when what a template holds changes.
const templateVersion = "1"

// initData makes data (a directory that does not exist yet) an
// initialised data directory of the server whose setup program is bin:
// a copy of the template kept for that program and these options, else
// what running bin with args makes, which then becomes the template.
//
// initdb and mariadb-install-db make the same directory every time (their
// bootstrap took 1–5 s of each throwaway engine, 1 s of CPU); copying it
// takes a tenth of that. key are the options that shape the directory
// (args without the paths in them). A template is written under a
// temporary name and renamed, so a reader never sees half of one; a copy
// that fails falls back to running bin.
func (a account) initData(ctx context.Context, data, bin string, key []string, args ...string) error {
	tmpl := templatePath(bin, key)
	if tmpl != "" {
		if _, err := os.Stat(filepath.Join(tmpl, "data")); err == nil {
			if err := copyTree(ctx, filepath.Join(tmpl, "data"), data); err == nil {
				return nil
			}
			os.RemoveAll(data)
		}
	}
	if err := a.run(ctx, bin, args...); err != nil {
		return err
	}
	if tmpl != "" {
		saveTemplate(ctx, data, tmpl)
	}
	return nil
}

// templatePath is where the template of bin's data directory with the
// options key is kept ("" when there is no cache directory): under the
// user's cache directory, named by bin's path, size and time (a server
// upgrade makes a new template) and the options.
func templatePath(bin string, key []string) string {
	st, err := os.Stat(bin)
	if err != nil {
		return ""
	}
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%d\x00%d\x00%s", templateVersion, bin, st.Size(), st.ModTime().UnixNano(), strings.Join(key, "\x00"))
	return filepath.Join(base, "dbverify", "engine-templates", filepath.Base(bin)+"-"+hex.EncodeToString(h.Sum(nil))[:16])
}

// saveTemplate copies data to tmpl, unless another engine did first.
// Failing to keep a template is not an error: the next engine runs the
// setup program again.
func saveTemplate(ctx context.Context, data, tmpl string) {
	if err := os.MkdirAll(filepath.Dir(tmpl), 0o755); err != nil {
		return
	}
	tmp, err := os.MkdirTemp(filepath.Dir(tmpl), filepath.Base(tmpl)+".tmp")
	if err != nil {
		return
	}
	if err := copyTree(ctx, data, filepath.Join(tmp, "data")); err != nil || os.Rename(tmp, tmpl) != nil {
		os.RemoveAll(tmp)
	}
}

// copyTree copies the directory src to dst (which must not exist) with
// its files' modes and owners.
func copyTree(ctx context.Context, src, dst string) error {
	out, err := exec.CommandContext(ctx, "cp", "-a", src, dst).CombinedOutput()
	if err != nil {
		return fmt.Errorf("copying %s: %w\n%s", src, err, out)
	}
	return nil
}
