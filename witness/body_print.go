package witness

import (
	"encoding/json"
	"go/types"
	"math/big"
	"reflect"
	"strconv"
	"strings"
)

// The JSON body a replay prints. The driver sends a handler's body
// marshalled from the Go type it decodes into (jsonBodyStmt), under the
// type's json tags; the run's "$http.body" input, which replay prints,
// was the harness's guess from the trace's Go field names
// ({"Amount":1,"From":2} for `json:"amount"`, `json:"from"`: an
// independent tester's adv16 report), not the body sent. sentBody prints
// the body as encoding/json writes it.

// jsonLeaf is a leaf field of a body type as encoding/json writes it.
type jsonLeaf struct {
	// Path is the Go field path ("Payer.ID"), as the run's "$http.json."
	// inputs name it; Keys the JSON keys leading to it.
	Path string
	Keys []string
	// Kind is how the value is written: "string", "number" or "bool".
	Kind string
	// Ptr: a pointer, null when the run gives none; OmitEmpty: left out
	// when zero.
	Ptr, OmitEmpty bool
}

// jsonLeaves appends the leaves of struct (or pointer to struct) t under
// Go path path and JSON keys keys, as bodySets walks them: exported
// fields not tagged "-", an untagged embedded struct's fields flattened.
func (g *fileGen) jsonLeaves(t types.Type, path string, keys []string, depth int, out *[]jsonLeaf) {
	if depth > maxDepth {
		return
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		tag := reflect.StructTag(st.Tag(i)).Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if !f.Exported() || tag == "-" {
			continue
		}
		fPath := strings.TrimPrefix(path+"."+f.Name(), ".")
		fKeys := append(append([]string(nil), keys...), name)
		if name == "" {
			fKeys[len(fKeys)-1] = f.Name()
		}
		if f.Anonymous() && name == "" {
			fKeys = keys // (encoding/json flattens it)
		}
		ft := f.Type()
		switch {
		case isLeaf(ft) && g.nameable(ft, 0):
			_, ptr := ft.Underlying().(*types.Pointer)
			*out = append(*out, jsonLeaf{Path: fPath, Keys: fKeys, Kind: leafKind(ft, opts), Ptr: ptr, OmitEmpty: strings.Contains(opts, "omitempty")})
		case g.isStructOrPtr(ft):
			g.jsonLeaves(ft, fPath, fKeys, depth+1, out)
		}
	}
}

// leafKind is how encoding/json writes a leaf of type t with tag options
// opts (",string" writes a number or a boolean as a string; a decimal
// marshals itself as a string).
func leafKind(t types.Type, opts string) string {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	b, ok := t.Underlying().(*types.Basic)
	switch {
	case strings.Contains(opts, "string") || !ok || b.Info()&types.IsString != 0:
		return "string"
	case b.Info()&types.IsBoolean != 0:
		return "bool"
	}
	return "number"
}

// sentBody is the JSON body the driver sends for the run's inputs in
// (its "$http.json." fields; the other fields at their zero values), ""
// when the driver does not marshal the body from the handler's type.
func (spec *EntrySpec) sentBody(in map[string]string) string {
	if len(spec.BodyLeaves) == 0 {
		return ""
	}
	body := map[string]any{}
	for _, l := range spec.BodyLeaves {
		raw, given := in[JSONFieldPrefix+l.Path]
		v, zero := leafValue(l, raw, given)
		if zero && l.OmitEmpty {
			continue
		}
		obj := body
		for _, k := range l.Keys[:len(l.Keys)-1] {
			sub, ok := obj[k].(map[string]any)
			if !ok {
				sub = map[string]any{}
				obj[k] = sub
			}
			obj = sub
		}
		if _, set := obj[l.Keys[len(l.Keys)-1]]; !set {
			obj[l.Keys[len(l.Keys)-1]] = v
		}
	}
	data, err := json.Marshal(body)
	if err != nil {
		return ""
	}
	return string(data)
}

// leafValue is the JSON value of leaf l given the run's text raw (given:
// the run has one), and whether it is the zero value.
func leafValue(l jsonLeaf, raw string, given bool) (v any, zero bool) {
	if l.Ptr && (!given || raw == "nil") {
		return nil, true
	}
	if u, err := strconv.Unquote(raw); err == nil {
		raw = u
	}
	raw = strings.TrimSpace(raw)
	switch l.Kind {
	case "bool":
		b := raw == "true" || raw == "1"
		return b, !b
	case "number":
		r, ok := new(big.Rat).SetString(raw)
		if !given || !ok {
			return json.Number("0"), true
		}
		if r.IsInt() {
			return json.Number(r.Num().String()), r.Sign() == 0
		}
		return json.Number(strings.TrimRight(r.FloatString(10), "0")), false
	}
	return raw, raw == ""
}
