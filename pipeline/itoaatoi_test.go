package pipeline

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestItoaOfAtoi: strconv.Itoa(n) is the canonical text of n, and a text
// strconv.Atoi accepts need not be canonical ("00", "+0"). The balance
// checked on the row strconv.Itoa(Atoi(code)) and debited on the row
// code is UNSAFE through a code not written canonically, the
// counterexample's Itoa a function of its Atoi (independent tester adv19,
// itoa-atoi: inputs "0" and Itoa → "2", no run of Go; under the stated
// "a string strconv.Atoi accepts is written canonically" the pair would
// have been SAFE); checked and debited on the same canonical row, SAFE.
func TestItoaOfAtoi(t *testing.T) {
	checkCorpusPairs(t, "wallets.balance >= 0", 1, map[string]report.Verdict{
		"trust/itoa_atoi_safe":   report.Safe,
		"trust/itoa_atoi_unsafe": report.Unsafe,
	})
	dir := corpusCase("trust/itoa_atoi_unsafe")
	rep, err := Run(context.Background(), Config{
		Dir: dir, Patterns: []string{"./..."}, Schema: dir + "/schema.sql",
		Constraints: []string{"wallets.balance >= 0"}, Workers: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	cex := rep.Results[0].Counterexample
	if cex == nil {
		t.Fatalf("no counterexample: %+v", rep.Results[0])
	}
	var quoted string
	for _, in := range cex.Inputs {
		if strings.HasPrefix(in.Name, "Itoa(") {
			t.Errorf("the counterexample chooses strconv.Itoa's result %s = %s as an input", in.Name, in.Value)
		}
		if in.Name == `PathValue(_, "code")` {
			quoted = in.Value
		}
	}
	code, err := strconv.Unquote(quoted)
	if err != nil {
		t.Fatalf("path parameter code: %v (inputs %v)", err, cex.Inputs)
	}
	if n, err := strconv.Atoi(code); err != nil || strconv.Itoa(n) == code {
		t.Errorf("code %q: want a text Atoi accepts that is not Itoa's spelling of its number", code)
	}
}
