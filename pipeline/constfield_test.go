package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestConstantTableField: a generic repository formats its table, an
// unexported field its constructors set to "wallets" or "gift_cards",
// into the SQL text with fmt.Sprintf (adv19 probe/genrepo: UNKNOWN ×4,
// "SQL text is not a compile-time constant"). The field holds one of
// those constants or "" (a zero value, whose text PostgreSQL rejects),
// so each table's statement is verified: the guarded Debit is SAFE, the
// unguarded Credit UNSAFE, on either table. A field a method sets to any
// string (also a field of a type parameter's type), or an exported one,
// still leaves the text unknown; in a
// transaction the zero value's rejected text (which would abort it) is
// not modelled.
func TestConstantTableField(t *testing.T) {
	dir := testdataDir(t, "constfield")
	want := map[string]report.Verdict{
		"repo.(*BalanceRepo).Debit":  report.Safe,
		"repo.(*BalanceRepo).Credit": report.Unsafe,
		"settable.(*Repo).Debit":     report.Unknown,
		"exported.(*Repo).Debit":     report.Unknown,
		"intx.(*Repo).Debit":         report.Unknown,
		"typeparam.(*Repo).Debit":    report.Unknown,
	}
	why := map[string]string{
		"settable.(*Repo).Debit":  "not a compile-time constant",
		"exported.(*Repo).Debit":  "not a compile-time constant",
		"intx.(*Repo).Debit":      "syntax error",
		"typeparam.(*Repo).Debit": "not a compile-time constant",
	}
	for _, c := range []string{"wallets.balance >= 0", "gift_cards.balance >= 0"} {
		rep, err := runShared(context.Background(), Config{Dir: dir, Patterns: []string{"./..."}, Dialect: "postgres",
			Schema: dir + "/schema.sql", Constraints: []string{c}, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		seen := 0
		for _, r := range rep.Results {
			name := r.Entry[strings.LastIndex(r.Entry, "/")+1:]
			verdict, ok := want[name]
			if !ok {
				continue
			}
			seen++
			if r.Verdict != verdict {
				t.Errorf("%s [%s]: %s (%s), want %s", name, c, r.Verdict, r.Reason, verdict)
			}
			if !strings.Contains(r.Reason, why[name]) {
				t.Errorf("%s [%s]: reason %q does not say %q", name, c, r.Reason, why[name])
			}
		}
		if seen != len(want) {
			t.Errorf("[%s]: %d of the %d entries checked", c, seen, len(want))
		}
	}
}
