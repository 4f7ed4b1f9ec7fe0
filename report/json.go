package report

import (
	"encoding/json"
	"io"
)

// WriteJSON writes rep as one indented JSON object: the schema of this
// package. Lists that are empty are written as [] rather than null.
func WriteJSON(w io.Writer, rep *Report) error {
	out := *rep
	out.Results = make([]*Result, len(rep.Results))
	copy(out.Results, rep.Results)
	if out.Coverage == nil {
		out.Coverage = []Coverage{}
	}
	for i, r := range out.Results {
		if r.Predicates == nil {
			c := *r
			c.Predicates = []string{}
			out.Results[i] = &c
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(&out)
}
