package report

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// SARIF 2.1.0 output, shaped for GitHub code scanning: one error result
// per UNSAFE verdict (the counterexample in the message and as a code
// flow, the primary location on the entry point so that the alert shows
// in pull requests that change it, the violating step as a related
// location) and one warning per UNKNOWN cause (the constraints it blocks
// listed in one result). URIs are relative to the repository root
// (%SRCROOT%), every result has a location and a semantic fingerprint.

const (
	sarifSchema   = "https://json.schemastore.org/sarif-2.1.0.json"
	srcRoot       = "%SRCROOT%"
	ruleViolated  = "DBV001"
	ruleUnknown   = "DBV002"
	ruleUncovered = "DBV003"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                `json:"tool"`
	Invocations        []sarifInvocation        `json:"invocations"`
	OriginalURIBaseIDs map[string]sarifArtifact `json:"originalUriBaseIds,omitempty"`
	AutomationDetails  *sarifAutomation         `json:"automationDetails,omitempty"`
	Results            []sarifResult            `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string      `json:"name"`
	InformationURI  string      `json:"informationUri"`
	Version         string      `json:"version"`
	SemanticVersion string      `json:"semanticVersion"`
	Rules           []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string              `json:"id"`
	Name                 string              `json:"name"`
	ShortDescription     sarifMessage        `json:"shortDescription"`
	FullDescription      sarifMessage        `json:"fullDescription"`
	Help                 sarifMarkdown       `json:"help"`
	DefaultConfiguration sarifConfiguration  `json:"defaultConfiguration"`
	Properties           sarifRuleProperties `json:"properties"`
}

type sarifConfiguration struct {
	Level string `json:"level"`
}

type sarifRuleProperties struct {
	Precision       string   `json:"precision"`
	ProblemSeverity string   `json:"problem.severity"`
	Tags            []string `json:"tags"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifMarkdown struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown"`
}

type sarifInvocation struct {
	ExecutionSuccessful bool                `json:"executionSuccessful"`
	Notifications       []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level   string       `json:"level"`
	Message sarifMessage `json:"message"`
}

type sarifAutomation struct {
	ID string `json:"id"`
}

type sarifResult struct {
	RuleID              string             `json:"ruleId"`
	RuleIndex           int                `json:"ruleIndex"`
	Level               string             `json:"level"`
	Message             sarifMessage       `json:"message"`
	Locations           []sarifLocation    `json:"locations"`
	RelatedLocations    []sarifLocation    `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string  `json:"partialFingerprints"`
	CodeFlows           []sarifCodeFlow    `json:"codeFlows,omitempty"`
	Suppressions        []sarifSuppression `json:"suppressions,omitempty"`
}

// sarifSuppression is a //dbverify:ignore directive (kind inSource) or a
// finding accepted in the --baseline report (kind external): GitHub
// closes the alert as dismissed with the justification.
type sarifSuppression struct {
	Kind          string `json:"kind"`
	Justification string `json:"justification"`
}

type sarifLocation struct {
	ID               *int          `json:"id,omitempty"`
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
	Message          *sarifMessage `json:"message,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

type sarifCodeFlow struct {
	ThreadFlows []sarifThreadFlow `json:"threadFlows"`
}

type sarifThreadFlow struct {
	// ID names the request of a concurrent counterexample ("A", "B").
	ID        string              `json:"id,omitempty"`
	Locations []sarifFlowLocation `json:"locations"`
}

type sarifFlowLocation struct {
	Location       sarifLocation `json:"location"`
	ExecutionOrder int           `json:"executionOrder"`
}

// sarifOptions say where the run happened and how to name it.
type sarifOptions struct {
	cwd      string // the directory the positions are relative to
	root     string // the repository root the URIs are relative to
	category string // --sarif-category: runAutomationDetails.id
	version  string // the tool's version
	semver   string // the tool's release
}

// newSARIFOptions takes the repository root from the nearest directory
// above the run's directory that holds .git (the module may sit in a
// subdirectory of a monorepo); without one, that directory itself.
func newSARIFOptions(o Options) sarifOptions {
	category, dir := o.Category, o.Dir
	cwd, err := filepath.Abs(dir)
	if err != nil {
		cwd = "."
	}
	root := cwd
	for d := cwd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			root = d
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return sarifOptions{cwd: cwd, root: root, category: category, version: o.ToolVersion, semver: o.SemanticVersion}
}

// sarifRules are the rules of dbverify's results, in RuleIndex order.
func sarifRules() []sarifRule {
	return []sarifRule{
		{
			ID: ruleViolated, Name: "ConstraintViolation",
			ShortDescription: sarifMessage{Text: "A run of the entry point breaks the database constraint"},
			FullDescription: sarifMessage{Text: "dbverify found concrete arguments and initial rows, all satisfying the constraint, " +
				"for which a call of the entry point leaves a row that breaks it (at a commit, or after an auto-committed statement)."},
			Help: sarifMarkdown{
				Text: "The alert's message gives the run: the arguments, the initial rows and the violating row; the code flow walks the Go lines and SQL statements " +
					"with the values they produce. Reproduce it with the listed arguments on a database holding the listed rows. Fix the guard " +
					"(check the value before the write, or move the condition into the UPDATE's WHERE and check RowsAffected), then run dbverify again.",
				Markdown: "The alert's message gives the run: the **arguments**, the **initial rows** and the **violating row**; the code flow walks the Go lines " +
					"and SQL statements with the values they produce.\n\nReproduce it with the listed arguments on a database holding the listed rows. " +
					"Fix the guard (check the value before the write, or move the condition into the `UPDATE`'s `WHERE` and check `RowsAffected`), then run dbverify again.",
			},
			DefaultConfiguration: sarifConfiguration{Level: "error"},
			Properties:           sarifRuleProperties{Precision: "high", ProblemSeverity: "error", Tags: []string{"correctness", "database"}},
		},
		{
			ID: ruleUnknown, Name: "Undecided",
			ShortDescription: sarifMessage{Text: "dbverify could not decide the constraint for the entry point"},
			FullDescription: sarifMessage{Text: "The entry point uses a construct dbverify does not model (named with its position), or the proof " +
				"search reached a limit. Nothing is claimed about the constraint for this entry point."},
			Help: sarifMarkdown{
				Text: "The message names the construct and its position, or the limit that was reached. Rewrite the construct (SQL text known at compile time, " +
					"no database handle passed to code outside the module), raise the limit (--max-refinements, --time-limit), or accept the result; " +
					"--fail-on-unknown makes the gate fail on it.",
				Markdown: "The message names the construct and its position, or the limit that was reached. Rewrite the construct (SQL text known at compile time, " +
					"no database handle passed to code outside the module), raise the limit (`--max-refinements`, `--time-limit`), or accept the result; " +
					"`--fail-on-unknown` makes the gate fail on it.",
			},
			DefaultConfiguration: sarifConfiguration{Level: "warning"},
			Properties:           sarifRuleProperties{Precision: "medium", ProblemSeverity: "warning", Tags: []string{"database"}},
		},
		{
			ID: ruleUncovered, Name: "UnverifiedWriter",
			ShortDescription: sarifMessage{Text: "A function writes a constrained table but no verified entry point runs it"},
			FullDescription: sarifMessage{Text: "dbverify verifies entry points; this function writes a constrained table and none of the verified " +
				"entry points runs it (it was left out by --entry, or found by no caller and verified as an entry of its own)."},
			Help: sarifMarkdown{
				Text:     "Include the function in the run (widen --entry, or check the packages that call it), or verify it as an entry of its own; until then nothing is claimed about its writes.",
				Markdown: "Include the function in the run (widen `--entry`, or check the packages that call it), or verify it as an entry of its own; until then nothing is claimed about its writes.",
			},
			DefaultConfiguration: sarifConfiguration{Level: "warning"},
			Properties:           sarifRuleProperties{Precision: "high", ProblemSeverity: "warning", Tags: []string{"database", "coverage"}},
		},
	}
}

func (o sarifOptions) run(results []sarifResult, ok bool, notes []sarifNotification) sarifRun {
	run := sarifRun{
		Tool:        sarifTool{Driver: sarifDriver{Name: "dbverify", InformationURI: "https://github.com/dbverify/dbverify", Version: o.version, SemanticVersion: o.semver, Rules: append(sarifRules(), findingRules()...)}},
		Invocations: []sarifInvocation{{ExecutionSuccessful: ok, Notifications: notes}},
		OriginalURIBaseIDs: map[string]sarifArtifact{
			srcRoot: {URI: "file://" + filepath.ToSlash(o.root) + "/"},
		},
		Results: results,
	}
	if o.category != "" {
		run.AutomationDetails = &sarifAutomation{ID: strings.TrimSuffix(o.category, "/") + "/"}
	}
	return run
}

func encodeSARIF(w io.Writer, run sarifRun) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{run}})
}

// WriteSARIFFailure writes a valid log for a run that failed (a load or
// usage error), so that an upload step gets a file that says so.
func WriteSARIFFailure(w io.Writer, o Options, err error) error {
	opt := newSARIFOptions(o)
	return encodeSARIF(w, opt.run([]sarifResult{}, false, []sarifNotification{{Level: "error", Message: sarifMessage{Text: err.Error()}}}))
}

// location turns "file:line" (relative to the working directory) into a
// location relative to the repository root.
func (o sarifOptions) location(pos, msg string) (sarifLocation, bool) {
	i := strings.LastIndexByte(pos, ':')
	if i < 0 {
		return sarifLocation{}, false
	}
	line, err := strconv.Atoi(pos[i+1:])
	if err != nil || line < 1 {
		return sarifLocation{}, false
	}
	file := pos[:i]
	if !filepath.IsAbs(file) {
		file = filepath.Join(o.cwd, file)
	}
	art := sarifArtifact{URI: "file://" + filepath.ToSlash(file)}
	if rel, err := filepath.Rel(o.root, file); err == nil && !strings.HasPrefix(rel, "..") {
		art = sarifArtifact{URI: filepath.ToSlash(rel), URIBaseID: srcRoot}
	}
	l := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: art, Region: sarifRegion{StartLine: line}}}
	if msg != "" {
		l.Message = &sarifMessage{Text: msg}
	}
	return l, true
}

// fingerprint is stable across edits that move lines: the rule, the entry,
// and what the finding is about, with positions left out.
func fingerprint(parts ...string) map[string]string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return map[string]string{"dbverify/v1": hex.EncodeToString(h[:16])}
}

// FindingReason is what an UNKNOWN is about, the same across runs: for
// one a limit stopped, the kind of limit (the reason's figures, queries
// used or the limit given, change with the flags and the code), else the
// reason without its positions. Baselines and SARIF fingerprints use it.
func FindingReason(r *Result) string {
	if r.Verdict == Unknown && r.Limit != "" {
		return "stopped by a " + r.Limit + " limit"
	}
	return WithoutPositions(r.Reason)
}

// WithoutPositions drops the "file.go:line" positions from s, so that a
// reason names the same finding after the code moves.
func WithoutPositions(s string) string {
	return regexp.MustCompile(`[^\s:()]+\.go:\d+`).ReplaceAllString(s, "")
}

// WriteSARIF writes rep as a SARIF 2.1.0 log.
func WriteSARIF(w io.Writer, rep *Report, o Options) error {
	opt := newSARIFOptions(o)
	results := []sarifResult{}
	unknown := map[string]int{} // entry + reason → index in results
	for _, r := range rep.Results {
		switch r.Verdict {
		case Unsafe:
			results = append(results, suppressed(opt.unsafeResult(r), r))
		case Unknown:
			key := r.Entry + "\x00" + r.Reason
			if i, ok := unknown[key]; ok {
				results[i].Message.Text = strings.Replace(results[i].Message.Text, " undecided:", ", "+r.Constraint+" undecided:", 1)
				continue
			}
			unknown[key] = len(results)
			results = append(results, suppressed(opt.unknownResult(r), r))
		}
	}
	for _, c := range rep.Coverage {
		if len(c.Entries) > 0 && !c.Added || c.Generated || c.CallerSites > 0 {
			continue
		}
		msg := c.Writer + " writes " + strings.Join(c.Tables, ", ") + " but no verified entry runs it"
		if c.Added {
			msg = c.Writer + " writes " + strings.Join(c.Tables, ", ") + " but no entry point found runs it: verified as an entry of its own"
		}
		locs := opt.primary(&Result{EntryPosition: c.Position})
		results = append(results, sarifResult{RuleID: ruleUncovered, RuleIndex: 2, Level: "warning", Message: sarifMessage{Text: msg},
			Locations: locs, PartialFingerprints: fingerprint(ruleUncovered, c.Writer)})
	}
	results = append(results, opt.findingResults(rep)...)
	return encodeSARIF(w, opt.run(results, true, nil))
}

// baselineJustification justifies the suppression of a finding the
// --baseline report holds.
const baselineJustification = "accepted in the baseline (--baseline): an earlier report holds this finding"

// suppressed records on res why r does not fail the run, if it does not:
// its //dbverify:ignore directive, or the baseline that accepted it (an
// independent tester, adv19: accepted findings were emitted as plain
// errors, so that GitHub raised an alert for each).
func suppressed(res sarifResult, r *Result) sarifResult {
	switch {
	case r.Suppressed != "":
		res.Suppressions = []sarifSuppression{{Kind: "inSource", Justification: r.Suppressed}}
	case r.InBaseline:
		res.Suppressions = []sarifSuppression{{Kind: "external", Justification: baselineJustification}}
	}
	return res
}

func (o sarifOptions) primary(r *Result) []sarifLocation {
	for _, pos := range []string{r.EntryPosition, r.Position} {
		if l, ok := o.location(pos, ""); ok {
			return []sarifLocation{l}
		}
	}
	// No position at all: the artifact is the working directory's module.
	return []sarifLocation{{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: "go.mod", URIBaseID: srcRoot}, Region: sarifRegion{StartLine: 1}}}}
}

func (o sarifOptions) unsafeResult(r *Result) sarifResult {
	res := sarifResult{RuleID: ruleViolated, RuleIndex: 0, Level: "error",
		Locations:           o.primary(r),
		PartialFingerprints: fingerprint(ruleViolated, r.Entry, r.Constraint),
	}
	t := r.Counterexample
	res.Message.Text = unsafeMessage(r, t)
	if l, ok := o.location(r.Position, "the step after which the constraint is broken"); ok && r.Position != r.EntryPosition {
		id := 1
		l.ID = &id
		res.RelatedLocations = []sarifLocation{l}
	}
	if t != nil {
		if flows := o.threadFlows(t); len(flows) > 0 {
			res.CodeFlows = []sarifCodeFlow{{ThreadFlows: flows}}
		}
	}
	return res
}

// threadFlows are the steps of t: one thread flow, or for a
// counterexample of concurrent requests one per request, each location
// with its place in the whole run (executionOrder).
func (o sarifOptions) threadFlows(t *Counterexample) []sarifThreadFlow {
	var flows []sarifThreadFlow
	index := map[string]int{}
	n := 0
	for _, s := range t.ShownSteps() {
		l, ok := o.location(s.Position, stepMessage(t, s))
		if !ok {
			continue
		}
		i, seen := index[s.Request]
		if !seen {
			i = len(flows)
			index[s.Request] = i
			flows = append(flows, sarifThreadFlow{ID: s.Request})
		}
		n++
		flows[i].Locations = append(flows[i].Locations, sarifFlowLocation{Location: l, ExecutionOrder: n})
	}
	return flows
}

func (o sarifOptions) unknownResult(r *Result) sarifResult {
	return sarifResult{RuleID: ruleUnknown, RuleIndex: 1, Level: "warning",
		Message:             sarifMessage{Text: r.Entry + ": " + r.Constraint + " undecided: " + r.Reason},
		Locations:           o.primary(r),
		PartialFingerprints: fingerprint(ruleUnknown, r.Entry, FindingReason(r)),
	}
}

// unsafeMessage states the concrete run in one paragraph: the alert title
// GitHub shows must be enough to understand the bug.
func unsafeMessage(r *Result, t *Counterexample) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s can break %s", r.Entry, r.Constraint)
	if t == nil {
		b.WriteString(".")
		if r.DatabaseCheck != nil {
			b.WriteString(" " + r.DatabaseCheck.Sentence())
		}
		return b.String()
	}
	if ins := t.ShownInputs(); len(ins) > 0 {
		fmt.Fprintf(&b, " when called with %s", strings.Join(ins, ", "))
	}
	var rows []string
	for _, row := range t.Rows {
		// Symbols with equal keys are one row: list it once.
		if text := row.Table + " {" + JoinValues(row.Values) + "}"; !slices.Contains(rows, text) {
			rows = append(rows, text)
		}
	}
	if len(rows) > 0 {
		fmt.Fprintf(&b, " on initial rows %s", strings.Join(rows, ", "))
	}
	if v := t.Violation; v != nil && len(v.Values) > 0 {
		fmt.Fprintf(&b, ": afterwards %s holds {%s}", v.Table, JoinValues(v.Values))
	}
	if r.Position != "" {
		fmt.Fprintf(&b, " (after %s)", r.Position)
	}
	b.WriteString(".")
	for _, n := range t.Notes {
		b.WriteString(" Note: " + n + ".")
	}
	if r.DatabaseCheck != nil {
		b.WriteString(" " + r.DatabaseCheck.Sentence())
	}
	return b.String()
}

func stepMessage(c *Counterexample, s Step) string {
	msg := s.Kind + ": " + s.Statement()
	if s.Outcome != "" {
		msg += " → " + s.Outcome
	}
	if s.Request != "" {
		msg = "request " + s.Request + ", " + msg
	}
	if values := shownStepValues(s); len(values) > 0 {
		msg += " ⇒ " + c.StepValues(values)
	}
	if s.Note != "" {
		msg += " (" + s.Note + ")"
	}
	return msg
}
