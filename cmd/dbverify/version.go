package main

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
)

// semanticVersion is dbverify's release; version adds the commit the
// binary was built from, when the build recorded one.
const semanticVersion = "0.7.0"

func version() string {
	v := semanticVersion
	if bi, ok := debug.ReadBuildInfo(); ok {
		rev, dirty := "", false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if rev != "" {
			v += "+" + rev
			if dirty {
				v += ".dirty"
			}
		}
	}
	return v
}

// toolID identifies this build of dbverify in the result cache's keys: the
// hash of its executable (a rebuilt tool never reuses an older one's
// results), or the version when the executable cannot be read.
func toolID() string {
	exe, err := os.Executable()
	if err == nil {
		if f, err := os.Open(exe); err == nil {
			defer f.Close()
			h := sha256.New()
			if _, err := io.Copy(h, f); err == nil {
				return hex.EncodeToString(h.Sum(nil))
			}
		}
	}
	return version()
}

// cacheDir is --cache-dir, else dbverify under os.UserCacheDir ("" = no
// cache when there is none).
func cacheDir(flag string) string {
	if flag != "" {
		return flag
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "dbverify")
}
