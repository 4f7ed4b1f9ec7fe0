package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/urfave/cli/v2"

	"github.com/dbverify/dbverify/report"
)

func exploreCommand(code *int) *cli.Command {
	return &cli.Command{
		Name:      "explore",
		Usage:     "browse the results of a report (dbverify check --format json|sarif): results, steps and the source with the values of each step",
		ArgsUsage: "[report.json|report.sarif|-]",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "result", Usage: "index of the result to open first (default: the first UNSAFE)", Value: -1},
			&cli.StringFlag{Name: "source-dir", Usage: "where the report's file positions are relative to (default: the report's directory for a file, else the working directory)"},
		},
		Action: func(c *cli.Context) error {
			name := c.Args().First()
			var data []byte
			var err error
			base := "."
			switch {
			case c.NArg() > 1:
				return cli.Exit("explore takes one report (a file, or - for standard input)", exitUsage)
			case name == "" || name == "-":
				if name == "" && isTerminal(os.Stdin) {
					return cli.Exit("explore needs a report: dbverify check --format json ./... > report.json; dbverify explore report.json (or pipe it in)", exitUsage)
				}
				data, err = io.ReadAll(os.Stdin)
			default:
				data, err = os.ReadFile(name)
				base = filepath.Dir(name)
			}
			if err != nil {
				return cli.Exit(err.Error(), exitUsage)
			}
			if d := c.String("source-dir"); d != "" {
				base = d
			}
			results, err := readExploreReport(data)
			if err != nil {
				return cli.Exit(fmt.Sprintf("%s: %v", displayName(name), err), exitUsage)
			}
			if len(results) == 0 {
				fmt.Fprintln(c.App.Writer, "the report has no UNSAFE or UNKNOWN result to explore")
				return nil
			}
			m := newExploreModel(results, base)
			if i := c.Int("result"); i >= 0 {
				if i >= len(results) {
					return cli.Exit(fmt.Sprintf("--result %d: the report has %d result(s) to explore", i, len(results)), exitUsage)
				}
				m.sel = i
			}
			*code = exitSafe
			if !isTerminal(c.App.Writer) {
				// Not a terminal: print every result plainly (a pager's job).
				writeExplorePlain(c.App.Writer, m)
				return nil
			}
			opts := []tea.ProgramOption{tea.WithAltScreen(), tea.WithOutput(c.App.Writer)}
			if !isTerminal(os.Stdin) {
				// The report came on stdin: keys come from the terminal.
				tty, err := os.Open("/dev/tty")
				if err != nil {
					return cli.Exit("explore: no terminal to read keys from: "+err.Error(), exitUsage)
				}
				defer tty.Close()
				opts = append(opts, tea.WithInput(tty))
			}
			if _, err := tea.NewProgram(m, opts...).Run(); err != nil {
				return cli.Exit("explore: "+err.Error(), exitUsage)
			}
			return nil
		},
	}
}

func displayName(name string) string {
	if name == "" || name == "-" {
		return "standard input"
	}
	return name
}

// exploreResult is one UNSAFE or UNKNOWN result, from a JSON or SARIF
// report.
type exploreResult struct {
	Verdict, Entry, Constraint string
	Reason, Position           string
	Inputs                     []string // "name = value"
	Rows                       []string // "r accounts: balance = 1, id = 3"
	Steps                      []exploreStep
	Violation                  string
	// Notes are what the text report says beside the counterexample:
	// "assuming …" (what the verdict relies on: assumptions and
	// approximations), "database: …" (a CHECK that refuses the
	// statement), "note: …" (what a value's name means).
	Notes []string
}

type exploreStep struct {
	Position, Kind, Text string
	Values               string // "a = 1, b = 2"
}

// readExploreReport reads a dbverify JSON report or a SARIF log.
func readExploreReport(data []byte) ([]exploreResult, error) {
	var probe struct {
		Version string            `json:"version"`
		Runs    []json.RawMessage `json:"runs"`
		Results []json.RawMessage `json:"results"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, fmt.Errorf("not a dbverify JSON report or SARIF log: %w", err)
	}
	if probe.Runs != nil {
		return readSARIFReport(data)
	}
	var rep report.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		return nil, fmt.Errorf("not a dbverify JSON report: %w", err)
	}
	var out []exploreResult
	for _, r := range rep.Results {
		if r.Verdict == report.Safe {
			continue
		}
		er := exploreResult{Verdict: string(r.Verdict), Entry: r.Entry, Constraint: r.Constraint, Reason: r.Reason, Position: r.Position}
		for _, a := range r.Assumptions {
			er.Notes = append(er.Notes, "assuming "+a)
		}
		if d := r.DatabaseCheck; d != nil && r.Verdict == report.Unsafe {
			er.Notes = append(er.Notes, "database: "+d.Sentence())
		}
		if cex := r.Counterexample; cex != nil {
			for _, n := range cex.Notes {
				er.Notes = append(er.Notes, "note: "+n)
			}
			er.Inputs = cex.ShownInputs()
			for _, row := range cex.Rows {
				er.Rows = append(er.Rows, fmt.Sprintf("%s %s: %s", row.Symbol, row.Table, report.JoinValues(row.Values)))
			}
			for _, s := range cex.ShownSteps() {
				text := s.Statement() // a SQL statement with its bound values
				if s.Outcome != "" {
					text += "   → " + s.Outcome
				}
				if s.Note != "" {
					text += "   (" + s.Note + ")"
				}
				er.Steps = append(er.Steps, exploreStep{Position: s.Position, Kind: s.Kind, Text: text, Values: cex.StepValues(s.Values)})
			}
			if v := cex.Violation; v != nil {
				er.Violation = v.Table + " row " + report.JoinValues(v.Values)
			}
		}
		out = append(out, er)
	}
	return out, nil
}

// readSARIFReport reads the results of a SARIF log, dbverify's or
// another tool's: the message, the primary location and the first thread
// flow as steps ("kind: text ⇒ values" messages are split back).
func readSARIFReport(data []byte) ([]exploreResult, error) {
	type loc struct {
		PhysicalLocation struct {
			ArtifactLocation struct{ URI string }    `json:"artifactLocation"`
			Region           struct{ StartLine int } `json:"region"`
		} `json:"physicalLocation"`
		Message *struct{ Text string } `json:"message"`
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string                `json:"ruleId"`
				Level     string                `json:"level"`
				Message   struct{ Text string } `json:"message"`
				Locations []loc                 `json:"locations"`
				CodeFlows []struct {
					ThreadFlows []struct {
						Locations []struct {
							Location loc `json:"location"`
						} `json:"locations"`
					} `json:"threadFlows"`
				} `json:"codeFlows"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		return nil, fmt.Errorf("not a SARIF log: %w", err)
	}
	pos := func(l loc) string {
		if l.PhysicalLocation.ArtifactLocation.URI == "" {
			return ""
		}
		return fmt.Sprintf("%s:%d", strings.TrimPrefix(l.PhysicalLocation.ArtifactLocation.URI, "file://"), l.PhysicalLocation.Region.StartLine)
	}
	var out []exploreResult
	for _, run := range log.Runs {
		for _, r := range run.Results {
			verdict := "UNKNOWN"
			if r.Level == "error" {
				verdict = "UNSAFE"
			}
			er := exploreResult{Verdict: verdict, Entry: r.RuleID, Reason: r.Message.Text}
			if len(r.Locations) > 0 {
				er.Position = pos(r.Locations[0])
			}
			if len(r.CodeFlows) > 0 && len(r.CodeFlows[0].ThreadFlows) > 0 {
				for _, l := range r.CodeFlows[0].ThreadFlows[0].Locations {
					s := exploreStep{Position: pos(l.Location)}
					if l.Location.Message != nil {
						text := l.Location.Message.Text
						if k, rest, ok := strings.Cut(text, ": "); ok && !strings.Contains(k, " ") {
							s.Kind, text = k, rest
						}
						s.Text, s.Values, _ = strings.Cut(text, " ⇒ ")
					}
					er.Steps = append(er.Steps, s)
				}
			}
			out = append(out, er)
		}
	}
	return out, nil
}

// writeExplorePlain prints every result with its steps and their values.
func writeExplorePlain(w io.Writer, m *exploreModel) {
	for i, r := range m.results {
		fmt.Fprintf(w, "[%d] %s %s [%s]\n", i, r.Verdict, r.Entry, r.Constraint)
		for _, n := range r.Notes {
			fmt.Fprintf(w, "  %s\n", n)
		}
		if r.Verdict != "UNSAFE" || len(r.Steps) == 0 {
			fmt.Fprintf(w, "  %s\n", r.Reason)
			continue
		}
		if len(r.Inputs) > 0 {
			fmt.Fprintf(w, "  inputs: %s\n", strings.Join(r.Inputs, ", "))
		}
		for _, row := range r.Rows {
			fmt.Fprintf(w, "  row %s\n", row)
		}
		for j, s := range r.Steps {
			fmt.Fprintf(w, "  %2d %s %s: %s", j+1, s.Position, s.Kind, s.Text)
			if s.Values != "" {
				fmt.Fprintf(w, "   ⇒ %s", s.Values)
			}
			fmt.Fprintln(w)
			if line, ok := m.sourceLine(s.Position); ok && strings.TrimSpace(line) != strings.TrimSpace(s.Text) {
				fmt.Fprintf(w, "       | %s\n", strings.TrimSpace(line))
			}
		}
		if r.Violation != "" {
			fmt.Fprintf(w, "  violation: %s\n", r.Violation)
		}
	}
}
