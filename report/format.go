package report

import (
	"fmt"
	"io"
	"strings"
)

// A Writer renders a report to w.
type Writer func(w io.Writer, rep *Report) error

// Options are what writers need to know besides the report.
type Options struct {
	Verbose bool // text: list the predicates of SAFE results
	Quiet   bool // text: only the results that need attention, and the summary
	// Dir is the directory the report's positions are relative to ("" =
	// the working directory); SARIF and GitHub URIs are made relative to
	// the repository root above it.
	Dir string
	// Category is the SARIF runAutomationDetails id (--sarif-category).
	Category string
	// ToolVersion and SemanticVersion name the tool in a SARIF log.
	ToolVersion, SemanticVersion string
}

// Format names an output format. It implements flag.Value: Set accepts
// only the names of Formats.
type Format string

// The formats.
const (
	Text   Format = "text"
	JSON   Format = "json"
	SARIF  Format = "sarif"
	GitHub Format = "github"
)

// formatInfo is one row of the format table.
type formatInfo struct {
	name Format
	doc  string // what the format is for, in the usage text ("" = nothing to say)
	new  func(Options) Writer
}

// formats is the table of output formats, in the order the usage lists
// them. Adding a format is adding a row (and its writer).
func formats() []formatInfo {
	return []formatInfo{
		{Text, "", func(o Options) Writer { return func(w io.Writer, r *Report) error { return WriteText(w, r, o) } }},
		{JSON, "", func(Options) Writer { return WriteJSON }},
		{SARIF, "GitHub code scanning", func(o Options) Writer { return func(w io.Writer, r *Report) error { return WriteSARIF(w, r, o) } }},
		{GitHub, "workflow-command annotations", func(o Options) Writer { return func(w io.Writer, r *Report) error { return WriteGitHub(w, r, o) } }},
	}
}

// Formats lists the output formats.
func Formats() []Format {
	var out []Format
	for _, f := range formats() {
		out = append(out, f.name)
	}
	return out
}

// FormatUsage lists the formats for a usage text: "text, json, sarif
// (GitHub code scanning) or github (workflow-command annotations)".
func FormatUsage() string {
	var names []string
	for _, f := range formats() {
		s := string(f.name)
		if f.doc != "" {
			s += " (" + f.doc + ")"
		}
		names = append(names, s)
	}
	return orList(names)
}

func (f Format) String() string { return string(f) }

// Set sets f to the format named s.
func (f *Format) Set(s string) error {
	for _, x := range formats() {
		if Format(s) == x.name {
			*f = x.name
			return nil
		}
	}
	var names []string
	for _, x := range Formats() {
		names = append(names, string(x))
	}
	return fmt.Errorf("unknown format %q (want %s)", s, orList(names))
}

// Writer returns the writer of format f with options o; nil if f is not
// a format.
func (f Format) Writer(o Options) Writer {
	for _, x := range formats() {
		if x.name == f {
			return x.new(o)
		}
	}
	return nil
}

// orList joins "a, b or c".
func orList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}
