package pipeline

import (
	"context"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestFieldClosures: closures a constructor keeps in unexported func
// fields (issue 8, adv8 m14) run where the package calls the fields. The
// save closure is not an entry of its own (alone, its balance parameter
// is arbitrary: a false UNSAFE); Withdraw, which saves through the
// generic Store's Mutate, is checked with the save and proved; Audit runs
// a closure that captured the constructor's penalty (arbitrary: UNSAFE,
// as NewAccounts(db, 1) on an empty account shows); a hook handed to
// outside code stays an entry of its own. A field given one of two
// closures runs either: Fees, whose lenient policy takes the fee from any
// balance, is UNSAFE; Tolls, whose policies are both guarded, SAFE.
func TestFieldClosures(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("testdata", "src"))
	rep, err := runShared(context.Background(), Config{Dir: dir, Patterns: []string{"./fieldstore"}, Constraints: []string{"accounts.balance >= 0"}, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	const pkg = "example.com/pl/fieldstore."
	want := map[string]report.Verdict{
		"(*Accounts).Withdraw": report.Safe,
		"(*Accounts).Audit":    report.Unsafe,
		"(*Store).Mutate":      report.Unknown, // exported: its fn is arbitrary
		"NewAccounts.hook":     report.Unsafe,  // the hook escapes (a closure stored in field hook: named by it)
		"(*Fees).Charge":       report.Unsafe,  // one of the two stored policies is unguarded
		"(*Tolls).Charge":      report.Safe,    // both are guarded
	}
	got := map[string]*report.Result{}
	for _, r := range rep.Results {
		got[strings.TrimPrefix(r.Entry, pkg)] = r
	}
	for name, v := range want {
		r := got[name]
		if r == nil {
			t.Errorf("%s: no result; results: %v", name, slices.Sorted(maps.Keys(got)))
			continue
		}
		if r.Verdict != v {
			t.Errorf("%s: %s (%s), want %s", name, r.Verdict, r.Reason, v)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s is an entry (%s); only %v should be", name, got[name].Verdict, slices.Sorted(maps.Keys(got)))
		}
	}
	if r := got["(*Store).Mutate"]; r != nil && !strings.Contains(r.Reason, "store.go:35") {
		t.Errorf("Mutate's UNKNOWN does not name the call fn(&v) at store.go:35: %s", r.Reason)
	}
	for _, c := range rep.Coverage {
		if strings.HasSuffix(c.Writer, "NewAccounts$2") && !slices.Contains(c.Entries, pkg+"(*Accounts).Withdraw") {
			t.Errorf("the save closure is run by %v, want Withdraw among them", c.Entries)
		}
	}
}
