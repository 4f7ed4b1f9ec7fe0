package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
)

func exploreCommand(code *int) *cli.Command {
	return &cli.Command{
		Name:      "explore",
		Usage:     "step through the counterexamples of a JSON report (dbverify check --format json > report.json)",
		ArgsUsage: "report.json",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "result", Usage: "index of the UNSAFE result to explore (default: the first)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return cli.Exit("explore needs one JSON report file", exitUsage)
			}
			data, err := os.ReadFile(c.Args().First())
			if err != nil {
				return cli.Exit(err.Error(), exitUsage)
			}
			var rep jsonReport
			if err := json.Unmarshal(data, &rep); err != nil {
				return cli.Exit(fmt.Sprintf("%s is not a dbverify JSON report: %v", c.Args().First(), err), exitUsage)
			}
			var unsafe []jsonResult
			for _, r := range rep.Results {
				if r.Counterexample != nil {
					unsafe = append(unsafe, r)
				}
			}
			if len(unsafe) == 0 {
				fmt.Fprintln(c.App.Writer, "no counterexample in the report")
				return nil
			}
			i := c.Int("result")
			if i < 0 || i >= len(unsafe) {
				return cli.Exit(fmt.Sprintf("--result %d: the report has %d counterexample(s)", i, len(unsafe)), exitUsage)
			}
			explore(c.App.Writer, os.Stdin, unsafe[i])
			*code = exitSafe
			return nil
		},
	}
}

// explore is the interactive stepper: Enter or n for the next step, p for
// the previous one, a number to jump, s for the state so far, q to quit.
func explore(w io.Writer, in io.Reader, r jsonResult) {
	cex := r.Counterexample
	fmt.Fprintf(w, "%s breaks %s\n", r.Entry, r.Constraint)
	fmt.Fprintf(w, "inputs: %s\n", kv(cex.Inputs))
	for _, row := range cex.Rows {
		fmt.Fprintf(w, "row %s (%s) initially: %s\n", row.Symbol, row.Table, kv(row.Values))
	}
	fmt.Fprintf(w, "%d steps. Enter/n: next, p: previous, N: go to step N, s: state, q: quit\n", len(cex.Steps))
	sc := bufio.NewScanner(in)
	i := 0
	show := func() {
		if i >= len(cex.Steps) {
			fmt.Fprintf(w, "end: %s row %s violates %s\n", cex.Violation.Table, kv(cex.Violation.Values), r.Constraint)
			return
		}
		s := cex.Steps[i]
		fmt.Fprintf(w, "[%d/%d] %s %s: %s", i+1, len(cex.Steps), s.Position, s.Kind, s.Text)
		if len(s.Values) > 0 {
			fmt.Fprintf(w, "   ⇒ %s", kv(s.Values))
		}
		fmt.Fprintln(w)
	}
	show()
	for {
		fmt.Fprint(w, "> ")
		if !sc.Scan() {
			fmt.Fprintln(w)
			return
		}
		cmd := strings.TrimSpace(sc.Text())
		switch {
		case cmd == "" || cmd == "n":
			if i < len(cex.Steps) {
				i++
			}
		case cmd == "p":
			if i > 0 {
				i--
			}
		case cmd == "q":
			return
		case cmd == "s":
			state := map[string]string{}
			for k, v := range cex.Inputs {
				state[k] = v
			}
			for _, s := range cex.Steps[:min(i+1, len(cex.Steps))] {
				for k, v := range s.Values {
					state[k] = v
				}
			}
			fmt.Fprintf(w, "state: %s\n", kv(state))
			continue
		default:
			n, err := strconv.Atoi(cmd)
			if err != nil || n < 1 || n > len(cex.Steps)+1 {
				fmt.Fprintf(w, "unknown command %q\n", cmd)
				continue
			}
			i = n - 1
		}
		show()
	}
}
