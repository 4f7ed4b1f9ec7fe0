package pipeline

import "github.com/dbverify/dbverify/report"

// rewriteValues replaces every value r's counterexample and schedule
// print outside the table rows: the inputs and outside calls, each SQL
// step's bound arguments (and its SQL, bound again) and named values,
// the requests' inputs and the schedule's arguments. value rewrites a
// value with no column; stepValue a step's named value (sym.col for a
// row's column). The printers of dates and UUIDs share it.
func rewriteValues(r *report.Result, value func(string) string, stepValue func(name, v string) string) {
	if c := r.Counterexample; c != nil {
		for i := range c.Inputs {
			c.Inputs[i].Value = value(c.Inputs[i].Value)
		}
		for i := range c.Outside {
			c.Outside[i].Value = value(c.Outside[i].Value)
		}
		for i := range c.Steps {
			st := &c.Steps[i]
			for j, a := range st.Args {
				if a != "" {
					st.Args[j] = value(a)
				}
			}
			if st.SQL != "" {
				st.SQL = report.BindSQL(st.Text, st.Args)
			}
			for name, v := range st.Values {
				st.Values[name] = stepValue(name, v)
			}
		}
	}
	for i := range r.Requests {
		for j := range r.Requests[i].Inputs {
			r.Requests[i].Inputs[j].Value = value(r.Requests[i].Inputs[j].Value)
		}
	}
	for i := range r.Schedule {
		for j, a := range r.Schedule[i].Args {
			r.Schedule[i].Args[j] = value(a)
		}
	}
}
