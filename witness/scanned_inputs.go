package witness

import (
	"math/big"
	"regexp"
	"strconv"
	"strings"
)

// scanCall is `fmt.Sscan(src, &dst)` (or Sscanf with a format, Sscanln).
var scanCall = regexp.MustCompile(`\bSscan(?:f|ln)?\(\s*(\w+)\s*,(?:\s*"[^"]*"\s*,)?\s*&(\w+)\s*\)`)

// ParsedInputs are the text inputs whose parsed value the trace shows
// instead of their text: `fmt.Sscan(amountField, &amt)` with amt = 5 in
// the step's values, or an input `Atoi(s).0` = 5, makes the input
// amountField (s) the text "5". dbverify models the text and the parsed
// number as two values; execution needs the text that parses to the
// number the path uses. A text the trace prints as a Go string that
// already parses to that number stays as printed: "00" is not "0" to a
// program that compares the text before parsing it.
func ParsedInputs(in map[string]string, steps []CexStep) map[string]string {
	out := map[string]string{}
	for name, v := range in {
		if inner, ok := parsedArg(name); ok {
			if text, isInput := in[inner]; isInput && !textParsesTo(name, text, v) {
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
		if v, ok := st.Values[m[2]]; ok && !textParsesTo("Sscan", in[m[1]], v) {
			out[m[1]] = v
		}
	}
	return out
}

// textParsesTo reports whether text, a value the trace prints as a Go
// string literal, is a text that the parser call (`ParseInt(s, 10, 64).0`,
// `Atoi(s).0`, `ParseFloat(s, 64).0`, `ParseBool(s).0`, or "Sscan") turns
// into the value v: then the program read that very text, and a replay
// passes it as printed.
func textParsesTo(call, text, v string) bool {
	s, err := strconv.Unquote(text)
	if err != nil {
		return false
	}
	fn, args, _, ok := splitCall(call)
	if !ok {
		fn = call
	}
	base := 10
	if len(args) > 1 && (fn == "ParseInt" || fn == "ParseUint") {
		if b, err := strconv.Atoi(args[1]); err == nil {
			base = b
		}
	}
	var got *big.Rat
	switch fn {
	case "ParseBool":
		b, err := strconv.ParseBool(s)
		return err == nil && strconv.FormatBool(b) == strings.TrimSpace(v)
	case "ParseFloat":
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return false
		}
		got = new(big.Rat).SetFloat64(f)
	default:
		n, ok := new(big.Int).SetString(s, base)
		if !ok || (base == 10 && strings.ContainsAny(s, "_")) {
			return false
		}
		got = new(big.Rat).SetInt(n)
	}
	want, ok := new(big.Rat).SetString(strings.TrimSpace(v))
	return ok && got != nil && got.Cmp(want) == 0
}
