package frontend

import (
	"slices"
	"strings"
	"testing"
)

// TestDynamicSelectIsRead: a function whose SQL is built at run time but
// begins with constant text whose first keyword is SELECT reads; it is
// not a writer of unknown SQL ("writes ?") nor an entry for a
// constraint. Only statements that may write (UPDATE or WITH built at
// run time, a text that is a SELECT on one branch only, text from the
// caller) are.
func TestDynamicSelectIsRead(t *testing.T) {
	l := load(t, "dynsql")
	var got []string
	for _, w := range l.Writers([]string{"accounts"}) {
		name := strings.TrimPrefix(w.Name, "example.com/fe/dynsql.")
		if strings.Join(w.Tables, ",") != "?" {
			t.Errorf("%s writes %v, want ?", name, w.Tables)
		}
		got = append(got, name)
	}
	want := []string{"Either", "Passed", "Set", "With"}
	if !slices.Equal(got, want) {
		t.Errorf("writers of unknown SQL %v, want %v (Filter, Formatted, Built, Narrowed only read)", got, want)
	}
	var entries []string
	for _, n := range entryNames(l, "accounts") {
		entries = append(entries, strings.TrimPrefix(n, "example.com/fe/dynsql."))
	}
	if !slices.Equal(entries, want) {
		t.Errorf("entries %v, want %v", entries, want)
	}
}
