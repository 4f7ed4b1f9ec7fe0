package witness

import "regexp"

// scanCall is `fmt.Sscan(src, &dst)` (or Sscanf with a format, Sscanln).
var scanCall = regexp.MustCompile(`\bSscan(?:f|ln)?\(\s*(\w+)\s*,(?:\s*"[^"]*"\s*,)?\s*&(\w+)\s*\)`)

// ParsedInputs are the text inputs whose parsed value the trace shows
// instead of their text: `fmt.Sscan(amountField, &amt)` with amt = 5 in
// the step's values, or an input `Atoi(s).0` = 5, makes the input
// amountField (s) the text "5". dbverify models the text and the parsed
// number as two values; execution needs the text that parses to the
// number the path uses.
func ParsedInputs(in map[string]string, steps []CexStep) map[string]string {
	out := map[string]string{}
	for name, v := range in {
		if inner, ok := parsedArg(name); ok {
			if _, isInput := in[inner]; isInput {
				out[inner] = v
			}
		}
	}
	for _, st := range steps {
		m := scanCall.FindStringSubmatch(st.Text)
		if m == nil {
			continue
		}
		if _, isInput := in[m[1]]; !isInput {
			continue
		}
		if v, ok := st.Values[m[2]]; ok {
			out[m[1]] = v
		}
	}
	return out
}
