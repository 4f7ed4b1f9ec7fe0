package main

import "runtime/debug"

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
