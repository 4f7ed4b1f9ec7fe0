package main

import (
	"encoding/json"
	"io"
	"strconv"
	"strings"

	"github.com/dbverify/dbverify/pipeline"
	"github.com/dbverify/dbverify/refine"
)

// SARIF 2.1.0 output: one result per UNSAFE (error, with the counterexample
// as a code flow) and UNKNOWN (warning) verdict, and one (warning) per
// writer of a constrained table that no verified entry runs.

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string       `json:"id"`
	Name             string       `json:"name"`
	ShortDescription sarifMessage `json:"shortDescription"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	Level     string          `json:"level"`
	Message   sarifMessage    `json:"message"`
	Locations []sarifLocation `json:"locations"`
	CodeFlows []sarifCodeFlow `json:"codeFlows,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
	Message          *sarifMessage `json:"message,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

type sarifCodeFlow struct {
	ThreadFlows []sarifThreadFlow `json:"threadFlows"`
}

type sarifThreadFlow struct {
	Locations []sarifFlowLocation `json:"locations"`
}

type sarifFlowLocation struct {
	Location sarifLocation `json:"location"`
}

func sarifLoc(pos, msg string) (sarifLocation, bool) {
	i := strings.LastIndexByte(pos, ':')
	if i < 0 {
		return sarifLocation{}, false
	}
	line, err := strconv.Atoi(pos[i+1:])
	if err != nil {
		return sarifLocation{}, false
	}
	l := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: pos[:i]}, Region: sarifRegion{StartLine: line}}}
	if msg != "" {
		l.Message = &sarifMessage{Text: msg}
	}
	return l, true
}

func writeSARIF(w io.Writer, rep *pipeline.Report) error {
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{Name: "dbverify", Rules: []sarifRule{
			{ID: "DBV001", Name: "ConstraintViolation", ShortDescription: sarifMessage{Text: "a run of the entry point breaks the database constraint"}},
			{ID: "DBV002", Name: "Undecided", ShortDescription: sarifMessage{Text: "dbverify could not decide the constraint for the entry point"}},
			{ID: "DBV003", Name: "UnverifiedWriter", ShortDescription: sarifMessage{Text: "a function writes a constrained table but no discovered or selected entry point runs it"}},
		}}},
		Results: []sarifResult{},
	}
	for _, r := range rep.Results {
		var res sarifResult
		switch r.Verdict {
		case refine.Unsafe:
			res = sarifResult{RuleID: "DBV001", Level: "error",
				Message: sarifMessage{Text: r.Entry + " can break " + r.Constraint}}
			if r.Trace != nil && r.Trace.Trace != nil {
				var tf sarifThreadFlow
				for _, s := range r.Trace.Trace.Steps {
					if l, ok := sarifLoc(s.Position, s.Kind+": "+s.Text); ok {
						tf.Locations = append(tf.Locations, sarifFlowLocation{Location: l})
					}
				}
				if len(tf.Locations) > 0 {
					res.CodeFlows = []sarifCodeFlow{{ThreadFlows: []sarifThreadFlow{tf}}}
				}
			}
		case refine.Unknown:
			res = sarifResult{RuleID: "DBV002", Level: "warning",
				Message: sarifMessage{Text: r.Entry + ": " + r.Constraint + " undecided: " + r.Reason}}
		default:
			continue
		}
		if l, ok := sarifLoc(r.Position, ""); ok {
			res.Locations = []sarifLocation{l}
		} else {
			res.Locations = []sarifLocation{}
		}
		run.Results = append(run.Results, res)
	}
	for _, c := range rep.Coverage {
		if len(c.Entries) > 0 && !c.Added {
			continue
		}
		msg := c.Writer + " writes " + strings.Join(c.Tables, ", ") + " but no verified entry runs it"
		if c.Added {
			msg = c.Writer + " writes " + strings.Join(c.Tables, ", ") + " but no entry point found runs it: verified as an entry of its own"
		}
		res := sarifResult{RuleID: "DBV003", Level: "warning", Message: sarifMessage{Text: msg}, Locations: []sarifLocation{}}
		if l, ok := sarifLoc(c.Position, ""); ok {
			res.Locations = []sarifLocation{l}
		}
		run.Results = append(run.Results, res)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{run},
	})
}
