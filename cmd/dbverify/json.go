package main

import (
	"encoding/json"
	"io"

	"github.com/dbverify/dbverify/pipeline"
	"github.com/dbverify/dbverify/refine"
	"github.com/dbverify/dbverify/vcgen"
)

// The JSON output: exactly one object with the results and statistics.

type jsonReport struct {
	Results  []jsonResult   `json:"results"`
	Coverage []jsonCoverage `json:"coverage"`
	Warnings []string       `json:"warnings,omitempty"`
	Dialect  *jsonDialect   `json:"dialect,omitempty"`
	Stats    jsonStats      `json:"stats"`
}

// jsonDialect: the SQL dialect of the run and why it was chosen.
type jsonDialect struct {
	Name   string `json:"name"`
	Source string `json:"source"`
}

// jsonCoverage: a function that writes a constrained table and the
// verified entries that run it (added: it is an entry because no other
// entry runs it).
type jsonCoverage struct {
	Writer   string   `json:"writer"`
	Position string   `json:"position"`
	Tables   []string `json:"tables"`
	Entries  []string `json:"entries"`
	Added    bool     `json:"added,omitempty"`
}

type jsonResult struct {
	Entry          string   `json:"entry"`
	Constraint     string   `json:"constraint"`
	Verdict        string   `json:"verdict"`
	Reason         string   `json:"reason"`
	Position       string   `json:"position"`
	Refinements    int      `json:"refinements"`
	Predicates     []string `json:"predicates"`
	Assumptions    []string `json:"assumptions,omitempty"`
	Suppressed     string   `json:"suppressed,omitempty"`
	Cached         bool     `json:"cached,omitempty"`
	Proof          string   `json:"proof,omitempty"`
	Engine         string   `json:"engine,omitempty"`
	InBaseline     bool     `json:"in_baseline,omitempty"`
	Counterexample *jsonCex `json:"counterexample,omitempty"`
	// With --concurrent (jsonconc.go).
	Isolation      *pipeline.Isolation `json:"isolation,omitempty"`
	Concurrency    *jsonConcurrency    `json:"concurrency,omitempty"`
	Labels         []string            `json:"labels,omitempty"`
	ConcurrentWith string              `json:"concurrent_with,omitempty"`
	Requests       []jsonRequest       `json:"requests,omitempty"`
	InitialRows    []jsonRow           `json:"initial_rows,omitempty"`
	Schedule       []jsonScheduleStep  `json:"schedule,omitempty"`
	SMTQueries     int                 `json:"smt_queries"`
	Seconds        float64             `json:"seconds"`
	BoolProg       string              `json:"boolprog,omitempty"`
	IR             string              `json:"ir,omitempty"`
}

type jsonCex struct {
	Inputs    map[string]string `json:"inputs"`
	Rows      []jsonRow         `json:"rows"`
	Steps     []jsonStep        `json:"steps"`
	Violation jsonRow           `json:"violation"`
}

type jsonRow struct {
	Symbol string            `json:"symbol,omitempty"`
	Table  string            `json:"table"`
	Values map[string]string `json:"values"`
}

type jsonStep struct {
	Position string            `json:"position"`
	Kind     string            `json:"kind"`
	Text     string            `json:"text"`
	Values   map[string]string `json:"values"`
	Request  string            `json:"request,omitempty"`
}

type jsonStats struct {
	Entries         int     `json:"entries"`
	Safe            int     `json:"safe"`
	Unsafe          int     `json:"unsafe"`
	Unknown         int     `json:"unknown"`
	SMTQueries      int     `json:"smt_queries"`
	Seconds         float64 `json:"seconds"`
	FrontendSeconds float64 `json:"frontend_seconds"`
}

func toJSON(rep *pipeline.Report) jsonReport {
	out := jsonReport{Results: []jsonResult{}, Coverage: []jsonCoverage{}, Warnings: rep.Warnings}
	if rep.Dialect != "" {
		out.Dialect = &jsonDialect{Name: rep.Dialect, Source: rep.DialectSource}
	}
	for _, c := range rep.Coverage {
		out.Coverage = append(out.Coverage, jsonCoverage{Writer: c.Writer, Position: c.Position, Tables: c.Tables, Entries: c.Entries, Added: c.Added})
	}
	for _, r := range rep.Results {
		jr := jsonResult{
			Entry: r.Entry, Constraint: r.Constraint, Verdict: string(r.Verdict),
			Reason: r.Reason, Position: r.Position, Refinements: r.Refinements,
			Predicates: r.Predicates, Assumptions: r.Assumptions, Suppressed: r.Suppressed, Cached: r.Cached, InBaseline: r.InBaseline,
			SMTQueries: r.SMTQueries, Seconds: r.Seconds,
			BoolProg: r.BoolProg, IR: r.IR,
		}
		if r.Trace != nil {
			jr.Proof, jr.Engine = r.Trace.Proof, r.Trace.Engine
		}
		if jr.Predicates == nil {
			jr.Predicates = []string{}
		}
		if r.Verdict == refine.Unsafe && r.Trace != nil && r.Trace.Trace != nil {
			jr.Counterexample = cexJSON(r.Trace.Trace)
		}
		addConcurrency(&jr, r)
		out.Results = append(out.Results, jr)
		switch r.Verdict {
		case refine.Safe:
			out.Stats.Safe++
		case refine.Unsafe:
			out.Stats.Unsafe++
		default:
			out.Stats.Unknown++
		}
	}
	out.Stats.Entries = rep.Entries
	out.Stats.SMTQueries = rep.SMTQueries
	out.Stats.Seconds = rep.Seconds
	out.Stats.FrontendSeconds = rep.FrontendSeconds
	return out
}

func cexJSON(t *vcgen.Trace) *jsonCex {
	c := &jsonCex{Inputs: map[string]string{}, Rows: []jsonRow{}, Steps: []jsonStep{}}
	for _, in := range t.Inputs {
		c.Inputs[in.Name] = in.Value
	}
	for _, r := range t.Rows {
		c.Rows = append(c.Rows, jsonRow{Symbol: r.Symbol, Table: r.Table, Values: nonNilMap(r.Values)})
	}
	for _, s := range t.Steps {
		c.Steps = append(c.Steps, jsonStep{Position: s.Position, Kind: s.Kind, Text: s.Text, Values: nonNilMap(s.Values), Request: s.Request})
	}
	c.Violation = jsonRow{Table: t.Violation.Table, Values: nonNilMap(t.Violation.Values)}
	return c
}

func nonNilMap(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}

func writeJSON(w io.Writer, rep *pipeline.Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(toJSON(rep))
}
