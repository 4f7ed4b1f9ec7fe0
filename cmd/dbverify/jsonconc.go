package main

import (
	"github.com/dbverify/dbverify/pipeline"
	"github.com/dbverify/dbverify/refine"
)

// The JSON of a --concurrent result.

// jsonConcurrency is how a verdict for concurrent requests was reached.
type jsonConcurrency struct {
	// Scope: "proved for any number of concurrent requests", "bounded: 2
	// requests" (SAFE), "concurrent requests" (UNSAFE by an interleaving),
	// "sequential" (the verdict of the entry alone stands).
	Scope           string `json:"scope"`
	PairsSearched   int    `json:"pairs_searched,omitempty"`
	StabilityFailed string `json:"stability_failed,omitempty"`
}

type jsonRequest struct {
	Request string        `json:"request"`
	Entry   string        `json:"entry"`
	Inputs  []jsonBinding `json:"inputs"`
}

type jsonBinding struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type jsonScheduleStep struct {
	Request string   `json:"request"`
	Step    int      `json:"step"`
	Pos     string   `json:"pos"`
	Op      string   `json:"op"`
	SQL     string   `json:"sql"`
	Args    []string `json:"args"`
}

// concurrencyScope names the scope of a concurrent result.
func concurrencyScope(r *pipeline.Result) string {
	cc := r.Concurrency
	switch {
	case cc.AlsoSequential:
		return "sequential"
	case cc.Proved:
		return "proved for any number of concurrent requests"
	case cc.Bounded:
		return "bounded: 2 requests"
	case r.Verdict == refine.Unsafe:
		return "concurrent requests"
	}
	return "concurrent requests (undecided)"
}

// addConcurrency fills the concurrent fields of jr from r.
func addConcurrency(jr *jsonResult, r *pipeline.Result) {
	cc := r.Concurrency
	if cc == nil {
		return
	}
	iso := cc.Isolation
	jr.Isolation = &iso
	jr.Concurrency = &jsonConcurrency{Scope: concurrencyScope(r), PairsSearched: cc.PairsSearched, StabilityFailed: cc.StabilityFailed}
	if cc.AlsoSequential && r.Verdict == refine.Unsafe {
		jr.Labels = append(jr.Labels, "also-sequential")
	}
	if cc.ConcurrentWith == "" {
		return
	}
	jr.ConcurrentWith = cc.ConcurrentWith
	if cc.ConcurrencyOnly {
		jr.Labels = append(jr.Labels, "concurrency-only")
	}
	for _, q := range cc.Requests {
		jq := jsonRequest{Request: q.Request, Entry: q.Entry, Inputs: []jsonBinding{}}
		for _, b := range q.Inputs {
			jq.Inputs = append(jq.Inputs, jsonBinding{Name: b.Name, Value: b.Value})
		}
		jr.Requests = append(jr.Requests, jq)
	}
	jr.InitialRows = []jsonRow{}
	for _, row := range cc.InitialRows {
		jr.InitialRows = append(jr.InitialRows, jsonRow{Symbol: row.Symbol, Table: row.Table, Values: nonNilMap(row.Values)})
	}
	jr.Schedule = []jsonScheduleStep{}
	for _, s := range cc.Schedule {
		args := s.Args
		if args == nil {
			args = []string{}
		}
		jr.Schedule = append(jr.Schedule, jsonScheduleStep{Request: s.Request, Step: s.Step, Pos: s.Pos, Op: s.Op, SQL: s.SQL, Args: args})
	}
}
