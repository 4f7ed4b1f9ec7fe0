package main

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// seatsCheck runs check --concurrent on the program in dir (a copy of
// testdata/seats: Book locks the row it checks, BookNoLock does not,
// Cancel gives a seat back) with the result cache in cache, and returns
// what it printed.
func seatsCheck(t *testing.T, dir, cache string, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	all := append([]string{"dbverify", "check", "-C", dir, "--cache-dir", cache, "--dialect", "mysql", "--concurrent",
		"--schema", "schema.sql", "-c", "shows.booked <= shows.capacity"}, args...)
	if code := run(append(all, "./..."), &out, &errOut); code == exitUsage {
		t.Fatalf("exit code %d\n%s", code, errOut.String())
	}
	return out.String()
}

// seatsJSON is seatsCheck's JSON report.
func seatsJSON(t *testing.T, dir, cache string, args ...string) *report.Report {
	t.Helper()
	out := seatsCheck(t, dir, cache, append([]string{"--format", "json"}, args...)...)
	var rep report.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return &rep
}

// copySeats copies testdata/seats into a directory of the test.
func copySeats(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"go.mod", "schema.sql", "seats.go"} {
		data, err := os.ReadFile(filepath.Join("testdata", "seats", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// verdicts lists the results' entries, verdicts and cache marks.
func verdicts(rep *report.Report) map[string]string {
	out := map[string]string{}
	for _, r := range rep.Results {
		v := string(r.Verdict)
		if r.Cached {
			v += " cached"
		}
		out[r.Entry[strings.LastIndexByte(r.Entry, '.')+1:]] = v
	}
	return out
}

// TestConcurrentCache: a second run of the same --concurrent check (the
// CI job that wants the text and then SARIF or JSON) takes every result
// from the cache, the concurrent search's included, with no SMT query,
// and prints the same verdicts; a change in the code of one entry, which
// every result's search pairs with, misses the cache for all of them.
// Before, only the sequential results were kept: the second run searched
// the schedules again (independent tester adv17: minutes, twice).
func TestConcurrentCache(t *testing.T) {
	dir, cache := copySeats(t), t.TempDir()
	text := seatsCheck(t, dir, cache)
	if strings.Contains(text, "from the cache") {
		t.Fatalf("the first run read the cache:\n%s", text)
	}
	rep := seatsJSON(t, dir, cache)
	want := map[string]string{"Book": "SAFE cached", "BookNoLock": "UNSAFE cached", "Cancel": "SAFE cached"}
	if got := verdicts(rep); !maps.Equal(got, want) || rep.Stats.SMTQueries != 0 {
		t.Errorf("second run: %v with %d SMT queries, want %v with none", got, rep.Stats.SMTQueries, want)
	}
	for _, r := range rep.Results {
		if r.Verdict == report.Unsafe && (len(r.Schedule) == 0 || len(r.Requests) != 2 || r.Concurrency == nil) {
			t.Errorf("%s from the cache lost its schedule, requests or scope: %+v", r.Entry, r)
		}
	}
	if text := seatsCheck(t, dir, cache); !strings.Contains(text, "3 from the cache") {
		t.Errorf("third run, text: no \"3 from the cache\":\n%s", text)
	}
	src := filepath.Join(dir, "seats.go")
	code, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(code), "WHERE id = ? AND booked > 0", "WHERE id = ? AND booked > 1", 1)
	if changed == string(code) {
		t.Fatal("Cancel's UPDATE not found in seats.go")
	}
	if err := os.WriteFile(src, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	rep = seatsJSON(t, dir, cache)
	want = map[string]string{"Book": "SAFE", "BookNoLock": "UNSAFE", "Cancel": "SAFE"}
	if got := verdicts(rep); !maps.Equal(got, want) {
		t.Errorf("after a change in Cancel: %v, want %v (every search pairs with Cancel: none from the cache)", got, want)
	}
}

// TestUnknownCache: an UNKNOWN that a work limit decided is kept and read
// again by a run with the same limits, the concurrent check's (the
// 2-request search out of --max-queries) as the sequential one's (Z3's
// resource limit); a run with another limit misses it and decides again.
// Before, no UNKNOWN was kept.
func TestUnknownCache(t *testing.T) {
	dir, cache := copySeats(t), t.TempDir()
	first := seatsJSON(t, dir, cache, "--max-queries", "2")
	want := map[string]string{"Book": "SAFE", "BookNoLock": "UNKNOWN", "Cancel": "SAFE"}
	if got := verdicts(first); !maps.Equal(got, want) {
		t.Fatalf("--max-queries 2: %v, want %v", got, want)
	}
	second := seatsJSON(t, dir, cache, "--max-queries", "2")
	want = map[string]string{"Book": "SAFE cached", "BookNoLock": "UNKNOWN cached", "Cancel": "SAFE cached"}
	if got := verdicts(second); !maps.Equal(got, want) || second.Stats.SMTQueries != 0 {
		t.Errorf("--max-queries 2 again: %v with %d SMT queries, want %v with none", got, second.Stats.SMTQueries, want)
	}
	for i, r := range second.Results {
		if r.Reason != first.Results[i].Reason || r.Verdict == report.Unknown && r.Limit != "work" {
			t.Errorf("%s: reason %q (limit %q) from the cache, %q first", r.Entry, r.Reason, r.Limit, first.Results[i].Reason)
		}
	}
	raised := seatsJSON(t, dir, cache, "--max-queries", "3")
	if got := verdicts(raised)["BookNoLock"]; got != "UNSAFE" {
		t.Errorf("--max-queries 3: BookNoLock %s, want UNSAFE decided again (not the UNKNOWN of --max-queries 2)", got)
	}
	cache = t.TempDir()
	seq := []string{"--rlimit", "1"}
	seatsJSON(t, dir, cache, seq...)
	again := seatsJSON(t, dir, cache, seq...)
	for _, r := range again.Results {
		if r.Verdict != report.Unknown || r.Limit != "work" || !r.Cached {
			t.Errorf("--rlimit 1 again: %s %s limit %q cached %t, want UNKNOWN (work) from the cache", r.Entry, r.Verdict, r.Limit, r.Cached)
		}
	}
	for _, r := range seatsJSON(t, dir, cache, "--rlimit", "2").Results {
		if r.Cached {
			t.Errorf("--rlimit 2: %s %s from the cache of --rlimit 1", r.Entry, r.Verdict)
		}
	}
}
