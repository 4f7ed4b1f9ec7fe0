package witness

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// The request accessors whose results a counterexample names as inputs
// (`Param(_, "id")`, `Get(_, "amount")`), by where the value is in the
// request.
var (
	pathAccessors  = map[string]bool{"PathValue": true, "Param": true, "URLParam": true, "Params": true} // (Params: fiber's)
	queryAccessors = map[string]bool{"Get": true, "QueryParam": true, "Query": true, "DefaultQuery": true, "FormValue": true}
	formAccessors  = map[string]bool{"PostForm": true, "PostFormValue": true, "DefaultPostForm": true}
	// parsers turn a request's text into the value the program uses.
	parsers = map[string]bool{"ParseInt": true, "ParseUint": true, "ParseFloat": true, "Atoi": true, "ParseBool": true}
)

// muxVars is gorilla/mux's `Vars(_)["id"]`.
var muxVars = regexp.MustCompile(`^Vars\(_\)\["([^"]+)"\]$`)

// bodyDecode finds the variable a JSON body is decoded or bound into:
// `Decode(&req)`, `ShouldBindJSON(&req)`, `c.Bind(&req)`,
// `json.Unmarshal(data, &req)`, fiber's `c.BodyParser(&req)`.
var bodyDecode = regexp.MustCompile(`(?:Decode|Bind\w*|BodyParser)\(\s*&(\w+)|Unmarshal\([\w.]+(?:\(\))?,\s*&(\w+)`)

// HTTPInputs are the driver inputs ("$http.path.id", "$http.query.amount",
// "$http.form.amount", "$http.body") of a handler's request, read from a
// run's inputs (in, named as the counterexample names them) and the
// trace's steps:
//
//   - path, query and form values from the accessors' results
//     (`PathValue(_, "id")`, `Vars(_)["id"]`, `Param(_, "id")`,
//     `Get(_, "amount")`, `PostForm(_, "amount")`); a value a parser
//     turned into a number (`ParseInt(Param(_, "id"), 10, 64).0`) is that
//     number's text, since the program uses the parsed value, unless the
//     trace prints the text as a Go string that parses to it ("00" stays);
//   - the JSON body from the fields of the variable the trace decodes it
//     into (`json.NewDecoder(r.Body).Decode(&req)` and the steps' values
//     of req.Amount …): each field's value by its Go field path
//     ("$http.json.Amount"), from which the driver marshals a value of the
//     decoded type, and "$http.body", a guess for a type it cannot build
//     (each field under its Go name and, when different, its snake_case
//     name, the JSON type read from the value's text).
func HTTPInputs(in map[string]string, steps []CexStep) map[string]string {
	out := map[string]string{}
	parsed, parsedCall := map[string]string{}, map[string]string{}
	for name, v := range in {
		if inner, ok := parsedArg(name); ok {
			parsed[inner], parsedCall[inner] = v, name
			continue
		}
		if k, ok := requestKey(name); ok {
			if _, set := out[k]; !set {
				out[k] = v
			}
		}
	}
	for inner, v := range parsed {
		if k, ok := requestKey(inner); ok && !textParsesTo(parsedCall[inner], in[inner], v) {
			out[k] = v
		}
	}
	if fields, ok := bodyFields(steps); ok {
		if body := jsonBody(fields); body != "" {
			out["$http.body"] = body
		}
		for field, v := range fields {
			out[JSONFieldPrefix+field] = v
		}
	}
	return out
}

// parsedArg reads `ParseInt(X, 10, 64).0` (the parser's value) as X.
func parsedArg(name string) (string, bool) {
	fn, args, rest, ok := splitCall(name)
	if !ok || !parsers[fn] || rest != ".0" || len(args) == 0 {
		return "", false
	}
	return args[0], true
}

// requestKey is the driver input of a request accessor's result.
func requestKey(name string) (string, bool) {
	if m := muxVars.FindStringSubmatch(name); m != nil {
		return "$http.path." + m[1], true
	}
	fn, args, rest, ok := splitCall(name)
	if !ok || rest != "" || len(args) < 2 || args[0] != "_" {
		return "", false
	}
	key, err := strconv.Unquote(args[1])
	if err != nil {
		return "", false
	}
	switch {
	case pathAccessors[fn]:
		return "$http.path." + key, true
	case queryAccessors[fn]:
		return "$http.query." + key, true
	case formAccessors[fn]:
		return "$http.form." + key, true
	}
	return "", false
}

// splitCall splits `F(a, b(c, d), "e").0` into F, its top-level
// arguments and what follows the call.
func splitCall(s string) (fn string, args []string, rest string, ok bool) {
	open := strings.IndexByte(s, '(')
	if open <= 0 {
		return "", nil, "", false
	}
	fn = s[:open]
	depth, start := 0, open+1
	inStr := false
	for i := open; i < len(s); i++ {
		switch ch := s[i]; {
		case inStr:
			if ch == '\\' {
				i++
			} else if ch == '"' {
				inStr = false
			}
		case ch == '"':
			inStr = true
		case ch == '(' || ch == '[':
			depth++
		case ch == ')' || ch == ']':
			depth--
			if depth == 0 {
				if a := strings.TrimSpace(s[start:i]); a != "" {
					args = append(args, a)
				}
				return fn, args, s[i+1:], true
			}
		case ch == ',' && depth == 1:
			args = append(args, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	return "", nil, "", false
}

// bodyFields are the values the trace gives the fields of the variable it
// decodes a request's body into, by Go field path ("Amount", "Payer.ID";
// the first value a path gets), and whether the trace decodes a body.
func bodyFields(steps []CexStep) (map[string]string, bool) {
	target := ""
	for _, st := range steps {
		if m := bodyDecode.FindStringSubmatch(st.Text); m != nil {
			target = m[1] + m[2]
			break
		}
	}
	if target == "" {
		return nil, false
	}
	fields := map[string]string{}
	for _, st := range steps {
		for _, k := range sortedKeys(st.Values) {
			field, ok := strings.CutPrefix(k, target+".")
			if _, set := fields[field]; ok && field != "" && !set {
				fields[field] = st.Values[k]
			}
		}
	}
	for _, field := range sortedKeys(fields) {
		// A pointer field's nil-ness ("req.Fee != nil"): null when false.
		if base, ok := strings.CutSuffix(field, " != nil"); ok {
			if strings.TrimSpace(fields[field]) == "false" {
				fields[base] = "nil"
			}
			delete(fields, field)
		}
	}
	return fields, true
}

// jsonBody is the JSON object of the fields a trace gives the variable it
// decodes a body into, each value's JSON type guessed from its text and
// each field sent under its Go name and snake_case spelling ("" when the
// trace decodes none). The driver replaces it by the marshalled value of
// the decoded Go type when it finds that type (jsonBodyStmt).
func jsonBody(fields map[string]string) string {
	body := map[string]any{}
	for _, field := range sortedKeys(fields) {
		setField(body, strings.Split(field, "."), jsonValue(fields[field]))
	}
	data, err := json.Marshal(body)
	if err != nil {
		return ""
	}
	return string(data)
}

// setField sets a field path in a JSON object (the first value a path
// gets stays), under the Go name and its snake_case spelling.
func setField(obj map[string]any, path []string, v any) {
	for _, name := range jsonNames(path[0]) {
		if len(path) == 1 {
			if _, set := obj[name]; !set {
				obj[name] = v
			}
			continue
		}
		sub, ok := obj[name].(map[string]any)
		if !ok {
			sub = map[string]any{}
			obj[name] = sub
		}
		setField(sub, path[1:], v)
	}
}

// jsonNames are the keys a Go field is sent under: encoding/json matches
// keys to a field's name or tag without regard to case, so the Go name
// covers `json:"amount"`, and the snake_case name `json:"account_id"`.
func jsonNames(field string) []string {
	var b strings.Builder
	rs := []rune(field)
	for i, r := range rs {
		if unicode.IsUpper(r) {
			if i > 0 && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1])) {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	if snake := b.String(); !strings.EqualFold(snake, field) {
		return []string{field, snake}
	}
	return []string{field}
}

// jsonValue is a step value as JSON: a number, a boolean, or a string.
func jsonValue(v string) any {
	switch v {
	case "nil":
		return nil
	case "true":
		return true
	case "false":
		return false
	}
	if isInt(v) {
		return json.Number(v)
	}
	if _, err := strconv.ParseFloat(v, 64); err == nil {
		return json.Number(v)
	}
	if u, err := strconv.Unquote(v); err == nil {
		return u
	}
	return v
}
