package crosscheck

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// Kind classifies an execution's disagreement with a verdict.
type Kind string

// Kinds of findings. WrongSafe and FalseUnsafe are disagreements; the
// others are counterexamples execution cannot force, counted apart.
const (
	// WrongSafe: a run from a state satisfying the constraint breaks it
	// although dbverify says SAFE.
	WrongSafe Kind = "wrong SAFE"
	// FalseUnsafe: the counterexample runs (no failing call, no external
	// value needed) and the constraint still holds afterwards.
	FalseUnsafe Kind = "unreproduced UNSAFE"
	// NeedsFailure: the counterexample needs a database call to fail.
	NeedsFailure Kind = "UNSAFE needs a failing database call"
	// NeedsExternal: the counterexample's inputs are not all the entry's
	// (results of external calls, receiver state the driver cannot set).
	NeedsExternal Kind = "UNSAFE depends on a value execution cannot set"
	// CexDoesNotReplay: the counterexample does not break the constraint
	// when replayed, but another run from the same inputs or a random run
	// does: the verdict is right, the trace is not a run.
	CexDoesNotReplay Kind = "UNSAFE confirmed, but its counterexample does not replay"
	// BreaksOtherCheck: the counterexample's write breaks another CHECK of
	// the schema, which the engine enforces, so the run takes the error
	// path instead (the trace ignores that CHECK).
	BreaksOtherCheck Kind = "UNSAFE counterexample breaks another enforced CHECK"
	// SchemaGuess: the counterexample's run failed on a column type of the
	// synthesised schema (the program has no DDL; the guess was wrong).
	SchemaGuess Kind = "UNSAFE not replayable on the guessed schema"
	// EngineLacks: the program's SQL is of a server version the engine
	// of its dialect does not run (MySQL 8's `VALUES … AS new` alias on
	// MariaDB): a known limit of the engines the cross-check has, not a
	// verdict it checked.
	EngineLacks Kind = "UNSAFE runs SQL its engine lacks (MySQL 8 syntax on MariaDB)"
	// OtherEngine: the program opens databases of two dialects (a
	// PostgreSQL primary and a SQLite replica); the cross-check runs a case
	// on one engine, so an entry of the other database fails on it.
	OtherEngine Kind = "UNSAFE of a program with databases of two dialects (one engine per case)"
	// Interleaved: the counterexample is two requests whose database
	// operations interleave (--concurrent); a sequential call cannot run
	// it. witness/schedule replays such schedules on the engines
	// (TestConcurrentGroundTruth, dbverify replay of a concurrent result).
	Interleaved Kind = "UNSAFE of interleaved requests (replayed by witness/schedule, not by a sequential call)"
	// WrongFinal: an UNKNOWN whose expected final verdict is SAFE, broken
	// by a run.
	WrongFinal Kind = "expected final SAFE broken"
)

// Disagreement reports whether k is a wrong verdict (not a limit of
// execution).
func (k Kind) Disagreement() bool { return k == WrongSafe || k == FalseUnsafe || k == WrongFinal }

// Finding is one verdict execution disagrees with (or cannot confirm).
type Finding struct {
	Kind Kind
	// Run prints the run: inputs, rows before and after, the result.
	Run string
}

// EntryResult is the cross-check of one (entry, constraint) of a case.
type EntryResult struct {
	Case, Entry, Constraint string
	// Verdict is dbverify's verdict now; Final the expected right answer.
	Verdict, Final  string
	Dialect, Schema string
	// Executions counts the entry's calls.
	Executions int
	// NotExecutable says why the entry was not run.
	NotExecutable string
	// Confirmed is set when an execution agrees with an UNSAFE (or with an
	// UNKNOWN's final UNSAFE): the constraint broke.
	Confirmed bool
	// Errors counts executions the harness could not finish (timeouts).
	Errors  int
	Finding *Finding
	Notes   []string
}

// Report is a whole cross-check.
type Report struct {
	Results []*EntryResult
	// CaseProblems are cases that could not be run at all, with the reason.
	CaseProblems map[string]string
	Cases        int
}

// Totals are the report's figures.
type Totals struct {
	Cases, CasesRun, Entries, EntriesRun, Executions int
	Safe, Unsafe, Unknown                            int
	UnsafeReproduced, UnknownBroken                  int
	Disagreements                                    int
	ByKind                                           map[Kind]int
	NotExecutable                                    map[string]int
}

// Totals sums the report.
func (r *Report) Totals() Totals {
	t := Totals{Cases: r.Cases, ByKind: map[Kind]int{}, NotExecutable: map[string]int{}}
	ran := map[string]bool{}
	for _, e := range r.Results {
		t.Entries++
		t.Executions += e.Executions
		if e.NotExecutable != "" {
			t.NotExecutable[e.NotExecutable]++
			continue
		}
		t.EntriesRun++
		ran[e.Case] = true
		switch e.Verdict {
		case "SAFE":
			t.Safe++
		case "UNSAFE":
			t.Unsafe++
			if e.Confirmed {
				t.UnsafeReproduced++
			}
		default:
			t.Unknown++
			if e.Confirmed {
				t.UnknownBroken++
			}
		}
		if e.Finding != nil {
			t.ByKind[e.Finding.Kind]++
			if e.Finding.Kind.Disagreement() {
				t.Disagreements++
			}
		}
	}
	t.CasesRun = len(ran)
	return t
}

// Summary prints the figures and every finding.
func (r *Report) Summary() string {
	t := r.Totals()
	var b strings.Builder
	fmt.Fprintf(&b, "cases %d (executed %d), entries %d (executed %d), executions %d\n", t.Cases, t.CasesRun, t.Entries, t.EntriesRun, t.Executions)
	fmt.Fprintf(&b, "verdicts executed: SAFE %d, UNSAFE %d (reproduced %d), UNKNOWN %d (broken by a run %d)\n", t.Safe, t.Unsafe, t.UnsafeReproduced, t.Unknown, t.UnknownBroken)
	fmt.Fprintf(&b, "disagreements %d", t.Disagreements)
	for _, k := range sortedKinds(t.ByKind) {
		fmt.Fprintf(&b, "; %s %d", k, t.ByKind[k])
	}
	b.WriteString("\n")
	for _, why := range sortedStrings(t.NotExecutable) {
		fmt.Fprintf(&b, "not executable (%d): %s\n", t.NotExecutable[why], why)
	}
	for _, c := range sortedStrings(r.CaseProblems) {
		fmt.Fprintf(&b, "case not run: %s: %s\n", c, r.CaseProblems[c])
	}
	for _, e := range r.Results {
		if e.Finding != nil {
			fmt.Fprintf(&b, "%s: %s %s [%s] %s (%s, schema %s): %s\n", e.Finding.Kind, e.Case, ShortEntry(e.Entry), e.Constraint, e.Verdict, e.Dialect, e.Schema, e.Finding.Run)
		}
	}
	return b.String()
}

func sortedKinds(m map[Kind]int) []Kind {
	var out []Kind
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func sortedStrings[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// ShortEntry is an entry's name without its package path: "(*Store).Take"
// of "example.com/corpus/trust/x/store.(*Store).Take".
func ShortEntry(e string) string {
	slash := strings.LastIndexByte(e, '/')
	rest := e[slash+1:]
	if dot := strings.IndexByte(rest, '.'); dot >= 0 {
		return rest[dot+1:]
	}
	return e
}

// Markdown writes the figures, the entries not executed and every finding
// with its run, for RESULTS.md.
func (r *Report) Markdown(w io.Writer) {
	t := r.Totals()
	fmt.Fprintf(w, "| cases | cases executed | entries | entries executed | executions | SAFE checked | UNSAFE replayed (broken) | UNKNOWN run (broken) | disagreements |\n")
	fmt.Fprintf(w, "|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	fmt.Fprintf(w, "| %d | %d | %d | %d | %d | %d | %d (%d) | %d (%d) | %d |\n\n",
		t.Cases, t.CasesRun, t.Entries, t.EntriesRun, t.Executions, t.Safe, t.Unsafe, t.UnsafeReproduced, t.Unknown, t.UnknownBroken, t.Disagreements)
	if len(t.ByKind) > 0 {
		fmt.Fprintf(w, "Findings by kind:")
		for _, k := range sortedKinds(t.ByKind) {
			fmt.Fprintf(w, " %s %d;", k, t.ByKind[k])
		}
		fmt.Fprintf(w, "\n\n")
	}
	if len(t.NotExecutable) > 0 || len(r.CaseProblems) > 0 {
		fmt.Fprintf(w, "Not executed:\n\n")
		for _, why := range sortedStrings(t.NotExecutable) {
			fmt.Fprintf(w, "- %d entries: %s\n", t.NotExecutable[why], why)
		}
		for _, c := range sortedStrings(r.CaseProblems) {
			fmt.Fprintf(w, "- case %s: %s\n", c, r.CaseProblems[c])
		}
		fmt.Fprintln(w)
	}
	any := false
	for _, e := range r.Results {
		if e.Finding == nil {
			continue
		}
		if !any {
			fmt.Fprintf(w, "| case | entry | constraint | verdict | finding | dialect, schema | run |\n|---|---|---|---|---|---|---|\n")
			any = true
		}
		fmt.Fprintf(w, "| %s | %s | `%s` | %s | %s | %s, %s | %s |\n", e.Case, ShortEntry(e.Entry), e.Constraint, e.Verdict,
			e.Finding.Kind, e.Dialect, e.Schema, strings.ReplaceAll(e.Finding.Run, "|", "\\|"))
	}
	if any {
		fmt.Fprintln(w)
	}
}
