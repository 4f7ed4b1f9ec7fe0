package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dbverify/dbverify/witness"
)

// TestPrintReplayUnordered: a replay whose read the seeding could not
// make the engine's first row (the trace fixes the keys that decide it)
// says so, not that the counterexample does not reproduce.
func TestPrintReplayUnordered(t *testing.T) {
	why := "the SELECT at l.go:32 may match seeded rows {id=1} and {id=0} of quotas, and the trace fixes their keys"
	row := witness.Row{Table: "quotas", Values: map[string]string{"id": "1"}}
	res := &witness.ReplayResult{Engine: "mysql (a throwaway server)", Schema: &witness.Schema{Source: "schema.sql"}, Outcomes: []*witness.ReplayOutcome{{
		Target:  witness.ReplayTarget{Entry: "m.F", Constraint: "quotas.used <= quotas.quota"},
		Run:     &witness.Run{Rows: []witness.Row{row}, Unordered: []string{why}},
		Outcome: &witness.Outcome{Call: &witness.CallResult{}, After: []map[string]string{row.Values}},
	}}}
	var b bytes.Buffer
	printReplay(&b, res)
	out := b.String()
	if !strings.Contains(out, "NOT REPLAYABLE AS PRINTED: "+why) || strings.Contains(out, "NOT REPRODUCED") {
		t.Errorf("replay output:\n%s\nwant NOT REPLAYABLE AS PRINTED with the reason, no NOT REPRODUCED", out)
	}
}
