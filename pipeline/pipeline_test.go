package pipeline

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/refine"
)

func corpusCase(name string) string {
	dir, _ := filepath.Abs(filepath.Join("..", "benchmarks", "corpus", name))
	return dir
}

// TestAssume: facts about the initial database and the arguments narrow
// what dbverify considers, and so change verdicts.
func TestAssume(t *testing.T) {
	tests := []struct {
		assume []string
		want   refine.Verdict
	}{
		{nil, refine.Unsafe},
		{[]string{"accounts.balance >= 1000", "amt <= 5"}, refine.Safe},
		{[]string{"accounts.balance >= 1000"}, refine.Unsafe}, // amt is still unbounded
		{[]string{"amt <= 0"}, refine.Safe},                   // the entry rejects every such amount
	}
	for _, tt := range tests {
		rep, err := Run(Config{
			Dir: corpusCase("core/guard_go_unsafe"), Patterns: []string{"./..."},
			Constraints: []string{"accounts.balance >= 0"}, Assume: tt.assume, Workers: 1,
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Results) != 1 || rep.Results[0].Verdict != tt.want {
			t.Errorf("--assume %v: got %+v, want one %s", tt.assume, rep.Results, tt.want)
		}
	}
}

// TestBadInput: errors in what the user passes are usage errors that say
// where the problem is.
func TestBadInput(t *testing.T) {
	tests := []struct {
		cfg  Config
		want []string
	}{
		{Config{Constraints: []string{"accounts.balance >="}}, []string{"column"}},
		{Config{Constraints: []string{"accounts.balance >= 0 AND orders.total > 0"}}, []string{"two tables"}},
		{Config{Constraints: []string{"accounts.balance >= 0"}, Assume: []string{"amt >"}}, []string{"--assume"}},
		{Config{Constraints: []string{"accounts.balance >= 0"}, Entry: "("}, []string{"--entry"}},
		{Config{Constraints: []string{"accounts.balance >= 0"}, Dialect: "oracle"}, []string{"oracle"}},
		{Config{}, []string{"no constraint"}},
	}
	for _, tt := range tests {
		tt.cfg.Dir = corpusCase("core/guard_go_unsafe")
		tt.cfg.Patterns = []string{"./..."}
		_, err := Run(tt.cfg)
		var ue *UsageError
		if !errors.As(err, &ue) {
			t.Errorf("%+v: got %v, want a usage error", tt.cfg, err)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%+v: error %q lacks %q", tt.cfg, err, w)
			}
		}
	}
}
