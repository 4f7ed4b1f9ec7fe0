package gate

import (
	_ "embed"
	"strings"
)

//go:embed gate.go
var gateSource string

// Source is this package's scheduler source with its package clause
// renamed to pkg, for inclusion in a generated driver.
func Source(pkg string) []byte {
	return []byte(strings.Replace(gateSource, "package gate\n", "package "+pkg+"\n", 1))
}
