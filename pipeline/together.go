package pipeline

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/dbverify/dbverify/report"
	"github.com/dbverify/dbverify/spec"
)

// Constraints checked together. A user who states several row
// constraints in one run means them as one invariant: every row satisfies
// all of them. Each (entry, constraint) is first decided alone, from any
// database whose rows satisfy that constraint (and the facts and CHECKs);
// an UNSAFE found so may start from a row that breaks another constraint
// of the run (new-user trial D4: e-commerce's TransferStock [stock >= 0]
// from a row with reserved = -1, while reserved >= 0 was checked in the
// same command). Such an UNSAFE is decided again assuming the run's other
// row constraints on entry, as --assume facts:
//
//   - UNSAFE again: the new counterexample, whose initial rows satisfy
//     every constraint of the run, replaces the first;
//   - SAFE: sound by induction only if every constraint it assumed is
//     kept by every entry of the run (from a database where all hold,
//     every request keeps all), which the run has decided: then SAFE,
//     stating the assumption; otherwise UNKNOWN naming the entries not
//     proved SAFE for the assumed constraint;
//   - UNKNOWN (a limit) or vacuous: the first UNSAFE stays, with a note
//     that its initial rows may break the others.
//
// An UNKNOWN of the first pass that no limit stopped (a counterexample
// that reads a value the model approximates, adv8 F2: an expiry reset
// whose only counterexample starts from a row with used < 0 while used >=
// 0 is checked in the same run) is decided again the same way: SAFE
// there is SAFE on the same terms, UNSAFE (a validated counterexample
// that reads no approximated value, from rows satisfying every
// constraint) replaces it, and anything else leaves the first UNKNOWN.
// An UNKNOWN a limit stopped is not run again: it would likely stop
// again, at twice the cost; nor one an unsupported construct stopped,
// which stops it whatever the initial rows.
//
// SAFE results of the first pass assumed nothing and stay as they are.

// togetherRechecks returns, for each UNSAFE result, and each UNKNOWN no
// limit stopped, whose run checks other row constraints, the job deciding it again under them (and
// which result it re-decides).
func togetherRechecks(in *inputs, jobs []job, results []*report.Result) ([]job, []int) {
	var rechecks []job
	var which []int
	for i, r := range results {
		if r.Verdict != report.Unsafe && (r.Verdict != report.Unknown || r.Limit != "" || strings.HasPrefix(r.Reason, "unsupported: ")) {
			continue // an unsupported construct stops it from any rows
		}
		others := otherRowChecks(in.constraints, jobs[i].c)
		if len(others) == 0 {
			continue
		}
		j := jobs[i]
		j.assumed = others
		rechecks = append(rechecks, j)
		which = append(which, i)
	}
	return rechecks, which
}

// otherRowChecks returns the row constraints of the run other than c, as
// facts about the initial database.
func otherRowChecks(constraints []spec.Property, c spec.Property) []*spec.TableFact {
	var out []*spec.TableFact
	for _, p := range constraints {
		rc, ok := p.(*spec.RowCheck)
		if !ok || p == c {
			continue
		}
		out = append(out, &spec.TableFact{Name: rc.Name, Text: rc.Text, Table: rc.Table, Expr: rc.Expr})
	}
	return out
}

// checkTogether re-decides the UNSAFE results whose initial rows may
// break another row constraint of the run (see the comment above) and
// merges the outcomes into results.
func checkTogether(ctx context.Context, cfg Config, in *inputs, jobs []job, results []*report.Result) error {
	rechecks, which := togetherRechecks(in, jobs, results)
	if len(rechecks) == 0 {
		return nil
	}
	quiet := cfg
	quiet.Progress, quiet.Started = nil, nil
	if cfg.Phase != nil {
		cfg.Phase(recheckAnnouncement(rechecks))
		quiet.Progress = func(done, total int, r *report.Result) {
			cfg.Phase(fmt.Sprintf("re-checked %d of %d: %s (%s) assuming the run's other constraints: %s, %.2fs, %d SMT queries", done, total, r.Entry, r.Constraint, r.Verdict, r.Seconds, r.SMTQueries))
		}
	}
	again, _, err := runJobs(ctx, quiet, in, rechecks, jobs)
	if err != nil {
		return err
	}
	final := slices.Clone(results)
	for k, i := range which {
		if again[k].Verdict == report.Safe {
			final[i] = again[k]
		}
	}
	held := establishedConstraints(in.constraints, jobs, final, rechecks, which)
	for k, i := range which {
		results[i] = mergeRecheck(results[i], again[k], rechecks[k].assumed, held, in.entryRE != nil, jobs, final)
	}
	return nil
}

// recheckAnnouncement says which results checkTogether decides again, and
// why.
func recheckAnnouncement(rechecks []job) string {
	var names []string
	for _, j := range rechecks {
		names = append(names, fmt.Sprintf("%s (%s)", j.entry, j.c.Label()))
	}
	return fmt.Sprintf("every result is decided; re-checking %d UNSAFE or UNKNOWN result(s) assuming the run's other row constraints on entry (an interrupt now keeps the verdicts decided): %s", len(rechecks), strings.Join(names, ", "))
}

// establishedConstraints returns the constraints (by label) that hold in
// every reachable database by induction: every entry's result for them
// is SAFE, and every SAFE that assumed other constraints assumed only
// established ones (a greatest fixpoint: constraints that assume each
// other are established together).
func establishedConstraints(constraints []spec.Property, jobs []job, final []*report.Result, rechecks []job, which []int) map[string]bool {
	held := map[string]bool{}
	for _, c := range constraints {
		held[c.Label()] = true // no entry may write its table: kept
	}
	for i, r := range final {
		if r.Verdict != report.Safe {
			held[jobs[i].c.Label()] = false
		}
	}
	assumedBy := map[int][]*spec.TableFact{}
	for k, i := range which {
		if final[i].Verdict == report.Safe {
			assumedBy[i] = rechecks[k].assumed
		}
	}
	for changed := true; changed; {
		changed = false
		for i, facts := range assumedBy {
			label := jobs[i].c.Label()
			if !held[label] {
				continue
			}
			for _, f := range facts {
				if !held[factLabel(f)] {
					held[label], changed = false, true
					break
				}
			}
		}
	}
	return held
}

// factLabel is the label of the constraint a fact of otherRowChecks was
// made from (spec.RowCheck.Label).
func factLabel(f *spec.TableFact) string {
	return (&spec.RowCheck{Name: f.Name, Text: f.Text, Table: f.Table, Expr: f.Expr}).Label()
}

// mergeRecheck returns the verdict of an UNSAFE (or UNKNOWN) first
// result given its re-check under the run's other row constraints
// assumed.
func mergeRecheck(first, again *report.Result, assumed []*spec.TableFact, held map[string]bool, selected bool, jobs []job, final []*report.Result) *report.Result {
	var texts []string
	for _, f := range assumed {
		texts = append(texts, f.Text)
	}
	others := strings.Join(texts, ", ")
	switch {
	case again.Verdict == report.Unsafe && !again.Vacuous:
		return again
	case again.Verdict == report.Safe:
		var open []string
		for _, f := range assumed {
			if !held[factLabel(f)] {
				open = append(open, notProved(factLabel(f), jobs, final)...)
			}
		}
		if selected {
			// The writers --entry left out are not checked at all.
			open = append(open, "--entry selects the entries checked, and those not selected may break it")
		}
		alone, only := "this constraint can be broken from a row that breaks them", "a counterexample exists only from a database row that breaks"
		if first.Verdict == report.Unknown {
			alone, only = "this constraint is not decided ("+first.Reason+")", "UNKNOWN alone ("+first.Reason+"); SAFE only from database rows that keep"
		}
		if len(open) == 0 {
			again.Assumptions = append(again.Assumptions, fmt.Sprintf(report.TogetherAssumption+": %s (every entry of the run is SAFE for them, so by induction, from a database where all hold, every request keeps all; alone, %s)", others, alone))
			return again
		}
		r := *first
		r.Verdict, r.Counterexample = report.Unknown, nil
		if first.Verdict == report.Unsafe {
			r.Position = ""
		}
		r.Requests, r.InitialRows, r.Schedule, r.Labels, r.ConcurrentWith = nil, nil, nil, nil, ""
		r.Reason = fmt.Sprintf("%s %s, also checked in this run (SAFE assuming it on entry), and that is not proved for every entry: %s (a request sequence through them may reach such a row)", only, others, strings.Join(open, "; "))
		r.SMTQueries += again.SMTQueries
		return &r
	}
	if first.Verdict == report.Unknown {
		// Not decided under the others either: the first reason stands.
		return first
	}
	why := again.Reason
	if again.Vacuous {
		why = "vacuous together"
	}
	first.Assumptions = append(first.Assumptions, fmt.Sprintf(report.OthersNotAssumed+" (%s): the counterexample's initial rows may break them; decided again assuming them on entry: %s (%s)", others, again.Verdict, why))
	return first
}

// notProved lists the entries whose result for the constraint labelled
// label is not SAFE, with their verdicts.
func notProved(label string, jobs []job, final []*report.Result) []string {
	var out []string
	for i, r := range final {
		if jobs[i].c.Label() == label && r.Verdict != report.Safe {
			out = append(out, fmt.Sprintf("%s is %s for %s", shortName(r.Entry), r.Verdict, label))
		}
	}
	if len(out) == 0 {
		// SAFE everywhere, but only assuming a constraint that is not.
		out = append(out, fmt.Sprintf("%s is SAFE only assuming constraints not proved", label))
	}
	return out
}
