package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// checkVerdicts runs cfg (sharing its load, runShared) and asserts that
// its results are exactly the entries of wants, named by what follows
// the last dot of the entry (Debit, (*Store).Debit → Debit), each with
// its verdict. It returns the results by that name.
func checkVerdicts(t *testing.T, cfg Config, wants map[string]report.Verdict) map[string]*report.Result {
	t.Helper()
	rep, err := runShared(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != len(wants) {
		t.Errorf("%d results, want %d", len(rep.Results), len(wants))
	}
	byName := map[string]*report.Result{}
	for _, r := range rep.Results {
		name := r.Entry[strings.LastIndex(r.Entry, ".")+1:]
		byName[name] = r
		w, ok := wants[name]
		if !ok {
			t.Errorf("unexpected entry %s", r.Entry)
			continue
		}
		if r.Verdict != w {
			t.Errorf("%s: %s (%s), want %s", name, r.Verdict, r.Reason, w)
		}
	}
	return byName
}
