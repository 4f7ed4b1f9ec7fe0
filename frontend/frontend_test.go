package frontend

import (
	"errors"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/ir"
	"github.com/dbverify/dbverify/sqlir"
	"github.com/dbverify/dbverify/sqlparse"
)

func load(t *testing.T, pkg string) *Loaded {
	t.Helper()
	dir, _ := filepath.Abs(filepath.Join("testdata", "src"))
	l, err := Load(Config{Dir: dir, Patterns: []string{"./" + pkg}})
	if err != nil {
		t.Fatalf("Load(%s): %v", pkg, err)
	}
	return l
}

func entryNames(l *Loaded, tables ...string) []string {
	var out []string
	for _, fn := range l.Entries(tables, nil) {
		out = append(out, EntryName(fn))
	}
	sort.Strings(out)
	return out
}

func TestEntries(t *testing.T) {
	l := load(t, "entries")
	tests := []struct {
		tables []string
		want   []string
	}{
		{[]string{"accounts"}, []string{"example.com/fe/entries.(*Store).Withdraw", "example.com/fe/entries.Deposit"}},
		{[]string{"audit"}, []string{"example.com/fe/entries.Audit"}},
		{[]string{"ACCOUNTS", "audit"}, []string{"example.com/fe/entries.(*Store).Withdraw", "example.com/fe/entries.Audit", "example.com/fe/entries.Deposit"}},
		{[]string{"other"}, nil},
	}
	for _, tt := range tests {
		got := entryNames(l, tt.tables...)
		if strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("Entries(%v) = %v, want %v", tt.tables, got, tt.want)
		}
	}
}

// translate returns the IR of the entry whose name ends in suffix.
func translate(t *testing.T, l *Loaded, suffix string) *ir.Program {
	t.Helper()
	for _, fn := range l.Functions() {
		if strings.HasSuffix(EntryName(fn), suffix) {
			p := l.Translate(fn)
			if err := ir.Sanity(p); err != nil {
				t.Fatalf("%s: IR fails its sanity check: %v", suffix, err)
			}
			return p
		}
	}
	t.Fatalf("no function %s", suffix)
	return nil
}

func TestTranslateModelsCallsAndErrors(t *testing.T) {
	l := load(t, "entries")
	p := translate(t, l, ".(*Store).Withdraw")
	text := p.String()
	for _, want := range []string{
		// The helper's condition flows into the branch on its error.
		"assume amt <= 0",
		// The debit is found through the inlined helper, with its arguments bound.
		`exec "UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?" args(amt, id, amt)`,
		// Sentinel errors are non-nil.
		"entries.ErrInvalid := true",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("IR of Withdraw lacks %q:\n%s", want, text)
		}
	}
	if len(p.Unsupported) > 0 {
		t.Errorf("Withdraw: unexpected unsupported constructs %v", p.Unsupported)
	}
	if len(p.Inputs) != 2 || p.Inputs[0].Name != "id" || p.Inputs[1].Name != "amt" {
		t.Errorf("inputs = %v, want id, amt", p.Inputs)
	}
	// The closure is inlined into Deposit.
	if d := translate(t, l, ".Deposit").String(); !strings.Contains(d, `exec "UPDATE accounts SET balance = balance + ? WHERE id = ?" args(Deposit$func.amt, Deposit$func.id)`) {
		t.Errorf("IR of Deposit lacks the closure's UPDATE:\n%s", d)
	}
}

func TestSQLThroughWrapper(t *testing.T) {
	p := translate(t, load(t, "wrapper"), ".Charge")
	if !strings.Contains(p.String(), `exec "UPDATE accounts SET balance = balance - ? WHERE id = ?" args(fee, id)`) {
		t.Errorf("the wrapper's query and arguments are not resolved:\n%s", p)
	}
}

// TestGoroutineTranslatedInPlace: a goroutine is translated as a call at
// its go statement, recorded with its position, its edges (the UPDATE
// among them) and an edge from its start to where the entry continues
// (it may not have run yet).
func TestGoroutineTranslatedInPlace(t *testing.T) {
	p := translate(t, load(t, "unsupported"), ".Async")
	if len(p.Unsupported) > 0 || len(p.Goroutines) != 1 {
		t.Fatalf("unsupported %v, %d goroutines; want none and 1", p.Unsupported, len(p.Goroutines))
	}
	g := p.Goroutines[0]
	if g.Name != "bump" || !strings.HasSuffix(g.Position(), "unsupported.go:33") {
		t.Errorf("goroutine %s at %s, want bump at unsupported.go:33", g.Name, g.Position())
	}
	update, skip := false, false
	for _, e := range g.Edges {
		if x, ok := e.Stmt.(*ir.Exec); ok && strings.HasPrefix(x.Text, "UPDATE accounts") {
			update = true
		}
		skip = skip || (e.From == g.Start && e.To == g.Cont)
	}
	if !update || !skip {
		t.Errorf("goroutine edges: update %v, start→continuation %v; want both", update, skip)
	}
}

func TestUnsupportedIsReportedWithPosition(t *testing.T) {
	l := load(t, "unsupported")
	tests := []struct {
		entry, what, pos string
	}{
		{".Retry", "recursive call of Retry", "unsupported.go:16"},
		{".Dynamic", "SQL text is not a compile-time constant", "unsupported.go:23"},
		{".Handoff", "call through a function value", "unsupported.go:41"},
		// Two constructors prepare different SQL into one field.
		{".(*Stmts).Debit", "prepared statement whose SQL is not known", "unsupported.go:64"},
		// A handle the entry opens itself, handed to unseen code.
		{".OpenAndStash", "database handle passed to", "unsupported.go:76"},
	}
	for _, tt := range tests {
		p := translate(t, l, tt.entry)
		found := false
		for _, u := range p.Unsupported {
			if strings.Contains(u.What, tt.what) && strings.HasSuffix(u.Position(), tt.pos) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: want unsupported %q at %s, got %v", tt.entry, tt.what, tt.pos, p.Unsupported)
		}
	}
}

// SQL that does not parse is not a load error: the entry that runs it is
// UNKNOWN with the call's position and the column of the error.
func TestUnparsableSQLIsUnsupported(t *testing.T) {
	p := translate(t, load(t, "badsql"), ".Broken")
	found := false
	for _, u := range p.Unsupported {
		if strings.Contains(u.What, "syntax error at column 22") && strings.HasSuffix(u.Position(), "badsql.go:8") {
			found = true
		}
	}
	if !found {
		t.Errorf("want the syntax error at column 22 reported at badsql.go:8, got %v", p.Unsupported)
	}
}

// The driver named in sql.Open decides the dialect even when the driver
// is imported by a package that is not analysed.
func TestDialectFromOpen(t *testing.T) {
	l := load(t, "sqliteopen")
	if l.Dialect != sqlparse.SQLite {
		t.Errorf("dialect = %v (%s), want sqlite", l.Dialect, l.DialectSource)
	}
	p := translate(t, l, ".Upsert")
	if len(p.Unsupported) > 0 {
		t.Errorf("SQLite upsert not modelled: %v", p.Unsupported)
	}
}

func TestDeferInLoopIsUnsupported(t *testing.T) {
	p := translate(t, load(t, "deferloop"), ".Each")
	if len(p.Unsupported) == 0 || !strings.Contains(p.Unsupported[0].What, "defer inside a loop") {
		t.Errorf("want 'defer inside a loop', got %v", p.Unsupported)
	}
}

func TestDialectDetection(t *testing.T) {
	if l := load(t, "dialect"); l.Dialect != sqlparse.Postgres {
		t.Errorf("dialect of $n SQL = %v (%s), want postgres", l.Dialect, l.DialectSource)
	}
	// SQL handed to an exec helper (adv7 D1: read as MySQL, every entry
	// UNKNOWN on "$1").
	if l := load(t, "dialecthelper"); l.Dialect != sqlparse.Postgres {
		t.Errorf("dialect of $n SQL passed to a helper = %v (%s), want postgres", l.Dialect, l.DialectSource)
	}
	if l := load(t, "entries"); l.Dialect != sqlparse.MySQL {
		t.Errorf("dialect of ? SQL = %v (%s), want mysql", l.Dialect, l.DialectSource)
	}
}

func TestLoadErrors(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("testdata", "src"))
	tests := []struct {
		pkg  string
		want []string
	}{
		{"broken", []string{"broken.go:8", "cannot use"}},
	}
	for _, tt := range tests {
		_, err := Load(Config{Dir: dir, Patterns: []string{"./" + tt.pkg}})
		var le *LoadError
		if !errors.As(err, &le) {
			t.Fatalf("Load(%s) = %v, want a *LoadError", tt.pkg, err)
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("Load(%s) error %q lacks %q", tt.pkg, err, w)
			}
		}
	}
}

func TestSQLFromSeveralConstants(t *testing.T) {
	l := load(t, "strs")
	tests := []struct {
		entry string
		want  []string // in the IR
		unsup string   // "" = none expected
	}{
		{".Debit", []string{
			`exec "UPDATE checking SET balance = balance - ? WHERE id = ?" args(amt, id)`,
			`exec "UPDATE savings SET balance = balance - ? WHERE id = ?" args(amt, id)`,
		}, ""},
		{".Fee", []string{
			`exec "UPDATE archive SET balance = balance - __dbv_fmt0__ WHERE id = ?" args(id, fee)`,
			`exec "UPDATE accounts SET balance = balance - __dbv_fmt0__ WHERE id = ?" args(id, fee)`,
		}, ""},
		{".Named", nil, "SQL text is not a compile-time constant"},
	}
	for _, tt := range tests {
		p := translate(t, l, tt.entry)
		text := p.String()
		for _, w := range tt.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: IR lacks %q:\n%s", tt.entry, w, text)
			}
		}
		switch {
		case tt.unsup == "" && len(p.Unsupported) > 0:
			t.Errorf("%s: unexpected unsupported %v", tt.entry, p.Unsupported)
		case tt.unsup != "" && (len(p.Unsupported) == 0 || !strings.Contains(p.Unsupported[0].What, tt.unsup)):
			t.Errorf("%s: want unsupported %q, got %v", tt.entry, tt.unsup, p.Unsupported)
		}
	}
	// The marker is bound to the formatted value, as a placeholder.
	p := translate(t, l, ".Fee")
	for _, e := range p.Edges {
		if x, ok := e.Stmt.(*ir.Exec); ok {
			u := x.SQL.(*sqlir.Update)
			if got := sqlparse.Format(u.Set[0].Value); got != "balance - $2" {
				t.Errorf("SET value = %s, want balance - $2 (the fee bound as a parameter)", got)
			}
		}
	}
}

// TestFloatNaNFlags: strconv.ParseFloat may return NaN, which ordered
// comparisons let through; its "is NaN" flag reaches the comparisons, the
// conversion to int64 (whose result for NaN or an out-of-range value is
// an approximation) and math.IsNaN through a memory cell and math.Max.
func TestFloatNaNFlags(t *testing.T) {
	l := load(t, "floats")
	p := translate(t, l, ".Unchecked")
	text := p.String()
	for _, want := range []string{
		"assume !isNaN(d) && (ParseFloat(amount, 64).0 <= 0)",
		"isNaN(t5) := isNaN(ParseFloat(amount, 64).0)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("IR of Unchecked lacks %q:\n%s", want, text)
		}
	}
	approx := 0
	for _, v := range p.Vars {
		if strings.Contains(v.Approx, "of NaN or of a value outside int64's range") {
			approx++
		}
	}
	if approx != 1 {
		t.Errorf("Unchecked: %d approximated conversion results, want 1:\n%s", approx, text)
	}
	m := translate(t, l, ".Merged").String()
	for _, want := range []string{
		// The cell's flag is the parsed value's, stored or through Max.
		"x, isNaN(x) := ParseFloat(amount, 64).0, isNaN(ParseFloat(amount, 64).0)",
		"x, isNaN(x) := Max(), isNaN(ParseFloat(amount, 64).0)",
		// math.IsNaN reads the flag of the loaded value.
		"IsNaN() := isNaN(t8)",
	} {
		if !strings.Contains(m, want) {
			t.Errorf("IR of Merged lacks %q:\n%s", want, m)
		}
	}
}
