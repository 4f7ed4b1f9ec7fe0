package crosscheck

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/benchmarks/harness"
	"github.com/dbverify/dbverify/witness"
)

func TestRandomDraws(t *testing.T) {
	cex := &witness.Counterexample{Steps: []witness.CexStep{
		{Position: "bonus.go:23", Kind: "call", Text: "draw := rand.Int63n(100)"},
		{Position: "bonus.go:24", Kind: "branch", Text: "if !eligible(draw) {"},
		{Position: "bonus.go:30", Kind: "call", Text: "n := strand.Count(s)"},
		{Position: "bonus.go:31", Kind: "call", Text: "i := rand.N(10)"},
	}}
	want := []string{"bonus.go:23: draw := rand.Int63n(100)", "bonus.go:31: i := rand.N(10)"}
	if got := randomDraws(cex); !reflect.DeepEqual(got, want) {
		t.Errorf("randomDraws = %q, want %q", got, want)
	}
}

// TestInterleaved reads a --concurrent result as dbverify prints it: its
// counterexample is two requests and a schedule, which the sequential
// cross-check classifies instead of calling one entry with A.… inputs.
func TestInterleaved(t *testing.T) {
	tests := []struct {
		name, json string
		want       bool
	}{
		{"two requests and a schedule", `{"entry":"example.com/corpus/concurrent/w.(*Store).Withdraw","verdict":"UNSAFE","concurrent_with":"example.com/corpus/concurrent/w.(*Store).Withdraw",
			"requests":[{"request":"A","entry":"example.com/corpus/concurrent/w.(*Store).Withdraw","inputs":[{"name":"amount","value":"1"}]},{"request":"B","entry":"example.com/corpus/concurrent/w.(*Store).Withdraw","inputs":[{"name":"amount","value":"1"}]}],
			"schedule":[{"request":"A","step":1},{"request":"B","step":1}]}`, true},
		{"a sequential counterexample", `{"entry":"example.com/corpus/core/atm_unsafe.Withdraw","verdict":"UNSAFE","counterexample":{"inputs":{"amount":"1"}}}`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var r harness.Result
			if err := json.Unmarshal([]byte(tc.json), &r); err != nil {
				t.Fatal(err)
			}
			if got := interleaved(&r); got != tc.want {
				t.Errorf("interleaved = %v, want %v", got, tc.want)
			}
			if tc.want {
				if got := strings.Join(requestNames(&r), ", "); got != "A: (*Store).Withdraw, B: (*Store).Withdraw" {
					t.Errorf("requestNames = %q", got)
				}
			}
		})
	}
}

// TestCheckFailure tells a CHECK the engine enforced from a duplicated
// key: SQLite says "constraint failed" for both, and a counterexample whose
// INSERT hits an existing key is not one that breaks another CHECK.
func TestCheckFailure(t *testing.T) {
	tests := []struct {
		err  string
		want bool
	}{
		{`pq: new row for relation "accounts" violates check constraint "accounts_balance_check"`, true},
		{`constraint failed: CHECK constraint failed: balance >= 0 (275)`, true},
		{"Error 4025 (23000): CONSTRAINT `accounts.balance` failed for `db`.`accounts`", true},
		{`constraint failed: UNIQUE constraint failed: accounts.id (1555)`, false},
		{`pq: duplicate key value violates unique constraint "accounts_pkey"`, false},
		{"Error 1062 (23000): Duplicate entry '3' for key 'PRIMARY'", false},
	}
	for _, tc := range tests {
		if got := checkFailure.MatchString(tc.err); got != tc.want {
			t.Errorf("checkFailure(%q) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
