package pipeline

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
)

// fingerprint writes a canonical text of v to w, for the result cache's
// keys: every field of every struct reached, exported or not, so that a
// field added to the IR or the schema is part of the keys without
// anyone listing it. Pointers are followed once (a second visit writes
// the ordinal of the first, so shared and cyclic structures print the
// same on every run, never an address); maps print in the order of their
// keys' texts; an interface prints its dynamic type; a func or a channel
// only whether it is nil.
func fingerprint(w io.Writer, v any) {
	d := &dumper{w: w, seen: map[visit]int{}}
	d.value(reflect.ValueOf(v))
}

// visit is a pointer followed: its address and the type it points to
// (a struct and its first field share an address).
type visit struct {
	addr uintptr
	typ  reflect.Type
}

type dumper struct {
	w    io.Writer
	seen map[visit]int
}

func (d *dumper) value(v reflect.Value) {
	switch v.Kind() {
	case reflect.Invalid:
		io.WriteString(d.w, "nil")
	case reflect.Pointer:
		d.pointer(v)
	case reflect.Interface:
		if v.IsNil() {
			io.WriteString(d.w, "nil")
			return
		}
		fmt.Fprintf(d.w, "(%s)", v.Elem().Type())
		d.value(v.Elem())
	case reflect.Struct:
		io.WriteString(d.w, "{")
		for i := range v.NumField() {
			fmt.Fprintf(d.w, "%s:", v.Type().Field(i).Name)
			d.value(v.Field(i))
			io.WriteString(d.w, ",")
		}
		io.WriteString(d.w, "}")
	case reflect.Slice, reflect.Array:
		fmt.Fprintf(d.w, "[%d:", v.Len())
		for i := range v.Len() {
			d.value(v.Index(i))
			io.WriteString(d.w, ",")
		}
		io.WriteString(d.w, "]")
	case reflect.Map:
		d.mapValue(v)
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		fmt.Fprintf(d.w, "%s(nil=%t)", v.Kind(), v.IsNil())
	case reflect.Bool:
		fmt.Fprintf(d.w, "%t", v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		fmt.Fprintf(d.w, "%d", v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		fmt.Fprintf(d.w, "%d", v.Uint())
	case reflect.Float32, reflect.Float64:
		fmt.Fprintf(d.w, "%v", v.Float())
	case reflect.Complex64, reflect.Complex128:
		fmt.Fprintf(d.w, "%v", v.Complex())
	case reflect.String:
		fmt.Fprintf(d.w, "%q", v.String())
	}
}

// pointer writes what v points to, or the ordinal of its first visit.
func (d *dumper) pointer(v reflect.Value) {
	if v.IsNil() {
		io.WriteString(d.w, "nil")
		return
	}
	k := visit{v.Pointer(), v.Type()}
	if n, ok := d.seen[k]; ok {
		fmt.Fprintf(d.w, "&%d", n)
		return
	}
	d.seen[k] = len(d.seen)
	io.WriteString(d.w, "&")
	d.value(v.Elem())
}

// mapValue writes v's entries in the order of their keys' texts (each
// key printed on its own, so that the order does not depend on the
// pointers visited before).
func (d *dumper) mapValue(v reflect.Value) {
	type entry struct {
		key string
		val reflect.Value
	}
	var entries []entry
	for it := v.MapRange(); it.Next(); {
		var b bytes.Buffer
		fingerprintValue(&b, it.Key())
		entries = append(entries, entry{b.String(), it.Value()})
	}
	slices.SortStableFunc(entries, func(a, b entry) int { return strings.Compare(a.key, b.key) })
	fmt.Fprintf(d.w, "map[%d:", len(entries))
	for _, e := range entries {
		fmt.Fprintf(d.w, "%s=", e.key)
		d.value(e.val)
		io.WriteString(d.w, ",")
	}
	io.WriteString(d.w, "]")
}

// fingerprintValue is fingerprint of a reflected value, with pointers
// numbered afresh.
func fingerprintValue(w io.Writer, v reflect.Value) {
	d := &dumper{w: w, seen: map[visit]int{}}
	d.value(v)
}
