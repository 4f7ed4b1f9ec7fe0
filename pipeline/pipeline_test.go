package pipeline

import (
	"context"
	"errors"
	"maps"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/refine"
	"github.com/dbverify/dbverify/report"
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
		rep, err := runShared(context.Background(), Config{
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
		{Config{Constraints: []string{"accounts.balance >= 0"}, Engine: "magic"}, []string{"unknown engine", "lbe, fixpoint or paths"}},
		{Config{}, []string{"no constraint"}},
	}
	for _, tt := range tests {
		tt.cfg.Dir = corpusCase("core/guard_go_unsafe")
		tt.cfg.Patterns = []string{"./..."}
		_, err := runShared(context.Background(), tt.cfg)
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

func testdataDir(t *testing.T, name string) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestDatabaseFacts: what the database guarantees on entry (the schema's
// CHECKs, --assume facts about tables the entry only reads) is assumed,
// and nothing more.
func TestDatabaseFacts(t *testing.T) {
	src := testdataDir(t, "src")
	tests := []struct {
		name        string
		pkg         string
		dialect     string
		constraints []string
		schema      string // file in testdata, "" = none
		assume      []string
		want        map[string]refine.Verdict // by result constraint
		assumption  string                    // every result mentions it
	}{
		{"every other CHECK holds on entry", "./ship", "mysql", nil, "ship.sql", nil,
			map[string]refine.Verdict{"positive_stock: `stock` >= 0": refine.Safe, "reserved_within_stock: `reserved` <= `stock`": refine.Safe},
			"CHECK constraints hold on entry"},
		{"a CHECK over a column that may be NULL is not assumed", "./ship", "mysql", nil, "ship_nullable.sql", nil,
			map[string]refine.Verdict{"positive_stock: `stock` >= 0": refine.Unsafe, "reserved_within_stock: `reserved` <= `stock`": refine.Safe}, ""},
		{"--constraint with --schema: the schema's CHECKs hold on entry", "./ship", "mysql", []string{"inventory_items.stock >= 0"}, "ship.sql", nil,
			map[string]refine.Verdict{"inventory_items.stock >= 0": refine.Safe}, "reserved_within_stock"},
		{"--constraint without a schema", "./ship", "mysql", []string{"inventory_items.stock >= 0"}, "", nil,
			map[string]refine.Verdict{"inventory_items.stock >= 0": refine.Unsafe}, ""},
		{"--assume about a table the entry reads", "./cart", "postgres", []string{"carts.total >= 0"}, "", []string{"products.price >= 0"},
			map[string]refine.Verdict{"carts.total >= 0": refine.Safe}, ""},
		{"no fact about the table read", "./cart", "postgres", []string{"carts.total >= 0"}, "", nil,
			map[string]refine.Verdict{"carts.total >= 0": refine.Unsafe}, ""},
		{"a CHECK of the table read", "./cart", "postgres", []string{"carts.total >= 0"}, "cart.sql", nil,
			map[string]refine.Verdict{"carts.total >= 0": refine.Safe}, "products_price_check"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Config{Dir: src, Patterns: []string{tt.pkg}, Dialect: Dialect(tt.dialect),
				Constraints: tt.constraints, Assume: tt.assume, Workers: 1}
			if tt.schema != "" {
				cfg.Schema = testdataDir(t, tt.schema)
			}
			rep, err := runShared(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Results) != len(tt.want) {
				t.Fatalf("%d results, want %d: %+v", len(rep.Results), len(tt.want), rep.Results)
			}
			for _, r := range rep.Results {
				want, ok := tt.want[r.Constraint]
				if !ok {
					t.Errorf("unexpected result for %q", r.Constraint)
					continue
				}
				if r.Verdict != want {
					t.Errorf("%s: %s (%s), want %s", r.Constraint, r.Verdict, r.Reason, want)
				}
				if tt.assumption != "" && !strings.Contains(strings.Join(r.Assumptions, "\n"), tt.assumption) {
					t.Errorf("%s: assumptions %q lack %q", r.Constraint, r.Assumptions, tt.assumption)
				}
			}
		})
	}
}

// TestCoverage: the report says which verified entries run each function
// that writes a constrained table; with --entry, a writer left out is a
// warning.
func TestCoverage(t *testing.T) {
	dir := corpusCase("trust/entry_optable_unsafe")
	pkg := "example.com/corpus/trust/entry_optable_unsafe."
	tests := []struct {
		entry    string
		runs     map[string][]string // writer → entries
		warnings []string            // substrings, one per warning
	}{
		// Apply runs both through the table init fills (initmaps.go).
		{"", map[string][]string{"credit": {pkg + "Apply", pkg + "credit"}, "debit": {pkg + "Apply", pkg + "debit"}}, nil},
		{"^credit$", map[string][]string{"credit": {pkg + "credit"}, "debit": {}}, []string{pkg + "debit (ops.go:56) writes accounts, but no verified entry runs it"}},
	}
	for _, tt := range tests {
		rep, err := runShared(context.Background(), Config{Dir: dir, Patterns: []string{"./..."}, Constraints: []string{"accounts.balance >= 0"}, Entry: tt.entry, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Coverage) != len(tt.runs) {
			t.Errorf("--entry %q: coverage %+v, want writers %v", tt.entry, rep.Coverage, tt.runs)
		}
		for _, c := range rep.Coverage {
			want, ok := tt.runs[strings.TrimPrefix(c.Writer, pkg)]
			if !ok || strings.Join(c.Entries, ",") != strings.Join(want, ",") || c.Position == "" {
				t.Errorf("--entry %q: %s (%s) run by %v, want %v", tt.entry, c.Writer, c.Position, c.Entries, want)
			}
		}
		if len(rep.Warnings) != len(tt.warnings) {
			t.Errorf("--entry %q: warnings %q, want %d", tt.entry, rep.Warnings, len(tt.warnings))
			continue
		}
		for i, w := range tt.warnings {
			if !strings.Contains(rep.Warnings[i], w) {
				t.Errorf("--entry %q: warning %q lacks %q", tt.entry, rep.Warnings[i], w)
			}
		}
	}
}

// TestCoverageGeneratedNotCalled: a sqlc query method nothing in the
// module calls (SetBalance) is not verified by default: the coverage
// lists it as generated and not checked, and the text says how to check
// it; with CheckGenerated it is an entry (UNSAFE: it sets any balance).
// A generated query a package the patterns leave out calls (Refund,
// called by genapi) is an entry either way (UNSAFE on its own). The generated query the service calls is run by
// the service's entry either way.
func TestCoverageGeneratedNotCalled(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("testdata", "src"))
	pkg := "example.com/pl/gen."
	for _, check := range []bool{false, true} {
		rep, err := runShared(context.Background(), Config{Dir: dir, Patterns: []string{"./gen"}, Constraints: []string{"accounts.balance >= 0"}, Workers: 1, CheckGenerated: check})
		if err != nil {
			t.Fatal(err)
		}
		verdicts := map[string]report.Verdict{}
		for _, r := range rep.Results {
			verdicts[strings.TrimPrefix(r.Entry, pkg)] = r.Verdict
		}
		want := map[string]report.Verdict{"(*Service).Pay": report.Safe, "(*Queries).Refund": report.Unsafe}
		if check {
			want["(*Queries).SetBalance"] = report.Unsafe
		}
		if !maps.Equal(verdicts, want) {
			t.Errorf("CheckGenerated=%v: verdicts %v, want %v", check, verdicts, want)
		}
		cov := map[string]report.Coverage{}
		for _, c := range rep.Coverage {
			cov[strings.TrimPrefix(c.Writer, pkg)] = c
		}
		if c := cov["(*Queries).AddBalance"]; strings.Join(c.Entries, ",") != pkg+"(*Service).Pay" || c.Generated {
			t.Errorf("CheckGenerated=%v: AddBalance coverage %+v, want run by Pay", check, c)
		}
		if c := cov["(*Queries).SetBalance"]; c.Generated == check || check != (strings.Join(c.Entries, ",") == pkg+"(*Queries).SetBalance") {
			t.Errorf("CheckGenerated=%v: SetBalance coverage %+v", check, c)
		}
		var text strings.Builder
		if err := report.WriteText(&text, rep, report.Options{}); err != nil {
			t.Fatal(err)
		}
		line := pkg + "(*Queries).SetBalance (gen/query.sql.go:22) writes accounts: generated, not called: not checked (--check-generated to check)"
		if strings.Contains(text.String(), line) == check {
			t.Errorf("CheckGenerated=%v: text has the line %q = %v:\n%s", check, line, !check, text.String())
		}
	}
}

// TestCoverageAddsUnreachedWriters: a writer that no discovered entry
// runs (here two functions that only call each other) is verified as an
// entry of its own, and the run says so.
func TestCoverageAddsUnreachedWriters(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("testdata", "src"))
	rep, err := runShared(context.Background(), Config{Dir: dir, Patterns: []string{"./cycle"}, Constraints: []string{"accounts.balance >= 0"}, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, r := range rep.Results {
		got[r.Entry] = true
	}
	// drain becomes an entry; refill runs inside it.
	if !got["example.com/pl/cycle.drain"] || len(rep.Results) != 1 {
		t.Errorf("results %+v, want one for the unreached writer drain", rep.Results)
	}
	if len(rep.Coverage) != 2 || !rep.Coverage[0].Added || rep.Coverage[1].Added ||
		strings.Join(rep.Coverage[1].Entries, ",") != "example.com/pl/cycle.drain" {
		t.Errorf("coverage %+v, want drain added as an entry and refill run by it", rep.Coverage)
	}
	if len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "cycle.drain (cycle/cycle.go:7) writes accounts, but no entry point found runs it: verified as an entry of its own") {
		t.Errorf("warnings %q, want one for drain", rep.Warnings)
	}
}
