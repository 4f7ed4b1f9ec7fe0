package frontend

import (
	"regexp"
	"strings"
	"testing"
)

// TestEntriesOfRegisteredFunctions checks that every way a service hands
// a writer to code outside the analysis makes it an entry point, and that
// helpers only the module calls are not.
func TestEntriesOfRegisteredFunctions(t *testing.T) {
	l := load(t, "handlers")
	got := map[string]bool{}
	for _, n := range entryNames(l, "accounts") {
		got[strings.TrimPrefix(n, "example.com/fe/handlers.")] = true
	}
	tests := []struct {
		name  string
		entry bool
		why   string
	}{
		{"(*Server).withdraw", true, "method value given to http.HandleFunc"},
		{"makeDeposit$1", true, "closure returned by a factory and registered"},
		{"(*Server).fee", true, "method value wrapped by a middleware closure that escapes"},
		{"closeAccount", true, "stored in a map of operations by init"},
		{"applyInterest", true, "stored in a struct field of a package variable"},
		{"Credit", true, "exported, although Reward calls it"},
		{"Reward", true, "exported"},
		{"init#2", true, "init writes the database"},
		{"(*Service).Pay", true, "exported method; the closure it passes to InTx writes"},
		{"(*Queries).Unused", true, "generated but called by no one"},
		{"(*Queries).Debit", false, "generated code called by Service2.Debit"},
		{"helper", false, "unexported, called by Reward2 only"},
		{"(*Service).Pay$1", false, "runs inside InTx, inlined in Pay"},
		{"(*Server).Routes", false, "registers the handlers, writes nothing itself"},
		{"makeDeposit", false, "returns the writer without running it"},
		{"logged$1", false, "calls a function value only"},
		{"(*Ledger).Charge", true, "exported method of a generic type that nothing instantiates"},
	}
	for _, tt := range tests {
		if got[tt.name] != tt.entry {
			t.Errorf("%s: entry = %v, want %v (%s); entries: %v", tt.name, got[tt.name], tt.entry, tt.why, entryNames(l, "accounts"))
		}
	}
}

// TestWritersReachedByEntries checks the coverage relation: every writer
// of the package runs inside some discovered entry.
func TestWritersReachedByEntries(t *testing.T) {
	l := load(t, "handlers")
	entries := l.Entries([]string{"accounts"}, nil)
	writers := l.Writers([]string{"accounts"})
	if len(writers) < 10 {
		t.Fatalf("Writers found %d writers, want the 13 of the package: %v", len(writers), writers)
	}
	for _, w := range writers {
		covered := false
		for _, e := range entries {
			if l.Reached(e)[w.Fn] {
				covered = true
			}
		}
		if !covered {
			t.Errorf("writer %s (%s) is run by no entry", w.Name, w.Position)
		}
		if w.Position == "" || len(w.Tables) != 1 || w.Tables[0] != "accounts" {
			t.Errorf("writer %s: position %q, tables %v", w.Name, w.Position, w.Tables)
		}
	}
}

// TestEntryMatchesClosures checks that --entry can select a closure by
// the name EntryName gives it.
func TestEntryMatchesClosures(t *testing.T) {
	l := load(t, "handlers")
	tests := []struct {
		pattern string
		want    []string
	}{
		{`makeDeposit\$1`, []string{"example.com/fe/handlers.makeDeposit$1"}},
		{`^Server\.withdraw$`, []string{"example.com/fe/handlers.(*Server).withdraw"}},
		{`Pay\$1$`, []string{"example.com/fe/handlers.(*Service).Pay$1"}},
		// The enclosing function's name selects it, not its closures.
		{`Service\.Pay`, []string{"example.com/fe/handlers.(*Service).Pay"}},
	}
	for _, tt := range tests {
		var got []string
		for _, fn := range l.Entries(nil, regexp.MustCompile(tt.pattern)) {
			got = append(got, EntryName(fn))
		}
		if strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("--entry %s selects %v, want %v", tt.pattern, got, tt.want)
		}
	}
}

// TestInterfaceCallRunsWritingCallback checks that an interface method
// whose implementation writes nothing itself still runs when the function
// passed to it writes.
func TestInterfaceCallRunsWritingCallback(t *testing.T) {
	l := load(t, "handlers")
	text := translate(t, l, ".(*Service).Pay").String()
	for _, want := range []string{"begin", `UPDATE accounts SET balance = balance - ? WHERE id = 4`, "commit"} {
		if !strings.Contains(text, want) {
			t.Errorf("Pay's IR lacks %q:\n%s", want, text)
		}
	}
}

// TestPureCallsOneValue checks that the same pure call on the same
// arguments is one variable: the value checked is the value written.
func TestPureCallsOneValue(t *testing.T) {
	l := load(t, "handlers")
	p := translate(t, l, ".TopUp")
	text := p.String()
	v := `Atoi(FormValue(_, "n")).0`
	for _, want := range []string{"assume " + v + " <= 0", "args(" + v + ")"} {
		if !strings.Contains(text, want) {
			t.Errorf("TopUp's IR lacks %q:\n%s", want, text)
		}
	}
	found := false
	for _, a := range p.Assumptions {
		if strings.Contains(a, "FormValue gives the same result") {
			found = true
		}
	}
	if !found {
		t.Errorf("no assumption about FormValue: %v", p.Assumptions)
	}
}
