package frontend

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/ir"
)

// handleOps returns, in edge order, the handle of every database
// operation of p with a short label (each label once: a deferred call is
// translated on every return path).
func handleOps(p *ir.Program) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, e := range p.Edges {
		switch s := e.Stmt.(type) {
		case *ir.TxOp:
			conn := ""
			if s.Conn {
				conn = " conn"
			}
			add(s.Op.String() + conn + "@" + strconv.Itoa(int(s.Tx)))
		case *ir.Exec:
			add("exec@" + strconv.Itoa(int(s.Tx)))
		case *ir.Select:
			add("select@" + strconv.Itoa(int(s.Tx)))
		}
	}
	return out
}

// TestHandles: every operation carries the handle it runs on; BEGIN,
// COMMIT and ROLLBACK sent as SQL on a connection are transaction
// operations of that connection, and on the pool they are unsupported.
func TestHandles(t *testing.T) {
	l := load(t, "handles")
	tests := []struct {
		entry string
		want  []string // operations
		what  string   // an unsupported construct expected ("" none)
	}{
		{".OnConn", []string{"begin conn@1", "exec@1", "rollback conn@1", "commit conn@1"}, ""},
		{".OnPool", []string{"exec@0"}, "BEGIN sent as SQL on a connection pool"},
		{".Mixed", []string{"begin@1", "exec@1", "select@0", "commit@1", "rollback@1"}, ""},
	}
	for _, tt := range tests {
		p := translate(t, l, tt.entry)
		// (The edge order follows the translation order of blocks, which
		// says nothing about handles: compare the operations as sets.)
		got, want := handleOps(p), slices.Clone(tt.want)
		slices.Sort(got)
		slices.Sort(want)
		if strings.Join(got, ", ") != strings.Join(want, ", ") {
			t.Errorf("%s: operations %s, want %s", tt.entry, strings.Join(got, ", "), strings.Join(want, ", "))
		}
		found := tt.what == ""
		for _, u := range p.Unsupported {
			if tt.what != "" && strings.Contains(u.What, tt.what) {
				found = true
			} else {
				t.Errorf("%s: unexpected unsupported %q", tt.entry, u.What)
			}
		}
		if !found {
			t.Errorf("%s: %q not reported (unsupported: %v)", tt.entry, tt.what, p.Unsupported)
		}
	}
}
