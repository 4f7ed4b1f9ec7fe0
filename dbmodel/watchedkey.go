package dbmodel

import (
	"sort"

	"github.com/dbverify/dbverify/ir"
)

// The frontend's ghost keys (ir.Var.WatchedKey): a slice a loop filled
// follows the element whose key is the ghost's value (frontend
// collected.go). Binding the ghost to the watched row's key on entry
// makes that element r's snapshot and every other element another row's.

// bindWatchedKeys assumes, on entry, each ghost key of the source program
// equal to r's value of its column when that column alone is a key of
// the watched table; other ghosts keep an arbitrary value.
func (m *lowerer) bindWatchedKeys(em *emitter) {
	t := m.w
	if t == nil || t.watched == nil {
		return
	}
	for _, v := range watchedKeyVars(m.src) {
		c := v.WatchedKey
		x, ok := t.watched.cols[c]
		if !ok || !t.singleKey(c) || x.Type != v.Type {
			continue
		}
		em.havoc(v)
		em.assume(ir.Eq(v, x))
	}
}

// singleKey says column c alone is a key of t.
func (t *tableModel) singleKey(c string) bool {
	for _, k := range t.keys {
		if len(k) == 1 && k[0] == c && !t.nullableKey[c] {
			return true
		}
	}
	return false
}

// watchedKeyVars lists the ghost keys program p reads, by name.
func watchedKeyVars(p *ir.Program) []*ir.Var {
	var out []*ir.Var
	for v := range readVars(p) {
		if v.WatchedKey != "" {
			out = append(out, v)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
