package schedule

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestParseOrder(t *testing.T) {
	tests := []struct {
		in   string
		want []Step
		bad  bool
	}{
		{in: "A1 B1 A2", want: []Step{{Request: "A", Step: 1}, {Request: "B", Step: 1}, {Request: "A", Step: 2}}},
		{in: "A1, B12", want: []Step{{Request: "A", Step: 1}, {Request: "B", Step: 12}}},
		{in: "1A", bad: true},
		{in: "A0", bad: true},
		{in: "A", bad: true},
	}
	for _, tc := range tests {
		got, err := ParseOrder(tc.in)
		if (err != nil) != tc.bad {
			t.Errorf("%q: error %v, want bad=%v", tc.in, err, tc.bad)
			continue
		}
		if !tc.bad && !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

// TestScheduleJSON: the verifier's JSON (full steps) and a hand-written
// order decode into the same steps, and Validate rejects a step of an
// unknown request.
func TestScheduleJSON(t *testing.T) {
	full := `{"requests":[{"request":"A","entry":"p.F","inputs":[{"name":"id","value":"1"}]},{"request":"B","entry":"p.F","inputs":[]}],
	  "initial_rows":[{"table":"accounts","values":{"id":"1","balance":"100"}}],
	  "schedule":[{"request":"A","step":1,"pos":"store.go:31","op":"begin","sql":"BEGIN"},{"request":"B","step":1,"op":"begin"}],
	  "isolation":{"level":"READ COMMITTED","source":"postgres default"}}`
	hand := `{"requests":[{"request":"A","entry":"p.F","inputs":[]},{"request":"B","entry":"p.F","inputs":[]}],"initial_rows":[],"order":"A1 B1"}`
	var a, b Schedule
	if err := json.Unmarshal([]byte(full), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(hand), &b); err != nil {
		t.Fatal(err)
	}
	for _, s := range []*Schedule{&a, &b} {
		if err := s.Validate(); err != nil {
			t.Fatal(err)
		}
	}
	sa, _ := a.Steps()
	sb, _ := b.Steps()
	if !reflect.DeepEqual(gateSteps(sa), gateSteps(sb)) {
		t.Errorf("steps differ: %+v vs %+v", sa, sb)
	}
	if a.Isolation.Level != "READ COMMITTED" || a.InitialRows[0].Values["balance"] != "100" || a.Requests[0].Inputs[0].Value != "1" {
		t.Errorf("decoded %+v", a)
	}
	b.Order = "A1 C1"
	if err := b.Validate(); err == nil {
		t.Error("Validate accepted a step of request C")
	}
}
