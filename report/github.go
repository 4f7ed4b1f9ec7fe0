package report

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// WriteGitHub writes GitHub Actions workflow commands: an ::error per
// UNSAFE result and a ::warning per UNKNOWN one and per finding, annotated on the entry
// point (file paths relative to the repository root, as GitHub wants);
// none for a result suppressed or accepted in the baseline.
func WriteGitHub(w io.Writer, rep *Report, o Options) error {
	opt := newSARIFOptions(o)
	for _, r := range rep.Results {
		if r.Suppressed != "" || r.InBaseline {
			continue // (neither fails the run: no annotation)
		}
		var level, msg string
		switch r.Verdict {
		case Unsafe:
			level, msg = "error", unsafeMessage(r, r.Counterexample)
		case Unknown:
			level, msg = "warning", r.Entry+": "+r.Constraint+" undecided: "+r.Reason
		default:
			continue
		}
		props := []string{"title=dbverify " + string(r.Verdict) + " " + escapeProperty(r.Constraint)}
		for _, pos := range []string{r.EntryPosition, r.Position} {
			if l, ok := opt.location(pos, ""); ok {
				file := l.PhysicalLocation.ArtifactLocation.URI
				file = strings.TrimPrefix(file, "file://")
				props = append([]string{"file=" + escapeProperty(filepath.ToSlash(file)), fmt.Sprintf("line=%d", l.PhysicalLocation.Region.StartLine)}, props...)
				break
			}
		}
		if _, err := fmt.Fprintf(w, "::%s %s::%s\n", level, strings.Join(props, ","), escapeData(msg)); err != nil {
			return err
		}
	}
	for _, f := range rep.Findings {
		props := []string{"title=dbverify " + escapeProperty(f.Class)}
		if l, ok := opt.location(f.Position, ""); ok {
			file := strings.TrimPrefix(l.PhysicalLocation.ArtifactLocation.URI, "file://")
			props = append([]string{"file=" + escapeProperty(filepath.ToSlash(file)), fmt.Sprintf("line=%d", l.PhysicalLocation.Region.StartLine)}, props...)
		}
		if _, err := fmt.Fprintf(w, "::warning %s::%s\n", strings.Join(props, ","), escapeData(f.Message)); err != nil {
			return err
		}
	}
	return nil
}

// escapeData and escapeProperty follow the workflow-command encoding of
// @actions/core: %, CR and LF in data; also : and , in properties.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
