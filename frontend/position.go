package frontend

import (
	"go/token"
	"strconv"

	"golang.org/x/tools/go/ssa"
)

// FuncPosition returns "file:line" of fn's declaration (relative to the
// working directory when possible), or "" when fn has no position.
func (l *Loaded) FuncPosition(fn *ssa.Function) string {
	file, line := l.position(fn.Pos())
	if file == "" {
		return ""
	}
	return file + ":" + strconv.Itoa(line)
}

// RelFile returns name relative to the working directory of the load
// when it lies below it, else name.
func (l *Loaded) RelFile(name string) string { return l.relFile(name) }

// posString is "file:line" of pos (or of the current call site when pos
// has none), for messages.
func (t *translator) posString(pos token.Pos) string {
	file, line := t.l.position(pos)
	if line == 0 {
		file, line = t.l.position(t.pos)
	}
	return file + ":" + strconv.Itoa(line)
}
