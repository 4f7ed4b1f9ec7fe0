package benchmarks_test

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/report"
)

// TestHTTPTraceInputs runs the built binary on the handlers of
// testdata/traces (net/http, chi, gin, echo, gorilla/mux; path, query,
// form, header and JSON body values) and checks that each counterexample
// names the request's values as a developer sends them — `path parameter
// "id" = "7" (strconv.ParseInt → 7)` — in the text report, in the JSON
// report's structured http field (kind, name, raw text, parsed value,
// the text being the parsed number's) and in the SARIF message; and that
// a local a user named t1 (tvars) is shown in its step, with its value.
func TestHTTPTraceInputs(t *testing.T) {
	recordInputs(t)
	dir, err := filepath.Abs(filepath.Join("testdata", "traces"))
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"check", "--no-cache", "-c", "accounts.balance >= 0", "./..."}
	text := dbverify(t, dir, args...)
	js := dbverify(t, dir, append([]string{"check", "--format", "json"}, args[1:]...)...)
	sarif := dbverify(t, dir, append([]string{"check", "--format", "sarif"}, args[1:]...)...)
	for _, inv := range []int{text.ExitCode, js.ExitCode, sarif.ExitCode} {
		if inv != 1 {
			t.Fatalf("check: exit %d, want 1 (UNSAFE)\nstderr:\n%s", inv, text.Stderr)
		}
	}
	var rep report.Report
	if err := json.Unmarshal(js.Stdout, &rep); err != nil {
		t.Fatal(err)
	}
	num := `"(-?\d+)" \(strconv\.(?:ParseInt|Atoi) → -?\d+\)`
	id := `path parameter "id" = ` + num
	tests := []struct {
		entry string
		text  string   // the inputs line (a regexp)
		http  []string // kind:name:parse of the JSON http field
	}{
		{"nethttp.(*Server).withdrawQuery", id + `, query parameter "amount" = ` + num, []string{"path:id:strconv.ParseInt", "query:amount:strconv.Atoi"}},
		{"nethttp.(*Server).withdrawForm", id + `, form field "amount" = ` + num, []string{"path:id:strconv.ParseInt", "form:amount:strconv.ParseInt"}},
		{"nethttp.(*Server).withdrawHeader", id + `, header "X-Amount" = ` + num, []string{"path:id:strconv.ParseInt", "header:X-Amount:strconv.ParseInt"}},
		{"nethttp.(*Server).withdrawJSON", id + `, JSON body field "amount" = \d+ \(body\.Amount\)`, []string{"path:id:strconv.ParseInt", "body:amount:"}},
		{"chiapi.(*Handler).withdraw", id + `, query parameter "amount" = ` + num, []string{"path:id:strconv.ParseInt", "query:amount:strconv.ParseInt"}},
		{"ginapi.(*Handler).withdraw", id + `, query parameter "amount" = ` + num, []string{"path:id:strconv.ParseInt", "query:amount:strconv.ParseInt"}},
		{"echoapi.(*Handler).withdraw", id + `, query parameter "amount" = ` + num, []string{"path:id:strconv.ParseInt", "query:amount:strconv.ParseInt"}},
		{"muxapi.(*Handler).withdraw", id + `, form field "amount" = ` + num, []string{"path:id:strconv.ParseInt", "form:amount:strconv.ParseInt"}},
	}
	messages := sarifMessages(t, sarif.Stdout)
	results := map[string]*report.Result{}
	for _, r := range rep.Results {
		results[strings.TrimPrefix(r.Entry, "example.com/traces/")] = r
	}
	for _, tt := range tests {
		r := results[tt.entry]
		if r == nil || r.Verdict != report.Unsafe || r.Counterexample == nil {
			t.Errorf("%s: no UNSAFE result with a counterexample", tt.entry)
			continue
		}
		line := regexp.MustCompile(`(?m)^  inputs:    ` + tt.text + `$`)
		block := resultBlock(string(text.Stdout), tt.entry)
		if !line.MatchString(block) {
			t.Errorf("%s: the inputs line does not match %s:\n%s", tt.entry, line, block)
		}
		var got []string
		for _, h := range r.Counterexample.HTTP {
			got = append(got, h.Kind+":"+h.Name+":"+h.Parse)
			if h.Parse != "" && h.Raw != strconv.Quote(h.Parsed) {
				t.Errorf("%s: %s %q is %s, parsed as %s: want the number's text", tt.entry, h.Kind, h.Name, h.Raw, h.Parsed)
			}
			if h.Kind == "body" && (h.Raw == "" || len(h.Vars) != 1 || h.Vars[0] != "body.Amount") {
				t.Errorf("%s: body field %+v, want body.Amount's value", tt.entry, h)
			}
			if !strings.Contains(messages, h.String()) {
				t.Errorf("%s: the SARIF message lacks %s", tt.entry, h)
			}
		}
		if strings.Join(got, " ") != strings.Join(tt.http, " ") {
			t.Errorf("%s: http inputs %v, want %v", tt.entry, got, tt.http)
		}
		for _, raw := range []string{"ParseInt(", "Atoi(", "PathValue(", "Get(_", "len("} {
			if strings.Contains(block, raw) {
				t.Errorf("%s: the text report still prints %s:\n%s", tt.entry, raw, block)
			}
		}
	}
	checkUserTemporaryName(t, results["tvars.Withdraw"])
}

// checkUserTemporaryName: the step of t1 := amount * 2 shows t1, twice
// the amount.
func checkUserTemporaryName(t *testing.T, r *report.Result) {
	t.Helper()
	if r == nil || r.Counterexample == nil {
		t.Fatal("tvars.Withdraw: no counterexample")
	}
	amount, err := strconv.Atoi(r.Counterexample.Inputs.Map()["amount"])
	if err != nil {
		t.Fatalf("tvars.Withdraw: amount input %v", r.Counterexample.Inputs)
	}
	for _, s := range r.Counterexample.Steps {
		if strings.HasPrefix(s.Text, "t1 :=") {
			if s.Values["t1"] != strconv.Itoa(2*amount) {
				t.Errorf("tvars.Withdraw: step %q shows %v, want t1 = %d", s.Text, s.Values, 2*amount)
			}
			return
		}
	}
	t.Errorf("tvars.Withdraw: no step t1 := amount * 2 in %+v", r.Counterexample.Steps)
}

// resultBlock is the text report's block of entry's result.
func resultBlock(out, entry string) string {
	i := strings.Index(out, " "+"example.com/traces/"+entry+" [")
	if i < 0 {
		return ""
	}
	block := out[i:]
	if j := regexp.MustCompile(`\n\S`).FindStringIndex(block); j != nil {
		block = block[:j[0]]
	}
	return block
}

// sarifMessages are the message texts of a SARIF log's results, one a
// line.
func sarifMessages(t *testing.T, data []byte) string {
	t.Helper()
	var log struct {
		Runs []struct {
			Results []struct {
				Message struct{ Text string } `json:"message"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, run := range log.Runs {
		for _, r := range run.Results {
			out = append(out, r.Message.Text)
		}
	}
	return strings.Join(out, "\n")
}
